/**
 * The AgentStore's behaviour, one suite for every backend: test/agent-store-pglite.node.test.ts
 * runs it on PGlite, test/agent-store-postgres.node.test.ts on a real PostgreSQL server. Each
 * test uses users of its own, so the tests share one database.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../src/core/storage/conversation-message.js';
import { AgentInputError } from '../../src/core/wire/errors.js';
import { ThreadConflictError } from '../../src/core/storage/thread-store.js';
import {
  AgentStoreConflictError,
  type AgentStore,
  type AgentStoreOptions,
} from '../../src/server/index.js';

export interface StoreBackend {
  /** A new store over the backend's one database (the caller closes it). */
  open(options?: AgentStoreOptions): Promise<AgentStore>;
  /** A statement on that database, outside the store (to look at what it wrote). */
  query(text: string): Promise<Record<string, unknown>[]>;
}

let userCount = 0;
/** A user of this test alone. */
export const newUser = (name = 'user') =>
  `${name}-${process.pid}-${Date.now().toString(36)}-${(userCount += 1)}`;

/** A clock that moves by one millisecond on every reading: saves are ordered by it. */
export function steppingClock(start = 1_700_000_000_000) {
  let time = start;
  return () => (time += 1);
}

export const question = (id: string, text: string): ConversationMessage => ({
  id,
  role: 'USER',
  text,
  status: 'done',
  createdAt: 1_700_000_000_000,
});

export const answer = (id: string, text: string): ConversationMessage => ({
  id,
  role: 'GLEAN_AI',
  text,
  status: 'done',
  createdAt: 1_700_000_000_001,
});

