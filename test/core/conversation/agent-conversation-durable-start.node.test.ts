/**
 * A durable conversation's start: the thread is saved before the start POST goes out, an unknown
 * outcome of that POST (a 500, a broken connection) is "may have started, never re-sent", and
 * creating a conversation reads and sends nothing until it is connected. Real sockets: the
 * package's mock service, or a durable-run service on 127.0.0.1 that holds the start POST.
 */
import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createMemoryThreadStore,
  createDurableRunStore,
  type AgentClient,
  type ThreadStore,
} from 'agent-console-kit';
import {
  AgentStartUnknownError,
  createAgentConversation,
  createDurableRun,
  type AgentConversation,
  type AgentConversationOptions,
  type KeyValueStorage,
} from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';
import { manualPage, type ManualPage } from '../../support/durable-environment.js';
import { serveDurableWireForTest } from '../../support/durable-wire-server.js';

const mayHaveStarted = 'This turn may have started: it was not sent again.';

/** A thread store that counts its loads and saves. */
function counted(store: ThreadStore): ThreadStore & { loads: number; saves: number } {
  const wrapped = Object.assign(Object.create(store) as ThreadStore, { loads: 0, saves: 0 });
  wrapped.load = (threadId) => {
    wrapped.loads++;
    return store.load(threadId);
  };
  wrapped.save = (thread, options) => {
    wrapped.saves++;
    return store.save(thread, options);
  };
  return wrapped;
}

/** The stores a page reload keeps (the thread store and the run store's storage). */
function pageStores(client: AgentClient, page: ManualPage) {
  const runStorage: KeyValueStorage = createMemoryStorage();
  const threadStore = counted(createMemoryThreadStore());
  const open = (agentId: string, options: Partial<AgentConversationOptions> = {}) =>
    createAgentConversation(client, {
      agentId,
      executionMode: 'durable',
      threadStore,
      threadId: 'thread-1',
      durableRun: page.durableRun(runStorage),
      ...options,
    });
  return { runStorage, threadStore, open };
}

async function settledTurn(conversation: AgentConversation) {
  await expect.poll(() => conversation.getSnapshot().status).toBe('idle');
  await conversation.saved;
}

const startsAt = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'run').length;

