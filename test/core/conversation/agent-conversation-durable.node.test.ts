/**
 * A conversation whose turns are durable runs, kept in a thread store, against the package's mock
 * service on a clock the test drives (the page's and the service's are one), counted at the
 * service.
 */
import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createMemoryThreadStore,
  createDurableRunStore,
  type ConversationMessage,
  type ThreadStore,
} from 'agent-console-kit';
import {
  createAgentConversation,
  type AgentConversation,
  type AgentConversationOptions,
  type KeyValueStorage,
} from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import {
  createMockAgentServer,
  demoAgents,
  textEvents,
  type MockAgentServer,
} from 'agent-console-kit/testing';
import {
  manualPage,
  idleConversation,
  tickConversation,
} from '../../support/durable-environment.js';

async function setUp() {
  const page = manualPage();
  const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
  const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-5f3a9c' });
  const runStorage: KeyValueStorage = createMemoryStorage();
  const threadStore = countSaves(createMemoryThreadStore());
  /** One page load: a new conversation over the same stores. */
  const open = (agentId: string, options: Partial<AgentConversationOptions> = {}) =>
    createAgentConversation(client, {
      agentId,
      executionMode: 'durable',
      threadStore,
      threadId: 'thread-1',
      durableRun: page.durableRun(runStorage),
      ...options,
    });
  return { page, server, threadStore, open };
}

function countSaves(store: ThreadStore): ThreadStore & { saves: number } {
  const counted = Object.assign(Object.create(store) as ThreadStore, { saves: 0 });
  counted.save = (thread, options) => {
    counted.saves++;
    return store.save(thread, options);
  };
  return counted;
}

/** `store` whose loads wait until `release()`: a thread that is still loading. */
function slowLoads(store: ThreadStore) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slow = Object.create(store) as ThreadStore;
  slow.load = async (threadId) => {
    await gate;
    return store.load(threadId);
  };
  return { slow, release };
}

const starts = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'run');
const shape = (conversation: AgentConversation) =>
  conversation.getSnapshot().messages.map((message) => [message.role, message.status]);