export function describeAgentStore(backend: StoreBackend) {
  /** A store with a stepping clock, closed after `test`. */
  async function withStore<T>(test: (store: AgentStore) => Promise<T>): Promise<T> {
    const store = await backend.open({ now: steppingClock() });
    try {
      return await test(store);
    } finally {
      await store.close();
    }
  }

  describe('threads', () => {
    it('lists the most recently saved first, a page at a time with an opaque cursor', () =>
      withStore(async (store) => {
        const user = newUser();
        for (const id of ['t1', 't2', 't3', 't4', 't5']) {
          await store.saveThread(user, { id, agentId: 'a', messages: [question('m', id)] });
        }
        // Saving t2 again moves it to the top.
        await store.saveThread(user, { id: 't2', agentId: 'b', messages: [question('m', 't2')] });

        const first = await store.listThreads(user, { limit: 2 });
        expect(first.threads.map((thread) => thread.id)).toEqual(['t2', 't5']);
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await store.listThreads(user, { limit: 2, cursor: first.nextCursor });
        expect(second.threads.map((thread) => thread.id)).toEqual(['t4', 't3']);
        const third = await store.listThreads(user, { limit: 2, cursor: second.nextCursor });
        expect(third).toEqual({ threads: [expect.objectContaining({ id: 't1' })] });

        const all = await store.listThreads(user);
        expect(all.threads.map((thread) => thread.id)).toEqual(['t2', 't5', 't4', 't3', 't1']);
        expect(all.nextCursor).toBeUndefined();
        expect(all.threads[0]).toEqual({
          id: 't2',
          agentId: 'b',
          title: 't2',
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
          revision: 2,
          messageCount: 1,
        });
        // A limit that is not a number is the default one; below 1, one.
        expect((await store.listThreads(user, { limit: Number.NaN })).threads).toHaveLength(5);
        expect((await store.listThreads(user, { limit: 0 })).threads).toHaveLength(1);
        const ofAgentB = await store.listThreads(user, { agentId: 'b' });
        expect(ofAgentB.threads.map((thread) => thread.id)).toEqual(['t2']);
      }));

    it('refuses a cursor it did not give', () =>
      withStore(async (store) => {
        await expect(store.listThreads(newUser(), { cursor: 'not-a-cursor' })).rejects.toThrow(
          AgentInputError,
        );
      }));

    it('loads a thread as saved: the messages keep only their own fields, a durable run kept', () =>
      withStore(async (store) => {
        const user = newUser();
        const durable: ConversationMessage = {
          ...answer('m2', 'Waiting for approval'),
          status: 'waiting',
          run: { mode: 'durable', localId: 'local-1', runId: 'run-1' },
        };
        const rider = { ...question('m1', '  What is   up?  '), token: 'secret-token' };
        const saved = await store.saveThread(user, {
          id: 't',
          agentId: 'a',
          messages: [rider, durable],
        });

        const thread = await store.loadThread(user, 't');
        expect(thread).toEqual({
          v: 1,
          id: 't',
          agentId: 'a',
          title: 'What is up?',
          messages: [question('m1', '  What is   up?  '), durable],
          createdAt: saved.updatedAt,
          updatedAt: saved.updatedAt,
          revision: 1,
        });
        expect(JSON.stringify(thread)).not.toContain('secret-token');
        expect(await store.loadThread(user, 'none')).toBeUndefined();
      }));

    it('titles an untitled thread by its first question, and keeps a title given or renamed', () =>
      withStore(async (store) => {
        const user = newUser();
        await store.saveThread(user, { id: 't', agentId: 'a', messages: [question('m', 'First')] });
        await store.renameThread(user, 't', '  Named  ');
        await store.saveThread(user, {
          id: 't',
          agentId: 'a',
          messages: [question('m', 'First'), question('n', 'Second')],
        });
        expect((await store.loadThread(user, 't'))?.title).toBe('Named');
        await store.saveThread(user, { id: 't', agentId: 'a', title: 'Given', messages: [] });
        expect((await store.loadThread(user, 't'))?.title).toBe('Given');
      }));

    it('refuses a save against another revision with the stored thread, and writes nothing', () =>
      withStore(async (store) => {
        const user = newUser();
        const created = await store.saveThread(
          user,
          { id: 't', agentId: 'a', messages: [question('m1', 'Hello')] },
          { expectedRevision: 0 },
        );
        expect(created.revision).toBe(1);
        await store.saveThread(
          user,
          { id: 't', agentId: 'a', messages: [question('m1', 'Hello'), answer('m2', 'Hi')] },
          { expectedRevision: 1 },
        );

        const stale = store.saveThread(
          user,
          { id: 't', agentId: 'a', messages: [question('m1', 'Hello'), question('m3', 'Lost?')] },
          { expectedRevision: 1 },
        );
        const error = await stale.then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(error).toBeInstanceOf(AgentStoreConflictError);
        expect(error).toBeInstanceOf(ThreadConflictError);
        const conflict = error as AgentStoreConflictError;
        expect(conflict).toMatchObject({ threadId: 't', expectedRevision: 1, storedRevision: 2 });
        expect(conflict.current?.messages.map((message) => message.id)).toEqual(['m1', 'm2']);
        expect((await store.loadThread(user, 't'))?.revision).toBe(2);

        // Creating one that exists is a conflict too; saving on the stored revision wins.
        await expect(
          store.saveThread(user, { id: 't', agentId: 'a', messages: [] }, { expectedRevision: 0 }),
        ).rejects.toThrow(AgentStoreConflictError);
        const merged = await store.saveThread(
          user,
          {
            id: 't',
            agentId: 'a',
            messages: [...(conflict.current?.messages ?? []), question('m3', 'Lost?')],
          },
          { expectedRevision: conflict.storedRevision },
        );
        expect(merged.revision).toBe(3);
        expect((await store.loadThread(user, 't'))?.messages).toHaveLength(3);
      }));

    it('lets one of two saves at once win; the other gets the winner in its conflict', () =>
      withStore(async (store) => {
        const user = newUser();
        await store.saveThread(user, { id: 't', agentId: 'a', messages: [question('m', 'Hi')] });
        const fromLaptop = [question('m', 'Hi'), question('laptop', 'From the laptop')];
        const fromPhone = [question('m', 'Hi'), question('phone', 'From the phone')];
        const results = await Promise.allSettled([
          store.saveThread(
            user,
            { id: 't', agentId: 'a', messages: fromLaptop },
            { expectedRevision: 1 },
          ),
          store.saveThread(
            user,
            { id: 't', agentId: 'a', messages: fromPhone },
            { expectedRevision: 1 },
          ),
        ]);

        const won = results.findIndex((result) => result.status === 'fulfilled');
        const lost = results.find((result) => result.status === 'rejected');
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        const conflict = (lost as PromiseRejectedResult).reason as AgentStoreConflictError;
        expect(conflict).toBeInstanceOf(AgentStoreConflictError);
        const winner = won === 0 ? fromLaptop : fromPhone;
        expect(conflict.current?.messages).toEqual(winner);
        expect(await store.loadThread(user, 't')).toMatchObject({ revision: 2, messages: winner });
      }));

    it('saves without an expected revision always, as a new revision', () =>
      withStore(async (store) => {
        const user = newUser();
        await store.saveThread(user, { id: 't', agentId: 'a', messages: [] });
        const again = await store.saveThread(user, { id: 't', agentId: 'a', messages: [] });
        expect(again.revision).toBe(2);
      }));

    it('refuses messages that are not conversation messages, writing nothing', () =>
      withStore(async (store) => {
        const user = newUser();
        const bad = [{ id: 'm', role: 'ROBOT', text: 'x' }] as unknown as ConversationMessage[];
        await expect(
          store.saveThread(user, { id: 't', agentId: 'a', messages: bad }),
        ).rejects.toThrow(AgentInputError);
        await expect(
          store.saveThread(user, { id: ' ', agentId: 'a', messages: [] }),
        ).rejects.toThrow(AgentInputError);
        expect(await store.listThreads(user)).toEqual({ threads: [] });
      }));

    it('renames as a new revision: a save on the revision before is then a conflict', () =>
      withStore(async (store) => {
        const user = newUser();
        await store.saveThread(user, { id: 't', agentId: 'a', messages: [question('m', 'Hi')] });
        expect(await store.renameThread(user, 't', 'Trip to Lyon')).toEqual({
          revision: 2,
          updatedAt: expect.any(Number),
        });
        expect((await store.loadThread(user, 't'))?.title).toBe('Trip to Lyon');
        await expect(
          store.saveThread(user, { id: 't', agentId: 'a', messages: [] }, { expectedRevision: 1 }),
        ).rejects.toThrow(AgentStoreConflictError);
        expect(await store.renameThread(user, 'none', 'x')).toBeUndefined();
      }));

    it('deletes a thread once', () =>
      withStore(async (store) => {
        const user = newUser();
        await store.saveThread(user, { id: 't', agentId: 'a', messages: [] });
        expect(await store.deleteThread(user, 't')).toBe(true);
        expect(await store.deleteThread(user, 't')).toBe(false);
        expect(await store.loadThread(user, 't')).toBeUndefined();
        expect(await store.listThreads(user)).toEqual({ threads: [] });
      }));
  });

  describe('users', () => {
    it("keeps each user's threads and runs from every other user", () =>
      withStore(async (store) => {
        const alice = newUser('alice');
        const bob = newUser('bob');
        await store.saveThread(alice, { id: 't', agentId: 'a', messages: [question('m', 'Mine')] });
        await store.recordRun({
          userId: alice,
          agentId: 'a',
          runId: `run-${alice}`,
          state: 'QUEUED',
        });

        expect(await store.listThreads(bob)).toEqual({ threads: [] });
        expect(await store.loadThread(bob, 't')).toBeUndefined();
        expect(await store.renameThread(bob, 't', 'Taken')).toBeUndefined();
        expect(await store.deleteThread(bob, 't')).toBe(false);
        // Bob's thread of the same id is another thread.
        await store.saveThread(
          bob,
          { id: 't', agentId: 'a', messages: [] },
          { expectedRevision: 0 },
        );
        expect(await store.getRun(bob, `run-${alice}`)).toBeUndefined();
        expect(await store.updateRun(bob, `run-${alice}`, { state: 'CANCELLED' })).toBeUndefined();
        expect(
          await store.recordRun({
            userId: bob,
            agentId: 'a',
            runId: `run-${alice}`,
            state: 'RUNNING',
          }),
        ).toBeUndefined();
        expect(await store.listRuns(bob)).toEqual({ runs: [] });

        expect(await store.loadThread(alice, 't')).toMatchObject({ title: 'Mine', revision: 1 });
        expect(await store.getRun(alice, `run-${alice}`)).toMatchObject({
          userId: alice,
          state: 'QUEUED',
        });
      }));

    it("deletes every thread and run of one user, and only that user's", () =>
      withStore(async (store) => {
        const alice = newUser('alice');
        const bob = newUser('bob');
        for (const user of [alice, bob]) {
          await store.saveThread(user, { id: 't1', agentId: 'a', messages: [] });
          await store.saveThread(user, { id: 't2', agentId: 'a', messages: [] });
          await store.recordRun({
            userId: user,
            agentId: 'a',
            runId: `run-${user}`,
            state: 'RUNNING',
          });
        }
        expect(await store.deleteUser(alice)).toEqual({ threads: 2, runs: 1 });
        expect(await store.listThreads(alice)).toEqual({ threads: [] });
        expect(await store.listRuns(alice)).toEqual({ runs: [] });
        expect(await store.getRun(alice, `run-${alice}`)).toBeUndefined();
        expect((await store.listThreads(bob)).threads).toHaveLength(2);
        expect(await store.getRun(bob, `run-${bob}`)).toBeDefined();
        expect(await store.deleteUser(alice)).toEqual({ threads: 0, runs: 0 });
      }));
  });

  describe('durable runs', () => {
    it('records a start and answers the ownership check', () =>
      withStore(async (store) => {
        const user = newUser();
        const run = await store.recordRun({
          userId: user,
          agentId: 'helpdesk',
          runId: `r-${user}`,
          state: 'QUEUED',
          title: 'Reset my   password',
          createdAt: 1_000,
        });
        expect(run).toEqual({
          userId: user,
          agentId: 'helpdesk',
          runId: `r-${user}`,
          state: 'QUEUED',
          group: 'running',
          title: 'Reset my password',
          createdAt: 1_000,
          updatedAt: expect.any(Number),
        });
        expect(await store.getRun(user, `r-${user}`)).toEqual(run);
        expect(await store.getRun(user, 'r-unknown')).toBeUndefined();
        // A retried start keeps the record and its title.
        expect(
          await store.recordRun({
            userId: user,
            agentId: 'helpdesk',
            runId: `r-${user}`,
            state: 'RUNNING',
          }),
        ).toMatchObject({ state: 'RUNNING', title: 'Reset my password', createdAt: 1_000 });
      }));

    it('follows the states of reads, responses and cancels; an ended run stays ended', () =>
      withStore(async (store) => {
        const user = newUser();
        const runId = `r-${user}`;
        await store.recordRun({ userId: user, agentId: 'a', runId, state: 'RUNNING' });

        const waiting = await store.updateRun(user, runId, { state: 'REQUIRES_INPUT' });
        expect(waiting).toMatchObject({ state: 'REQUIRES_INPUT', group: 'waiting' });
        // The same state again writes nothing.
        expect(await store.updateRun(user, runId, { state: 'REQUIRES_INPUT' })).toEqual(waiting);
        expect(await store.updateRun(user, runId, { state: 'CANCELLING' })).toMatchObject({
          group: 'running',
        });
        expect(await store.updateRun(user, runId, { state: 'CANCELLED' })).toMatchObject({
          state: 'CANCELLED',
          group: 'ended',
        });
        // A late answer of an earlier read does not bring it back.
        expect(await store.updateRun(user, runId, { state: 'RUNNING' })).toMatchObject({
          state: 'CANCELLED',
          group: 'ended',
        });
        expect(await store.updateRun(user, runId, { title: 'Renamed' })).toMatchObject({
          state: 'CANCELLED',
          title: 'Renamed',
        });
        // A state the service adds later is kept, and is not an end.
        const other = `r2-${user}`;
        await store.recordRun({
          userId: user,
          agentId: 'a',
          runId: other,
          state: 'PAUSED_FOR_LUNCH',
        });
        expect(await store.getRun(user, other)).toMatchObject({ group: 'running' });
        await expect(store.updateRun(user, other, { state: '' })).rejects.toThrow(AgentInputError);
        // States are sorted whatever their case; kept as sent.
        expect(await store.updateRun(user, other, { state: 'requires_input' })).toMatchObject({
          state: 'requires_input',
          group: 'waiting',
        });
      }));

    it('lists an inbox by group, newest start first, a page at a time', () =>
      withStore(async (store) => {
        const user = newUser();
        const states = [
          'REQUIRES_INPUT',
          'RUNNING',
          'SUCCEEDED',
          'REQUIRES_INPUT',
          'QUEUED',
          'FAILED',
          'REQUIRES_INPUT',
          'EXPIRED',
        ];
        for (const [index, state] of states.entries()) {
          await store.recordRun({
            userId: user,
            agentId: index % 2 === 0 ? 'a' : 'b',
            runId: `run-${index}`,
            state,
            createdAt: 1_000 + index,
          });
        }
        const ids = (page: { runs: { runId: string }[] }) => page.runs.map((run) => run.runId);

        expect(ids(await store.listRuns(user, { group: 'waiting' }))).toEqual([
          'run-6',
          'run-3',
          'run-0',
        ]);
        expect(ids(await store.listRuns(user, { group: 'running' }))).toEqual(['run-4', 'run-1']);
        expect(ids(await store.listRuns(user, { group: 'ended' }))).toEqual([
          'run-7',
          'run-5',
          'run-2',
        ]);
        expect(ids(await store.listRuns(user, { group: 'waiting', agentId: 'a' }))).toEqual([
          'run-6',
          'run-0',
        ]);

        const first = await store.listRuns(user, { limit: 3 });
        expect(ids(first)).toEqual(['run-7', 'run-6', 'run-5']);
        const second = await store.listRuns(user, { limit: 3, cursor: first.nextCursor });
        expect(ids(second)).toEqual(['run-4', 'run-3', 'run-2']);
        // Paging is by start: a run that changes state meanwhile does not move.
        await store.updateRun(user, 'run-0', { state: 'SUCCEEDED' });
        const third = await store.listRuns(user, { limit: 3, cursor: second.nextCursor });
        expect(ids(third)).toEqual(['run-1', 'run-0']);
        expect(third.nextCursor).toBeUndefined();
        expect(ids(await store.listRuns(user, { group: 'waiting' }))).toEqual(['run-6', 'run-3']);
      }));
  });

  describe('migrations', () => {
    it('applies each once: again, nothing; two stores migrating one new schema at once, once', async () => {
      const store = await backend.open();
      try {
        expect(await store.migrate()).toEqual([]);
      } finally {
        await store.close();
      }
      const schema = `ack_test_${process.pid}_${Date.now().toString(36)}`;
      const opened = await Promise.all([backend.open({ schema }), backend.open({ schema })]);
      try {
        const applied = await Promise.all([
          ...opened.map((one) => one.migrate()),
          ...opened.map((one) => one.migrate()),
        ]);
        expect(applied.flat()).toEqual([]);
        const rows = await backend.query(
          `SELECT version, name FROM "${schema}".schema_migrations ORDER BY version`,
        );
        expect(rows.map((row) => [Number(row.version), row.name])).toEqual([
          [1, 'threads'],
          [2, 'runs'],
          [3, 'thread versions'],
        ]);
        const [one, two] = opened as [AgentStore, AgentStore];
        const user = newUser();
        await one.saveThread(user, { id: 't', agentId: 'a', messages: [] });
        expect((await two.loadThread(user, 't'))?.revision).toBe(1);
      } finally {
        await Promise.all(opened.map((one) => one.close()));
      }
    });
  });
}
