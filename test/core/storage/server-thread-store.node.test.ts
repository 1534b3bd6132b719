// The browser's stores over the proxy's routes, on a real socket: createServerThreadStore and
// createServerRunList against createAgentProxy({ user, store }) with the store on PGlite. Two
// stores with one session are two devices of one user.
import { describe, expect, it } from 'vitest';
import {
  AgentHttpError,
  ServerThreadConflictError,
  ThreadConflictError,
  createAgentClient,
  createServerRunList,
  createServerThreadStore,
  type ConversationMessage,
} from 'agent-console-kit/core';
import { sessionOf, serveUserStoreProxy } from '../../support/user-store-proxy.js';

const proxy = serveUserStoreProxy();

let users = 0;
const newUser = () => `user-${++users}-${Date.now().toString(36)}`;
const device = (user: string) =>
  createServerThreadStore({ baseUrl: proxy.url, headers: sessionOf(user) });

const message = (id: string, text: string, role: 'USER' | 'GLEAN_AI' = 'USER') =>
  ({ id, role, text, status: 'done', createdAt: 1 }) as ConversationMessage;

describe('createServerThreadStore', () => {
  it('a thread saved on one device lists and loads on another of the same user, not for another user', async () => {
    const user = newUser();
    const laptop = device(user);
    const phone = device(user);
    const saved = await laptop.save(
      { id: 'thread-a', agentId: 'approve-agent', messages: [message('m1', 'Where is my order?')] },
      { expectedRevision: 0 },
    );
    expect(saved.revision).toBe(1);

    const { threads } = await phone.list();
    expect(threads).toEqual([
      expect.objectContaining({ id: 'thread-a', title: 'Where is my order?', messageCount: 1 }),
    ]);
    const loaded = await phone.load('thread-a');
    expect(loaded).toMatchObject({ v: 1, revision: 1, messages: [{ id: 'm1' }] });

    const stranger = device(newUser());
    expect(await stranger.list()).toEqual({ threads: [] });
    expect(await stranger.load('thread-a')).toBeUndefined();
    expect(await stranger.rename('thread-a', 'Mine now')).toBeUndefined();
  });

  it('a save from both devices at once: one wins, the other gets the stored thread, no message lost', async () => {
    const user = newUser();
    const laptop = device(user);
    const phone = device(user);
    await laptop.save(
      { id: 'thread-c', agentId: 'approve-agent', messages: [message('m1', 'Hello')] },
      { expectedRevision: 0 },
    );
    const results = await Promise.allSettled([
      laptop.save(
        {
          id: 'thread-c',
          agentId: 'approve-agent',
          messages: [message('m1', 'Hello'), message('l2', 'From the laptop')],
        },
        { expectedRevision: 1 },
      ),
      phone.save(
        {
          id: 'thread-c',
          agentId: 'approve-agent',
          messages: [message('m1', 'Hello'), message('p2', 'From the phone')],
        },
        { expectedRevision: 1 },
      ),
    ]);
    const rejected = results.filter((result) => result.status === 'rejected');
    expect(rejected).toHaveLength(1);
    const error = (rejected[0] as PromiseRejectedResult).reason as ServerThreadConflictError;
    expect(error).toBeInstanceOf(ServerThreadConflictError);
    expect(error).toBeInstanceOf(ThreadConflictError);
    expect(error.storedRevision).toBe(2);
    const winner = results[0]?.status === 'fulfilled' ? 'l2' : 'p2';
    expect(error.current?.messages.map((item) => item.id)).toEqual(['m1', winner]);

    // The loser merges and saves on the stored revision: both messages kept.
    const loser = results[0]?.status === 'fulfilled' ? phone : laptop;
    const mine =
      winner === 'l2' ? message('p2', 'From the phone') : message('l2', 'From the laptop');
    await loser.save(
      {
        id: 'thread-c',
        agentId: 'approve-agent',
        messages: [...(error.current?.messages ?? []), mine],
      },
      { expectedRevision: error.storedRevision },
    );
    const stored = await laptop.load('thread-c');
    expect(stored?.messages.map((item) => item.id).sort()).toEqual(['l2', 'm1', 'p2']);
  });

  it('renames, deletes, pages, and tells its subscribers of its own changes', async () => {
    const user = newUser();
    const store = device(user);
    const changes: unknown[] = [];
    const unsubscribe = store.subscribe?.((change) => changes.push(change));
    for (const id of ['t1', 't2', 't3']) {
      await store.save({ id, agentId: 'approve-agent', messages: [message(`${id}m`, id)] });
    }
    expect(await store.rename('t1', 'First')).toEqual({ revision: 2 });
    const first = await store.list({ limit: 2 });
    expect(first.threads.map((thread) => thread.id)).toEqual(['t1', 't3']);
    const second = await store.list({ limit: 2, cursor: first.nextCursor });
    expect(second.threads.map((thread) => thread.id)).toEqual(['t2']);
    expect(second.nextCursor).toBeUndefined();
    await store.delete('t2');
    await store.delete('t2');
    expect(await store.load('t2')).toBeUndefined();
    unsubscribe?.();
    expect(changes).toEqual([
      { threadId: 't1', revision: 1, external: false },
      { threadId: 't2', revision: 1, external: false },
      { threadId: 't3', revision: 1, external: false },
      { threadId: 't1', revision: 2, external: false },
      { threadId: 't2', revision: undefined, external: false },
      { threadId: 't2', revision: undefined, external: false },
    ]);
  });

  it('without a session: the proxy answers 401 and the store rejects with it', async () => {
    const store = createServerThreadStore({ baseUrl: proxy.url });
    const error = await store.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentHttpError);
    expect((error as AgentHttpError).status).toBe(401);
  });
});

describe('createServerRunList', () => {
  it('lists the runs this user started through the proxy, by group, on every device', async () => {
    const user = newUser();
    const client = createAgentClient({
      baseUrl: proxy.url,
      api: 'platform',
      headers: () => sessionOf(user),
    });
    const run = await client.startDurableRun('approve-agent', {
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'Deploy the web service' }] }],
    });
    await client.getDurableRun('approve-agent', run.runId);

    const waiting = createServerRunList({
      baseUrl: proxy.url,
      headers: sessionOf(user),
      group: 'waiting',
      pollIntervalMs: 0,
    });
    expect(waiting.getSnapshot().status).toBe('loading');
    await waiting.refresh();
    expect(waiting.getSnapshot()).toMatchObject({
      status: 'ready',
      runs: [
        {
          runId: run.runId,
          agentId: 'approve-agent',
          state: 'REQUIRES_INPUT',
          group: 'waiting',
          title: 'Deploy the web service',
        },
      ],
    });

    const other = createServerRunList({ baseUrl: proxy.url, headers: sessionOf(newUser()) });
    await other.refresh();
    expect(other.getSnapshot().runs).toEqual([]);

    const unauthenticated = createServerRunList({ baseUrl: proxy.url, pollIntervalMs: 0 });
    await unauthenticated.refresh();
    expect(unauthenticated.getSnapshot()).toMatchObject({ status: 'error', runs: [] });
    expect((unauthenticated.getSnapshot().error as AgentHttpError).status).toBe(401);
  });
});
