import { afterEach, describe, expect, it } from 'vitest';
import {
  createThreadStore,
  createMemoryThreadStore,
  type ConversationMessage,
} from 'agent-console-kit';
import { AgentStorageError, ThreadConflictError } from 'agent-console-kit/core';
import type { ThreadStoreChange } from '../../../src/core/storage/thread-store.js';

const token = 'secret-token-5f3a9c';

const question: ConversationMessage = {
  id: 'm1',
  role: 'USER',
  text: 'Where is my laptop order?',
  status: 'done',
  createdAt: 1,
};
const answer: ConversationMessage = {
  id: 'm2',
  role: 'GLEAN_AI',
  text: 'Shipped yesterday.',
  status: 'streaming',
  createdAt: 2,
  run: { mode: 'durable', localId: 'local-1', runId: 'r1' },
};

afterEach(() => {
  localStorage.clear();
});

describe.each([
  ['localStorage', () => createThreadStore()],
  ['memory', () => createMemoryThreadStore()],
])('given the %s thread store', (_name, make) => {
  it('save → load → list → delete, the revision bumped by each save', async () => {
    const store = make();
    expect(await store.load('t1')).toBeUndefined();
    const first = await store.save(
      { id: 't1', agentId: 'chat', messages: [question] },
      { expectedRevision: 0 },
    );
    expect(first.revision).toBe(1);
    const second = await store.save(
      { id: 't1', agentId: 'chat', messages: [question, answer] },
      { expectedRevision: 1 },
    );
    expect(second.revision).toBe(2);
    const loaded = await store.load('t1');
    expect(loaded).toMatchObject({
      id: 't1',
      agentId: 'chat',
      title: 'Where is my laptop order?',
      revision: 2,
      messages: [question, answer],
    });
    // A durable answer keeps its status as stored: the conversation attaches it again.
    expect(loaded?.messages[1]?.status).toBe('streaming');
    expect((await store.list()).threads).toMatchObject([{ id: 't1', messageCount: 2 }]);
    await store.delete('t1');
    expect(await store.load('t1')).toBeUndefined();
    expect((await store.list()).threads).toEqual([]);
  });

  it('a save against a stale revision rejects with ThreadConflictError and writes nothing', async () => {
    const store = make();
    await store.save({ id: 't1', agentId: 'chat', messages: [question] }, { expectedRevision: 0 });
    await store.rename('t1', 'Renamed elsewhere');
    const stale = store.save(
      { id: 't1', agentId: 'chat', messages: [question, { ...answer, status: 'done' }] },
      { expectedRevision: 1 },
    );
    await expect(stale).rejects.toBeInstanceOf(ThreadConflictError);
    await expect(stale).rejects.toMatchObject({ expectedRevision: 1, storedRevision: 2 });
    expect(await store.load('t1')).toMatchObject({
      title: 'Renamed elsewhere',
      revision: 2,
      messages: [question],
    });
    // A new thread expects revision 0: an id already taken conflicts.
    await expect(
      store.save({ id: 't1', agentId: 'chat', messages: [] }, { expectedRevision: 0 }),
    ).rejects.toBeInstanceOf(ThreadConflictError);
  });

  it('keeps only the fields of a message: a token or headers riding along are not written', async () => {
    const store = make();
    const smuggled = {
      ...question,
      token,
      headers: { authorization: `Bearer ${token}` },
      run: { mode: 'durable' as const, runId: 'r1', authorization: token },
    };
    await store.save({ id: 't1', agentId: 'chat', messages: [smuggled] });
    const loaded = await store.load('t1');
    expect(JSON.stringify(loaded)).not.toContain(token);
    expect(loaded?.messages[0]).toEqual({ ...question, run: { mode: 'durable', runId: 'r1' } });
  });

  it('lists the most recently saved first, by agent, in pages; notifies subscribers', async () => {
    let time = 100;
    const store = make();
    const changes: ThreadStoreChange[] = [];
    const stop = store.subscribe?.((change) => changes.push(change));
    for (const [id, agentId] of [
      ['a', 'chat'],
      ['b', 'other'],
      ['c', 'chat'],
    ] as const) {
      time += 1;
      await store.save({ id, agentId, messages: [{ ...question, createdAt: time }] });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const chat = await store.list({ agentId: 'chat' });
    expect(chat.threads.map((thread) => thread.id)).toEqual(['c', 'a']);
    const page = await store.list({ limit: 2 });
    expect(page.threads.map((thread) => thread.id)).toEqual(['c', 'b']);
    const rest = await store.list({ limit: 2, cursor: page.nextCursor });
    expect(rest).toEqual({ threads: [expect.objectContaining({ id: 'a' })] });
    await store.delete('b');
    stop?.();
    await store.delete('a');
    expect(changes.map((change) => `${change.threadId}:${change.revision ?? '-'}`)).toEqual([
      'a:1',
      'b:1',
      'c:1',
      'b:-',
    ]);
  });
});

describe('given localStorage', () => {
  it('scanned after saves: no token anywhere; threads of another scope are not seen', async () => {
    const mine = createThreadStore({ scope: 'user-1' });
    const theirs = createThreadStore({ scope: 'user-2' });
    await mine.save({
      id: 't1',
      agentId: 'chat',
      messages: [{ ...question, headers: { authorization: token } } as ConversationMessage],
    });
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index) ?? '';
      expect(key).not.toContain(token);
      expect(localStorage.getItem(key)).not.toContain(token);
    }
    expect(localStorage.length).toBeGreaterThan(0);
    expect((await theirs.list()).threads).toEqual([]);
    expect(await theirs.load('t1')).toBeUndefined();
  });

  it('keeps at most maxThreads, removing the least recently saved', async () => {
    const store = createThreadStore({ maxThreads: 2 });
    for (const id of ['a', 'b', 'c']) {
      await store.save({ id, agentId: 'chat', messages: [question] });
    }
    expect((await store.list()).threads.map((thread) => thread.id).sort()).toEqual(['b', 'c']);
    expect(await store.load('a')).toBeUndefined();
  });

  it('a full storage rejects the save with an AgentStorageError', async () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    const store = createThreadStore({ storage: full });
    await expect(
      store.save({ id: 't1', agentId: 'chat', messages: [question] }),
    ).rejects.toMatchObject({ name: 'AgentStorageError', reason: 'quota' });
    await expect(store.save({ id: 't1', agentId: 'chat', messages: [] })).rejects.toBeInstanceOf(
      AgentStorageError,
    );
  });

  it('a malformed stored thread is a typed error on load, and the list skips it', async () => {
    const store = createThreadStore();
    await store.save({ id: 't1', agentId: 'chat', messages: [question] });
    localStorage.setItem(
      'agent-console-kit:v1:default:thread:t1',
      JSON.stringify({
        v: 1,
        id: 't1',
        agentId: 'chat',
        revision: 1,
        createdAt: 1,
        updatedAt: 1,
        messages: [{ id: 'x' }],
      }),
    );
    await expect(store.load('t1')).rejects.toMatchObject({ kind: 'input' });
    expect((await store.list()).threads).toEqual([]);
  });
});
