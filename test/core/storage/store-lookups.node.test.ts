/**
 * The stores read what the wire and the storage hold as data, never as a key into the prototype:
 * a run state named like a property of every object is an unknown state, and a record stored
 * under another key than its `localId` can still be removed.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient, createDurableRunStore } from 'agent-console-kit';
import {
  createDurableRun,
  createDurableRunList,
  type KeyValueStorage,
} from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { serveDurableWireForTest } from '../../support/durable-wire-server.js';
import { manualPage } from '../../support/durable-environment.js';
import { durableRunStatusOf } from '../../../src/core/durable/durable-run-reducer.js';

const propertyNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const hello = { messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hello' }] }] };

/** A run record as the store writes it, under `key` (its index names `key`). */
function storedRecord(storage: KeyValueStorage, key: string, record: Record<string, unknown>) {
  storage.setItem('agent-console-kit:v1:default:runs', JSON.stringify([key]));
  storage.setItem(`agent-console-kit:v1:default:run:${key}`, JSON.stringify(record));
}

const record = (localId: string, lastState?: string) => ({
  v: 1,
  localId,
  agentId: 'agent',
  runId: 'run_1',
  phase: 'created',
  startedAt: 1,
  request: { kind: 'messages', preview: 'Hello' },
  ...(lastState === undefined ? {} : { lastState }),
});

describe('given a run state named like a property of every object', () => {
  it.each(propertyNames)('durableRunStatusOf(%j) is "unknown"', (state) => {
    expect(durableRunStatusOf(state)).toBe('unknown');
  });

  it.each(propertyNames)('a stored state %j is listed as "unknown"', (state) => {
    const storage = createMemoryStorage();
    storedRecord(storage, 'local-1', record('local-1', state));

    const list = createDurableRunList({ store: createDurableRunStore({ storage }) });

    expect(list.getSnapshot()).toMatchObject([{ localId: 'local-1', status: 'unknown' }]);
    expect(list.getSnapshot()[0]?.serverState).toBe(state);
  });

  it.each(propertyNames)('a served state %j shows as "unknown"', async (state) => {
    const server = await serveDurableWireForTest();
    server.acceptAs = state;
    const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'token-1' });
    const run = createDurableRun(client, {
      agentId: 'agent',
      store: createDurableRunStore({ storage: 'memory' }),
      environment: manualPage().environment,
    });

    await run.start(hello);
    await expect.poll(() => run.getSnapshot().serverState).toBe(state);

    expect(run.getSnapshot().status).toBe('unknown');
    expect(run.store.list()).toMatchObject([{ lastState: state }]);
    expect(createDurableRunList({ store: run.store }).getSnapshot()).toMatchObject([
      { status: 'unknown' },
    ]);
  });
});

describe('given a stored run record whose key is not its localId', () => {
  it('is listed under its key, and removed by what the list says', () => {
    const storage = createMemoryStorage();
    storedRecord(storage, 'local-key', record('local-other', 'SUCCEEDED'));
    const store = createDurableRunStore({ storage });

    const listed = store.list({ prune: false });
    expect(listed).toHaveLength(1);
    store.remove(listed[0]?.localId ?? '');

    expect(store.list({ prune: false })).toEqual([]);
    expect(storage.getItem('agent-console-kit:v1:default:run:local-key')).toBeNull();
  });

  it('is removed through the durable run list as well', () => {
    const storage = createMemoryStorage();
    storedRecord(storage, 'local-key', record('local-other', 'SUCCEEDED'));
    const store = createDurableRunStore({ storage });

    const [known] = createDurableRunList({ store }).getSnapshot();
    store.remove(known?.localId ?? '');

    expect(createDurableRunList({ store }).getSnapshot()).toEqual([]);
  });
});
