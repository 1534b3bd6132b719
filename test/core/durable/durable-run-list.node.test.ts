/**
 * createDurableRunList: the durable runs a run store knows, against the package's mock service
 * (the page's clock and the service's are one), and across two tabs sharing one storage.
 */
import { describe, expect, it, vi } from 'vitest';
import { createAgentClient, createDurableRunStore } from 'agent-console-kit';
import {
  createDurableRun,
  createDurableRunList,
  type DurableRun,
  type KeyValueStorage,
} from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents } from 'agent-console-kit/testing';
import { manualPage, type ManualPage } from '../../support/durable-environment.js';

const ask = (text: string) => ({ messages: [{ role: 'USER', content: [{ type: 'text', text }] }] });

async function tick(page: ManualPage, run: DurableRun, ms: number) {
  for (let left = ms; left > 0; left -= 500) {
    page.advance(Math.min(500, left));
    await expect.poll(() => run.getSnapshot().connection).not.toBe('polling');
  }
}

/** A tab: its own run store over the browser's one storage, and its own `storage` events. */
function tab(storage: KeyValueStorage, page: ManualPage) {
  const events = new EventTarget();
  const store = createDurableRunStore({ storage, now: page.environment.now, eventTarget: events });
  /** Another tab wrote `key`: the browser tells this one. */
  const storageEvent = (key: string) =>
    events.dispatchEvent(Object.assign(new Event('storage'), { key }));
  return { store, storageEvent };
}

describe('given durable runs started against the mock service', () => {
  it('lists each run with its status as it changes, the same array in between, and tells its subscribers', async () => {
    const page = manualPage();
    const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
    try {
      const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-9' });
      const { store } = tab(createMemoryStorage(), page);
      const list = createDurableRunList({ store, agentId: 'durable-agent' });
      expect(list.getSnapshot()).toEqual([]);
      const changes = vi.fn();
      const unsubscribe = list.subscribe(changes);

      const run = createDurableRun(client, {
        agentId: 'durable-agent',
        store,
        environment: page.environment,
      });
      await run.start(ask('Write the report'));
      const runId = run.getSnapshot().runId;
      const [known] = list.getSnapshot();
      expect(known).toMatchObject({
        agentId: 'durable-agent',
        runId,
        phase: 'created',
        inProgress: true,
        request: { kind: 'messages', preview: 'Write the report' },
      });
      expect(['queued', 'running']).toContain(known?.status);
      expect(known?.startedAt).toBe(page.now());
      expect(list.getSnapshot()).toBe(list.getSnapshot());
      expect(changes).toHaveBeenCalled();

      await tick(page, run, 8000);
      expect(run.getSnapshot().status).toBe('succeeded');
      expect(list.getSnapshot()).toEqual([
        expect.objectContaining({
          runId,
          status: 'succeeded',
          serverState: 'SUCCEEDED',
          phase: 'settled',
          inProgress: false,
        }),
      ]);

      // Another agent's run is not this list's; nothing else reached the service.
      const other = createDurableRun(client, {
        agentId: 'approval-agent',
        store,
        environment: page.environment,
      });
      const calls = changes.mock.calls.length;
      const before = list.getSnapshot();
      await other.start(ask('Tell me on Slack'));
      expect(list.getSnapshot()).toBe(before);
      expect(changes.mock.calls.length).toBe(calls);
      expect(createDurableRunList({ store }).getSnapshot()).toHaveLength(2);
      other.detach();
      unsubscribe();
      expect(server.service.durableStats.runsStarted).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('given two tabs sharing one storage', () => {
  it("shows the other tab's start, its run id and its removal, told by the storage event", () => {
    const page = manualPage();
    const storage = createMemoryStorage();
    const first = tab(storage, page);
    const second = tab(storage, page);
    const list = createDurableRunList({ store: second.store });
    const changes = vi.fn();
    list.subscribe(changes);

    const record = first.store.create({
      agentId: 'agent',
      messages: ask('Book the room').messages,
    });
    const key = `agent-console-kit:v1:default:run:${record.localId}`;
    second.storageEvent(key);
    expect(changes).toHaveBeenCalledTimes(1);
    expect(list.getSnapshot()).toEqual([
      expect.objectContaining({
        localId: record.localId,
        runId: undefined,
        status: 'start-unknown',
        inProgress: false,
      }),
    ]);

    first.store.update(record.localId, { phase: 'created', runId: 'run-7', lastState: 'RUNNING' });
    second.storageEvent(key);
    expect(list.getSnapshot()[0]).toMatchObject({
      runId: 'run-7',
      status: 'running',
      inProgress: true,
    });

    first.store.remove(record.localId);
    second.storageEvent(key);
    expect(list.getSnapshot()).toEqual([]);
    expect(changes).toHaveBeenCalledTimes(3);
  });

  it('the first subscriber removes settled records past retention; reading the list writes nothing', () => {
    const page = manualPage();
    const writes: string[] = [];
    const memory = createMemoryStorage();
    const storage: KeyValueStorage = {
      getItem: (key) => memory.getItem(key),
      setItem: (key, value) => {
        writes.push(key);
        memory.setItem(key, value);
      },
      removeItem: (key) => {
        writes.push(key);
        memory.removeItem(key);
      },
    };
    const store = createDurableRunStore({
      storage,
      now: page.environment.now,
      settledRetentionMs: 1000,
    });
    const old = store.create({ agentId: 'agent' });
    store.settle(old.localId, 'SUCCEEDED');
    page.advance(5000);
    const list = createDurableRunList({ store });
    writes.length = 0;
    expect(list.getSnapshot()).toHaveLength(1);
    expect(writes).toEqual([]);
    const unsubscribe = list.subscribe(() => undefined);
    expect(list.getSnapshot()).toEqual([]);
    unsubscribe();
  });
});
