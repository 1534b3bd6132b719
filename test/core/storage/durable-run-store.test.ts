import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentClient, createDurableRunStore } from 'agent-console-kit';
import { AgentStorageError, createDurableRun, type KeyValueStorage } from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents } from 'agent-console-kit/testing';

afterEach(() => {
  localStorage.clear();
});

/** Every key and value a storage holds (localStorage, or a recording storage). */
function everything(storage: Storage): string[] {
  const items: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index) ?? '';
    items.push(key, storage.getItem(key) ?? '');
  }
  return items;
}

describe('given a run started with a token, secret headers and a long input', () => {
  it('stores no token, no header value and no more than 200 characters of the input', async () => {
    const server = await createMockAgentServer({
      agents: demoAgents,
      token: 'tok_SECRET_9f8e7d6c5b4a',
    });
    try {
      const storedDuringPost: string[] = [];
      const longText = `Please summarize: ${'confidential paragraph '.repeat(300)}END-OF-INPUT`;
      const client = createAgentClient({
        baseUrl: server.url,
        api: 'platform',
        // Asked just before the POST: what is stored while the request is on its way.
        token: () => {
          storedDuringPost.push(...everything(localStorage));
          return 'tok_SECRET_9f8e7d6c5b4a';
        },
        headers: { 'X-Glean-ActAs': 'ceo@example.com', 'X-Custom-Secret': 'hdr_SECRET_1a2b3c' },
        secretHeaders: ['X-Custom-Secret'],
      });
      const store = createDurableRunStore(); // localStorage: a browser's default
      const run = createDurableRun(client, { agentId: 'durable-agent', store });
      await run.start({
        messages: [{ role: 'USER', content: [{ type: 'text', text: longText }] }],
        metadata: { note: 'meta_SECRET_77' },
      });
      expect(run.getSnapshot().runId).toBeDefined();
      run.detach();

      expect(storedDuringPost.length).toBeGreaterThan(0);
      const stored = [...storedDuringPost, ...everything(localStorage)];
      for (const value of stored) {
        expect(value).not.toContain('tok_SECRET_9f8e7d6c5b4a');
        expect(value).not.toContain('SECRET_9f8e');
        expect(value).not.toContain('ceo@example.com');
        expect(value).not.toContain('hdr_SECRET_1a2b3c');
        expect(value).not.toContain('meta_SECRET_77');
        expect(value).not.toContain('END-OF-INPUT');
        expect(value).not.toMatch(/Bearer|authorization/i);
      }
      const [record] = store.list();
      expect(record?.request.preview.length).toBeLessThanOrEqual(200);
      expect(record?.request.preview.startsWith('Please summarize: confidential')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('keeps only the field names of a form input', () => {
    const store = createDurableRunStore({ storage: 'memory' });
    const record = store.create({
      agentId: 'agent',
      input: { employee: 'Jane Doe', salary: '123456' },
    });
    expect(record.request).toEqual({ kind: 'input', preview: 'employee, salary' });
  });
});

describe('given the record lifecycle', () => {
  it('creating before the POST, created with the run id, settled once', () => {
    const storage = createMemoryStorage();
    const store = createDurableRunStore({ storage, now: () => 1000 });
    const record = store.create({ agentId: 'agent', messages: [] });
    expect(record.phase).toBe('creating');
    // A reload finds it in the same storage.
    expect(createDurableRunStore({ storage }).get(record.localId)?.phase).toBe('creating');
    store.update(record.localId, { phase: 'created', runId: 'run-1' });
    expect(createDurableRunStore({ storage }).findByRunId('agent', 'run-1')?.phase).toBe('created');
    expect(store.settle(record.localId, 'SUCCEEDED')).toBe(true);
    expect(createDurableRunStore({ storage }).settle(record.localId, 'SUCCEEDED')).toBe(false);
    expect(store.get(record.localId)).toMatchObject({ phase: 'settled', settledAt: 1000 });
  });

  it('removes settled records after the retention (24 h by default), never unsettled ones', () => {
    let now = 0;
    const store = createDurableRunStore({ storage: 'memory', now: () => now });
    const settled = store.create({ agentId: 'agent' });
    const running = store.create({ agentId: 'agent' });
    store.update(running.localId, { phase: 'created', runId: 'run-2' });
    store.settle(settled.localId, 'SUCCEEDED');
    now = 24 * 60 * 60 * 1000 - 1;
    expect(
      store
        .list()
        .map((record) => record.localId)
        .sort(),
    ).toEqual([settled.localId, running.localId].sort());
    now = 24 * 60 * 60 * 1000;
    expect(store.list().map((record) => record.localId)).toEqual([running.localId]);
    now = 365 * 24 * 60 * 60 * 1000;
    expect(store.list().map((record) => record.localId)).toEqual([running.localId]);
  });

  it('keeps scopes apart', () => {
    const storage = createMemoryStorage();
    createDurableRunStore({ storage, scope: 'user-a' }).create({ agentId: 'agent' });
    expect(createDurableRunStore({ storage, scope: 'user-b' }).list()).toEqual([]);
    expect(createDurableRunStore({ storage, scope: 'user-a' }).list()).toHaveLength(1);
  });

  it('ignores records it cannot read', () => {
    const storage = createMemoryStorage();
    const store = createDurableRunStore({ storage });
    const record = store.create({ agentId: 'agent' });
    storage.setItem(`agent-console-kit:v1:default:run:${record.localId}`, '{"v":1,"phase":"nope"');
    expect(store.list()).toEqual([]);
  });
});

describe('given a full storage', () => {
  it('a typed storage error on the snapshot; the run goes on in memory', async () => {
    const server = await createMockAgentServer({ agents: demoAgents });
    try {
      const full: KeyValueStorage = {
        getItem: () => null,
        setItem: () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        },
        removeItem: () => undefined,
      };
      const store = createDurableRunStore({ storage: full });
      const run = createDurableRun(createAgentClient({ baseUrl: server.url, api: 'platform' }), {
        agentId: 'durable-agent',
        store,
      });
      await run.start({ messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }] });
      const snapshot = run.getSnapshot();
      expect(snapshot.storageError).toBeInstanceOf(AgentStorageError);
      expect(snapshot.storageError?.reason).toBe('quota');
      expect(snapshot.status).toBe('running');
      // In memory: this page still finds it.
      expect(store.findByRunId('durable-agent', snapshot.runId ?? '')?.phase).toBe('created');
      run.detach();
    } finally {
      await server.close();
    }
  });
});

describe('given another tab', () => {
  it('subscribe hears its writes through the storage event', () => {
    const store = createDurableRunStore();
    const other = createDurableRunStore();
    const listener = vi.fn();
    const stop = store.subscribe(listener);
    const record = other.create({ agentId: 'agent' });
    const key = `agent-console-kit:v1:default:run:${record.localId}`;
    window.dispatchEvent(new StorageEvent('storage', { key, newValue: localStorage.getItem(key) }));
    expect(listener).toHaveBeenCalledWith({
      localId: record.localId,
      record: expect.objectContaining({ phase: 'creating' }) as unknown,
      external: true,
    });
    stop();
    listener.mockClear();
    window.dispatchEvent(new StorageEvent('storage', { key }));
    expect(listener).not.toHaveBeenCalled();
  });
});
