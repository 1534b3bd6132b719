/**
 * A durable conversation edits and regenerates as a streamed one: against the package's mock
 * service on a real socket, on a clock the test drives, kept in a thread store.
 */
import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createAgentConversation,
  createMemoryThreadStore,
  type AgentConversation,
  type KeyValueStorage,
} from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';
import {
  manualPage,
  type ManualPage,
  idleConversation,
  tickConversation,
} from '../../support/durable-environment.js';

async function setUp() {
  const page = manualPage();
  const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
  const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-5f3a9c' });
  const runStorage: KeyValueStorage = createMemoryStorage();
  const threadStore = createMemoryThreadStore();
  /** One page load: a new conversation over the same stores. */
  const open = () =>
    createAgentConversation(client, {
      agentId: 'durable-agent',
      executionMode: 'durable',
      threadStore,
      threadId: 'thread-1',
      durableRun: page.durableRun(runStorage),
    });
  return { page, server, threadStore, open };
}

const startBodies = (server: MockAgentServer) =>
  server.requests
    .filter((request) => request.endpoint === 'run')
    .map((request) =>
      (request.body as { messages: { role: string; content: { text: string }[] }[] }).messages.map(
        (message) => message.content[0]?.text,
      ),
    );

/** Runs the turn `start` begins until it settles. */
async function settle(page: ManualPage, conversation: AgentConversation, start: Promise<unknown>) {
  // The turn has started (an edit's may wait for the version tree's first load).
  await expect.poll(() => conversation.getSnapshot().status).not.toBe('idle');
  await idleConversation(conversation);
  await tickConversation(page, conversation, 7000);
  await start;
  expect(conversation.getSnapshot().status).toBe('idle');
}

describe('given a durable conversation and the mock service', () => {
  it('an edit and a regenerate each start one durable run and keep the turn they replace; the thread store keeps the versions', async () => {
    const { page, server, threadStore, open } = await setUp();
    try {
      const conversation = open();
      await conversation.loaded;
      await settle(page, conversation, conversation.send('Write the report'));
      const first = conversation.getSnapshot();
      const questionId = first.messages[0]?.id ?? '';
      expect(first.messages[1]?.status).toBe('done');

      await settle(page, conversation, conversation.edit(questionId, 'Write a shorter report'));
      const edited = conversation.getSnapshot();
      expect(startBodies(server)[1]).toEqual(['Write a shorter report']);
      expect(edited.messages.map((message) => message.status)).toEqual(['done', 'done']);
      expect(edited.messages[1]?.run?.runId).toBeDefined();
      expect(edited.messages[1]?.run?.runId).not.toBe(first.messages[1]?.run?.runId);
      const version = edited.versions.get(questionId);
      expect(version).toMatchObject({ index: 1, count: 2 });

      const answerId = edited.messages[1]?.id ?? '';
      await settle(page, conversation, conversation.regenerate(answerId));
      const regenerated = conversation.getSnapshot();
      expect(startBodies(server)[2]).toEqual(['Write a shorter report']);
      expect(regenerated.versions.get(regenerated.messages[1]?.id ?? '')).toMatchObject({
        index: 1,
        count: 2,
        ids: [answerId, regenerated.messages[1]?.id],
      });

      // The first version, with its answer as it was.
      const old = conversation.showVersion(version?.ids[0] ?? '');
      expect(old.messages.map((message) => message.text)).toEqual(
        first.messages.map((message) => message.text),
      );
      expect(old.messages[1]?.run).toEqual(first.messages[1]?.run);
      await conversation.saved;

      // A reload: the thread comes back on the version shown, with the others; no run is started.
      const reloaded = open();
      await reloaded.loaded;
      const snapshot = reloaded.getSnapshot();
      expect(snapshot.messages).toEqual(old.messages);
      expect(snapshot.versions.get(version?.ids[0] ?? '')).toMatchObject({ index: 0, count: 2 });
      const back = reloaded.showVersion(questionId);
      expect(back.messages[1]?.text).toBe(regenerated.messages[1]?.text);
      expect(back.versions.get(back.messages[1]?.id ?? '')).toMatchObject({ index: 1, count: 2 });
      expect(startBodies(server)).toHaveLength(3);
      expect((await threadStore.load('thread-1'))?.versions?.forks).toHaveLength(2);
      reloaded.dispose();
    } finally {
      await server.close();
    }
  });

  it('edit with stopRunning cancels the run under way, then starts the edited turn: one step', async () => {
    const { page, server, open } = await setUp();
    try {
      const conversation = open();
      await conversation.loaded;
      void conversation.send('Write the report');
      await idleConversation(conversation);
      await tickConversation(page, conversation, 1000);
      expect(conversation.getSnapshot().status).toBe('streaming');
      const questionId = conversation.getSnapshot().messages[0]?.id ?? '';

      const edited = conversation.edit(questionId, 'Only the summary', { stopRunning: true });
      await expect
        .poll(() => server.requests.some((request) => request.endpoint === 'durable-cancel'))
        .toBe(true);
      await settle(page, conversation, edited);

      expect(startBodies(server)).toEqual([['Write the report'], ['Only the summary']]);
      const snapshot = conversation.getSnapshot();
      expect(snapshot.messages[1]?.status).toBe('done');
      const old = conversation.showVersion(snapshot.versions.get(questionId)?.ids[0] ?? '');
      expect(old.messages.map((message) => message.status)).toEqual(['done', 'stopped']);
      expect(old.messages[0]?.text).toBe('Write the report');
    } finally {
      await server.close();
    }
  });
});
