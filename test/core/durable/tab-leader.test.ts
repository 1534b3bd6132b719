import { describe, expect, it } from 'vitest';
import {
  createDurableRunStore,
  createMemoryStorage,
} from '../../../src/core/storage/durable-run-store.js';
import {
  requestTabLead,
  tabLeadLockName,
  watchRecordWrites,
  type TabRole,
} from '../../../src/core/durable/tab-leader.js';
import { fakeLocks } from '../../support/durable-environment.js';

/** Lets the promise callbacks queued so far run (the fake locks grant in microtasks). */
async function settle() {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

describe('requestTabLead', () => {
  it('the first tab leads, the second follows and takes over when the first ends', async () => {
    const locks = fakeLocks();
    const first: TabRole[] = [];
    const second: TabRole[] = [];
    const endFirst = requestTabLead(locks, 'run-1', (role) => first.push(role));
    await settle();
    const endSecond = requestTabLead(locks, 'run-1', (role) => second.push(role));
    await settle();
    expect(first).toEqual(['leader']);
    expect(second).toEqual(['follower']);
    expect(locks.holders()).toEqual(['run-1']);

    endFirst();
    await settle();
    expect(second).toEqual(['follower', 'leader']);
    expect(first).toEqual(['leader']);

    endSecond();
    await settle();
    expect(locks.holders()).toEqual([]);
  });

  it('a tab that ended while waiting never leads, and the lock is free again', async () => {
    const locks = fakeLocks();
    const endFirst = requestTabLead(locks, 'run-1', () => undefined);
    await settle();
    const roles: TabRole[] = [];
    const endSecond = requestTabLead(locks, 'run-1', (role) => roles.push(role));
    await settle();
    endSecond();
    endFirst();
    await settle();
    expect(roles).toEqual(['follower']);
    expect(locks.holders()).toEqual([]);
  });

  it('a lock manager that refuses: this tab leads', async () => {
    const roles: TabRole[] = [];
    requestTabLead(
      { request: () => Promise.reject(new DOMException('denied', 'SecurityError')) },
      'run-1',
      (role) => roles.push(role),
    );
    await settle();
    expect(roles).toEqual(['leader']);
  });

  it('names the lock by store scope, agent and run', () => {
    const store = createDurableRunStore({ storage: 'memory', scope: 'user-7' });
    expect(tabLeadLockName(store, 'helpdesk', 'run-1')).toBe(
      'agent-console-kit:durable-run:user-7:helpdesk:run-1',
    );
  });
});

describe('watchRecordWrites', () => {
  it("tells of a write of the record, whether it shows something new, and nothing of other records'", () => {
    const storage = createMemoryStorage();
    const store = createDurableRunStore({ storage });
    const record = store.create({ agentId: 'agent' });
    const other = store.create({ agentId: 'agent' });
    const seen: [string | undefined, boolean][] = [];
    const stop = watchRecordWrites(
      store,
      record.localId,
      () => ({ lastState: 'RUNNING', lastUpdatedAt: 't1' }),
      (written, news) => seen.push([written.lastState, news]),
    );
    store.update(record.localId, { lastState: 'RUNNING', lastUpdatedAt: 't1' });
    store.update(record.localId, { lastState: 'REQUIRES_INPUT', lastUpdatedAt: 't2' });
    store.update(other.localId, { lastState: 'FAILED' });
    store.remove(record.localId);
    stop();
    store.create({ agentId: 'agent', localId: record.localId });
    expect(seen).toEqual([
      ['RUNNING', false],
      ['REQUIRES_INPUT', true],
    ]);
  });
});