describe('given a durable conversation and the mock service', () => {
  it('a turn is one durable run: text replaced from each read, saved before the POST, when accepted and when settled only', async () => {
    const { page, server, threadStore, open } = await setUp();
    try {
      const conversation = open('durable-agent');
      await conversation.loaded;
      const done = conversation.send('Write the report');
      await idleConversation(conversation);
      expect(conversation.getSnapshot().status).toBe('streaming');
      await conversation.saved;
      // Before the POST (the question), then accepted: the run id is in the thread.
      expect(threadStore.saves).toBe(2);
      const saved = await threadStore.load('thread-1');
      const runId = conversation.getSnapshot().durableRun?.runId;
      expect(saved?.messages.at(-1)?.run).toMatchObject({ mode: 'durable', runId });

      await tickConversation(page, conversation, 7000);
      const settled = await done;
      expect(settled.status).toBe('idle');
      expect(shape(conversation)).toEqual([
        ['USER', 'done'],
        ['GLEAN_AI', 'done'],
      ]);
      expect(settled.messages[1]?.text).toMatch(/^Collecting the sources\..*ready for review\.$/);
      await conversation.saved;
      // Many reads (one a second), three saves.
      expect(server.service.durableStats.polls).toBeGreaterThan(5);
      expect(threadStore.saves).toBe(3);
      expect((await threadStore.load('thread-1'))?.messages).toEqual(settled.messages);

      // The next turn sends the history, as in stream mode.
      void conversation.send('Shorter, please');
      await idleConversation(conversation);
      const bodies = starts(server).map(
        (request) => (request.body as { messages: { role: string }[] }).messages,
      );
      expect(bodies.map((messages) => messages.map((message) => message.role))).toEqual([
        ['USER'],
        ['USER', 'GLEAN_AI', 'USER'],
      ]);
      expect(JSON.stringify(threadStore)).not.toContain('tok-5f3a9c');
    } finally {
      await server.close();
    }
  });

  it('a reload mid-turn attaches the same run: one answer, no second POST', async () => {
    const { page, server, open } = await setUp();
    try {
      const first = open('durable-agent');
      await first.loaded;
      void first.send('Write the report');
      await idleConversation(first);
      await tickConversation(page, first, 3000);
      const partial = first.getSnapshot().messages[1]?.text ?? '';
      expect(partial.length).toBeGreaterThan(0);
      first.dispose(); // the reload: detached, not cancelled

      const second = open('durable-agent');
      expect(second.getSnapshot().status).toBe('loading');
      await second.loaded;
      await idleConversation(second);
      expect(second.getSnapshot()).toMatchObject({ status: 'streaming' });
      expect(second.getSnapshot().messages).toHaveLength(2);
      expect(second.getSnapshot().messages[1]?.text.startsWith(partial)).toBe(true);
      await tickConversation(page, second, 4000);
      expect(shape(second)).toEqual([
        ['USER', 'done'],
        ['GLEAN_AI', 'done'],
      ]);
      expect(second.getSnapshot().messages[1]?.text).toMatch(/ready for review\.$/);
      expect(starts(server)).toHaveLength(1);
      expect(server.service.durableStats.cancels).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a reload finding a run settled in the run store but not in the thread reads it: never an empty "done" answer', async () => {
    const { page, server, threadStore, open } = await setUp();
    try {
      const first = open('durable-agent');
      await first.loaded;
      const done = first.send('Write the report');
      await idleConversation(first);
      await tickConversation(page, first, 7000);
      const settled = await done;
      await first.saved;
      first.dispose();
      // The page went away after the run store saw the end, before the thread's save: the thread
      // holds the answer as accepted (no text yet, the run id).
      const stored = await threadStore.load('thread-1');
      const [question, answer] = settled.messages;
      if (stored === undefined || question === undefined || answer === undefined) throw new Error();
      const accepted: ConversationMessage = { ...answer, text: '', status: 'streaming' };
      delete accepted.endedAt;
      await threadStore.save(
        { ...stored, messages: [question, accepted] },
        { expectedRevision: stored.revision },
      );

      const second = open('durable-agent');
      const seen: [string, string | undefined][] = [];
      second.subscribe(() => {
        const last = second.getSnapshot().messages[1];
        seen.push([last?.status ?? '', last?.text]);
      });
      await second.loaded;
      await idleConversation(second);
      // It says it is reading until the read came, then shows the answer the run wrote.
      expect(seen.filter(([status, text]) => status === 'done' && text === '')).toEqual([]);
      expect(second.getSnapshot().messages[1]).toMatchObject({ status: 'done', text: answer.text });
      expect(second.getSnapshot().status).toBe('idle');
      expect(starts(server)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('dispose() then resume() mid-turn (StrictMode, a disconnect): the answer keeps coming and the turn settles', async () => {
    const { page, server, open } = await setUp();
    try {
      const conversation = open('durable-agent');
      await conversation.loaded;
      const done = conversation.send('Write the report');
      await idleConversation(conversation);
      await tickConversation(page, conversation, 2000);
      const partial = conversation.getSnapshot().messages[1]?.text ?? '';
      conversation.dispose();
      conversation.resume();
      await idleConversation(conversation);
      await tickConversation(page, conversation, 5000);
      expect(conversation.getSnapshot().durableRun?.status).toBe('succeeded');
      const settled = await done;
      expect(settled.status).toBe('idle');
      expect(shape(conversation)).toEqual([
        ['USER', 'done'],
        ['GLEAN_AI', 'done'],
      ]);
      expect(settled.messages[1]?.text.startsWith(partial)).toBe(true);
      expect(settled.messages[1]?.text).toMatch(/ready for review\.$/);
      expect(starts(server)).toHaveLength(1);
      expect(server.service.durableStats.cancels).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('dispose() during the start POST: the run id still reaches the thread, nothing is polled, resume() finishes the turn', async () => {
    const { page, server, threadStore, open } = await setUp();
    try {
      const conversation = open('durable-agent');
      await conversation.loaded;
      const done = conversation.send('Write the report');
      expect(conversation.getSnapshot().durableRun?.status).toBe('starting');
      conversation.dispose();
      await expect.poll(() => conversation.getSnapshot().durableRun?.runId).toBeDefined();
      await idleConversation(conversation);
      await conversation.saved;
      const runId = conversation.getSnapshot().durableRun?.runId;
      expect((await threadStore.load('thread-1'))?.messages.at(-1)?.run?.runId).toBe(runId);
      const polls = server.service.durableStats.polls;
      for (let step = 0; step < 10; step++) {
        page.advance(500);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(server.service.durableStats.polls - polls).toBeLessThanOrEqual(1);
      expect(conversation.getSnapshot().durableRun?.connection).toBe('stopped');

      conversation.resume();
      await idleConversation(conversation);
      await tickConversation(page, conversation, 8000);
      const settled = await done;
      expect(settled.status).toBe('idle');
      expect(settled.messages[1]).toMatchObject({ status: 'done' });
      expect(settled.messages[1]?.text).toMatch(/ready for review\.$/);
      expect(starts(server)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('dispose() while the thread loads drops the send waiting for it: nothing reaches the service', async () => {
    const { server, threadStore, open } = await setUp();
    try {
      const { slow, release } = slowLoads(threadStore);
      const conversation = open('durable-agent', { threadStore: slow });
      const queued = conversation.send('Sent during the load');
      conversation.dispose();
      release();
      await conversation.loaded;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests).toHaveLength(0);
      const dropped = await queued;
      expect(dropped.messages).toEqual([]);
      expect(conversation.getSnapshot()).toMatchObject({ status: 'idle', messages: [] });

      // Still disposed: a send starts no durable run (its POST could not be taken back).
      await conversation.send('Sent after dispose');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests).toHaveLength(0);
      expect(conversation.getSnapshot().messages).toEqual([]);

      // Watched again: a send goes out, once.
      conversation.resume();
      void conversation.send('Sent after resume');
      await idleConversation(conversation);
      expect(starts(server)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('stream mode: dispose() while the thread loads drops the send waiting for it', async () => {
    const { server, threadStore, open } = await setUp();
    try {
      const { slow, release } = slowLoads(threadStore);
      const conversation = open('durable-agent', { threadStore: slow, executionMode: 'stream' });
      const queued = conversation.send('Sent during the load');
      conversation.dispose();
      release();
      await conversation.loaded;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests).toHaveLength(0);
      expect((await queued).messages).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('clear() while the thread loads wins over the stored thread, and a durable answer in it is not attached', async () => {
    const { page, server, threadStore, open } = await setUp();
    try {
      const first = open('durable-agent');
      await first.loaded;
      void first.send('Write the report');
      await idleConversation(first);
      await tickConversation(page, first, 2000);
      await first.saved;
      first.dispose();
      const requestsBefore = server.requests.length;

      const { slow, release } = slowLoads(threadStore);
      const second = open('durable-agent', { threadStore: slow });
      second.clear();
      release();
      await second.loaded;
      await second.saved;
      expect(second.getSnapshot()).toMatchObject({ status: 'idle', messages: [] });
      expect(second.getSnapshot().threadError).toBeUndefined();
      expect((await threadStore.load('thread-1'))?.messages).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests).toHaveLength(requestsBefore); // no read of the old run

      // A send after the clear starts from the empty thread.
      void second.send('A new start');
      await idleConversation(second);
      const sent = (starts(server).at(-1)?.body as { messages: unknown[] }).messages;
      expect(sent).toHaveLength(1);
      expect(starts(server)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('a send while the thread loads waits, then is sent once after the stored messages', async () => {
    const { server, threadStore, open } = await setUp();
    try {
      await threadStore.save({
        id: 'thread-1',
        agentId: 'durable-agent',
        messages: [
          { id: 'a', role: 'USER', text: 'Earlier question', status: 'done', createdAt: 1 },
          { id: 'b', role: 'GLEAN_AI', text: 'Earlier answer', status: 'done', createdAt: 2 },
        ],
      });
      const { slow, release } = slowLoads(threadStore);
      const conversation = open('durable-agent', { threadStore: slow });
      expect(conversation.getSnapshot().status).toBe('loading');
      void conversation.send('Sent during the load');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(starts(server)).toHaveLength(0);
      release();
      await conversation.loaded;
      await idleConversation(conversation);
      expect(starts(server)).toHaveLength(1);
      const sent = (starts(server)[0]?.body as { messages: unknown[] }).messages;
      expect(sent).toHaveLength(3);
      expect(conversation.getSnapshot().messages.map((message) => message.text)).toEqual([
        'Earlier question',
        'Earlier answer',
        'Sent during the load',
        expect.any(String),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(starts(server)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('Stop cancels the run at the service; the answer ends stopped', async () => {
    const { page, server, open } = await setUp();
    try {
      const conversation = open('durable-agent');
      await conversation.loaded;
      const done = conversation.send('Write the report');
      conversation.stop(); // during the start POST: sent once the run id is known
      await idleConversation(conversation);
      await expect.poll(() => server.service.durableStats.cancels).toBe(1);
      await tickConversation(page, conversation, 3000);
      const settled = await done;
      expect(settled.messages[1]).toMatchObject({ status: 'stopped' });
      expect(settled.durableRun?.status).toBe('cancelled');
      // In a run's words, as a stopped stream turn says it.
      expect(settled.turnStatus).toBe('aborted');
      expect(server.service.durableStats.cancels).toBe(1);
      expect(starts(server)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('approval round trip: waiting with the pending approval (also after a reload), respond, done', async () => {
    const { page, server, threadStore, open } = await setUp();
    try {
      const first = open('approval-agent');
      await first.loaded;
      void first.send('Tell me on Slack');
      await idleConversation(first);
      await tickConversation(page, first, 2000);
      expect(first.getSnapshot().status).toBe('waiting');
      expect(shape(first)).toEqual([
        ['USER', 'done'],
        ['GLEAN_AI', 'waiting'],
      ]);
      expect(first.getSnapshot().pendingInteractions).toHaveLength(1);
      await first.saved;
      const savesBefore = threadStore.saves;
      first.dispose();

      const second = open('approval-agent');
      await second.loaded;
      await idleConversation(second);
      const waiting = second.getSnapshot();
      expect(waiting.status).toBe('waiting');
      expect(waiting.messages).toHaveLength(2);
      const [approval] = waiting.pendingInteractions;
      expect(approval).toMatchObject({ kind: 'tool-approval' });
      const answered = second.respond([
        { interactionId: approval?.interactionId ?? '', decision: 'APPROVE' },
      ]);
      // The answer being sent is the turn's to say, once, for every view of the conversation.
      expect(second.getSnapshot().approvalStatus).toBe('responding');
      await answered;
      expect(second.getSnapshot()).toMatchObject({
        approvalStatus: 'idle',
        approvalError: undefined,
      });
      await tickConversation(page, second, 3000);
      expect(shape(second)).toEqual([
        ['USER', 'done'],
        ['GLEAN_AI', 'done'],
      ]);
      expect(second.getSnapshot().messages[1]?.text).toBe(
        'I drafted the message and need your approval to send it.\n\nSent your Slack message.',
      );
      expect(second.getSnapshot().pendingInteractions).toEqual([]);
      expect(server.service.durableStats.toolsExecuted).toBe(1);
      expect(starts(server)).toHaveLength(1);
      await second.saved;
      expect(threadStore.saves - savesBefore).toBe(1);
      expect((await threadStore.load('thread-1'))?.messages[1]?.status).toBe('done');
    } finally {
      await server.close();
    }
  });

  it('stream mode with a thread store: one save per settled turn however many tokens came', async () => {
    const server = await createMockAgentServer({
      agents: [
        {
          agent: {
            agent_id: 'chat',
            name: 'Chat',
            capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
          },
          run: { eventsFor: () => textEvents('one two three four five six seven', { chunks: 7 }) },
        },
      ],
    });
    try {
      const client = createAgentClient({
        baseUrl: server.url,
        api: 'platform',
        token: 'tok-5f3a9c',
      });
      const threadStore = countSaves(createMemoryThreadStore());
      const conversation = createAgentConversation(client, {
        agentId: 'chat',
        threadStore,
        threadId: 'thread-1',
        throttleMs: 0,
      });
      await conversation.loaded;
      let published = 0;
      conversation.subscribe(() => published++);
      await conversation.send('Count');
      await conversation.saved;
      expect(published).toBeGreaterThan(3);
      expect(threadStore.saves).toBe(1);
      expect((await threadStore.load('thread-1'))?.messages.map((message) => message.text)).toEqual(
        ['Count', 'one two three four five six seven'],
      );
      const reloaded = createAgentConversation(client, {
        agentId: 'chat',
        threadStore,
        threadId: 'thread-1',
      });
      await reloaded.loaded;
      expect(reloaded.getSnapshot().messages).toHaveLength(2);
      expect(reloaded.getSnapshot().threadRevision).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('durable mode on a rest-v1 client: the answer fails with a typed error and nothing is sent', async () => {
    const server = await createMockAgentServer({ agents: demoAgents });
    try {
      const client = createAgentClient({
        baseUrl: server.url,
        api: 'rest-v1',
        token: 'tok-5f3a9c',
      });
      const conversation = createAgentConversation(client, {
        agentId: 'durable-agent',
        executionMode: 'durable',
        durableRun: { store: createDurableRunStore({ storage: createMemoryStorage() }) },
      });
      const settled = await conversation.send('Write the report');
      expect(settled.status).toBe('idle');
      expect(settled.messages[1]).toMatchObject({ status: 'error', error: { kind: 'input' } });
      expect(settled.durableRun?.error).toMatchObject({ name: 'AgentUnsupportedError' });
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