describe('given a service that holds the durable start POST', () => {
  async function heldStart() {
    const server = await serveDurableWireForTest();
    server.startMode = 'hold';
    const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-77aa' });
    const page = manualPage();
    const stores = pageStores(client, page);
    const first = stores.open('agent');
    await first.loaded;
    const arrived = server.startArrived();
    const done = first.send('Book the room for Friday');
    await arrived;
    return { server, page, first, done, ...stores };
  }

  it('the question is in the thread store while the POST is held, and a reload shows it as may have started', async () => {
    const { server, first, threadStore, open } = await heldStart();
    expect(first.getSnapshot().durableRun?.status).toBe('starting');

    const stored = await threadStore.load('thread-1');
    expect(stored?.messages.map((message) => [message.role, message.status])).toEqual([
      ['USER', 'done'],
      ['GLEAN_AI', 'streaming'],
    ]);
    expect(stored?.messages[0]?.text).toBe('Book the room for Friday');
    const localId = first.getSnapshot().durableRun?.localId;
    expect(localId).toBeDefined();
    expect(stored?.messages[1]?.run).toEqual({ mode: 'durable', localId });
    expect(JSON.stringify(stored)).not.toContain('tok-77aa');

    // The reload, while the POST is still held: the question, and the turn not sent again.
    first.dispose();
    const reloaded = open('agent');
    await reloaded.loaded;
    expect(reloaded.getSnapshot().status).toBe('idle');
    expect(reloaded.getSnapshot().messages.map((message) => message.text)).toEqual([
      'Book the room for Friday',
      '',
    ]);
    expect(reloaded.getSnapshot().messages[1]).toMatchObject({
      status: 'error',
      error: { kind: 'network', message: mayHaveStarted },
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.counts.starts).toBe(1);
    expect(server.counts.reads).toBe(0);
  });

  it('a reload after the 201 whose thread has no run id yet attaches the run through its record', async () => {
    const { server, first, done, threadStore, open } = await heldStart();
    const beforeTheAnswer = await threadStore.load('thread-1');
    server.answerHeldStarts('201');
    await expect.poll(() => first.getSnapshot().durableRun?.runId).toBeDefined();
    const runId = first.getSnapshot().durableRun?.runId;
    first.dispose();
    // The page went away before the save that carries the run id: the thread is as it was.
    await threadStore.save({
      id: 'thread-1',
      agentId: 'agent',
      messages: beforeTheAnswer?.messages ?? [],
    });

    const reloaded = open('agent');
    await reloaded.loaded;
    await expect.poll(() => server.counts.reads).toBeGreaterThan(0);
    expect(reloaded.getSnapshot().messages).toHaveLength(2);
    expect(reloaded.getSnapshot().messages[1]).toMatchObject({
      status: 'streaming',
      run: { mode: 'durable', runId },
    });
    expect(server.counts.starts).toBe(1);
    reloaded.dispose();
    void done;
  });
});

describe('given a durable send cleared before its start POST went out', () => {
  it('nothing reaches the service, no run record is left, and the thread is saved empty', async () => {
    const page = manualPage();
    const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
    try {
      const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-2' });
      const { runStorage, threadStore, open } = pageStores(client, page);
      const conversation = open('durable-agent');
      await conversation.loaded;
      const done = conversation.send('Not this one');
      conversation.clear(); // the thread's save before the POST is still under way
      await done;
      await conversation.saved;
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(server.requests).toHaveLength(0);
      expect(createDurableRunStore({ storage: runStorage }).list()).toEqual([]);
      expect((await threadStore.load('thread-1'))?.messages).toEqual([]);
      expect(conversation.getSnapshot()).toMatchObject({ status: 'idle', messages: [] });
    } finally {
      await server.close();
    }
  });
});

describe('given the mock service answering the durable start with a scripted fault', () => {
  async function setUp() {
    const page = manualPage();
    const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
    const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-5f3a9c' });
    return { page, server, client, ...pageStores(client, page) };
  }

  it('a 500 problem: may have started, never re-sent; exactly one POST reached the service', async () => {
    const { server, open } = await setUp();
    try {
      server.inject('durable-agent', {
        status: 500,
        endpoint: 'run',
        times: 1,
        body: {
          type: 'about:blank',
          title: 'Internal Error',
          status: 500,
          detail: 'Internal Error',
          code: 'internal_error',
          request_id: 'req_1',
        },
        contentType: 'application/problem+json',
      });
      const conversation = open('durable-agent');
      await conversation.loaded;
      const settled = await conversation.send('Write the report');
      expect(settled.durableRun?.status).toBe('start-unknown');
      expect(settled.durableRun?.error).toBeInstanceOf(AgentStartUnknownError);
      expect(settled.durableRun?.error).toMatchObject({ reason: 'server', status: 500 });
      expect(settled.messages[1]).toMatchObject({
        status: 'error',
        error: { kind: 'network', message: mayHaveStarted },
      });
      await settledTurn(conversation);
      conversation.dispose();

      // A reload says the same, and sends nothing.
      const reloaded = open('durable-agent');
      await reloaded.loaded;
      expect(reloaded.getSnapshot().messages[1]).toMatchObject({
        status: 'error',
        error: { message: mayHaveStarted },
      });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(startsAt(server)).toBe(1);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('a 500, 502 or 504 that is no problem detail may have started; a 503 or 4xx problem is a refusal', async () => {
    const { server, client, page, open } = await setUp();
    const hello = { messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }] };
    const problem = (status: number, code: string) => ({
      type: 'about:blank',
      title: code,
      status,
      detail: code,
      code,
      request_id: `req_${status}`,
    });
    try {
      for (const status of [500, 502, 504]) {
        server.inject('durable-agent', { status, endpoint: 'run', times: 1, body: 'Bad gateway' });
        const store = createDurableRunStore({ storage: 'memory' });
        const run = createDurableRun(client, {
          agentId: 'durable-agent',
          store,
          environment: page.environment,
        });
        await run.start(hello);
        expect(run.getSnapshot().status).toBe('start-unknown');
        // Kept as "may have started": a reload shows the same.
        expect(store.list().map((record) => record.phase)).toEqual(['creating']);
      }
      expect(startsAt(server)).toBe(3);

      server.inject('durable-agent', {
        status: 503,
        endpoint: 'run',
        times: 1,
        body: problem(503, 'service_unavailable'),
        contentType: 'application/problem+json',
      });
      const store = createDurableRunStore({ storage: 'memory' });
      const run = createDurableRun(client, {
        agentId: 'durable-agent',
        store,
        environment: page.environment,
      });
      await run.start(hello);
      expect(run.getSnapshot()).toMatchObject({ status: 'failed', error: { status: 503 } });
      expect(store.list()).toEqual([]);

      server.inject('durable-agent', {
        status: 429,
        endpoint: 'run',
        times: 1,
        body: problem(429, 'rate_limit_exceeded'),
        contentType: 'application/problem+json',
      });
      const conversation = open('durable-agent');
      await conversation.loaded;
      const settled = await conversation.send('Write the report');
      expect(settled.durableRun?.status).toBe('failed');
      expect(settled.messages[1]).toMatchObject({
        status: 'error',
        error: { kind: 'http', status: 429, code: 'rate_limit_exceeded' },
      });
      expect(startsAt(server)).toBe(5);
    } finally {
      await server.close();
    }
  });
});

describe('given a conversation created with a stored thread whose durable turn is in flight', () => {
  it('creating it reads and sends nothing; the first subscribe loads the thread once and reads the run once', async () => {
    const page = manualPage();
    const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
    try {
      const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-1' });
      const { threadStore, open } = pageStores(client, page);
      const first = open('durable-agent');
      await first.loaded;
      void first.send('Write the report');
      await expect.poll(() => first.getSnapshot().durableRun?.runId).toBeDefined();
      await first.saved;
      first.dispose();
      const before = server.requests.length;
      const loadsBefore = threadStore.loads;

      // Created twice, as a StrictMode render does: nothing read, nothing sent.
      open('durable-agent');
      const conversation = open('durable-agent');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(threadStore.loads - loadsBefore).toBe(0);
      expect(server.requests.length - before).toBe(0);
      expect(conversation.getSnapshot().status).toBe('loading');

      const unsubscribe = conversation.subscribe(() => undefined);
      conversation.subscribe(() => undefined);
      await conversation.loaded;
      await expect.poll(() => server.requests.length - before).toBe(1);
      expect(threadStore.loads - loadsBefore).toBe(1);
      expect(server.requests.at(-1)).toMatchObject({ method: 'GET', endpoint: 'durable-run' });
      expect(conversation.getSnapshot().messages[1]?.status).toBe('streaming');
      unsubscribe();
      conversation.dispose();
      expect(startsAt(server)).toBe(1);
    } finally {
      await server.close();
    }
  });
});
