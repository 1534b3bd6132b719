import { describe, expect, it } from 'vitest';
import { createAgentClient, createDurableRunStore } from 'agent-console-kit';
import { createDurableRun, type DurableRun } from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { serveDurableWireForTest } from '../../support/durable-wire-server.js';
import { manualPage } from '../../support/durable-environment.js';

const hello = { messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hello' }] }] };
const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

async function idle(run: DurableRun) {
  await expect.poll(() => run.getSnapshot().connection).not.toBe('polling');
}

async function followed(detachWhenUnobserved: boolean) {
  const server = await serveDurableWireForTest();
  const page = manualPage();
  const run = createDurableRun(
    createAgentClient({ baseUrl: server.url, api: 'platform', token: 'token-abcdef' }),
    {
      agentId: 'agent',
      store: createDurableRunStore({ storage: createMemoryStorage(), now: page.now }),
      environment: page.environment,
      detachWhenUnobserved,
    },
  );
  const unsubscribe = run.subscribe(() => undefined);
  await run.start(hello);
  await idle(run);
  return { server, page, run, unsubscribe };
}

describe('given detachWhenUnobserved', () => {
  it('the last unsubscribe detaches: no timer left, no read after', async () => {
    const { server, page, run, unsubscribe } = await followed(true);
    expect(run.getSnapshot()).toMatchObject({ status: 'running' });
    expect(page.scheduled()).not.toEqual([]);

    unsubscribe();
    await microtask();

    expect(run.getSnapshot().connection).toBe('stopped');
    expect(page.scheduled()).toEqual([]);
    const reads = server.counts.reads;
    page.advance(60_000);
    expect(server.counts.reads).toBe(reads);
    expect(server.counts.cancels).toBe(0);
  });

  it('a subscriber back within the grace (a StrictMode remount) keeps it watched', async () => {
    const { server, page, run, unsubscribe } = await followed(true);

    unsubscribe();
    run.subscribe(() => undefined);
    await microtask();

    expect(run.getSnapshot().connection).not.toBe('stopped');
    const reads = server.counts.reads;
    page.advance(1000);
    await idle(run);
    expect(server.counts.reads).toBe(reads + 1);
  });

  it('the next first subscriber follows the same run again (one read, no POST)', async () => {
    const { server, run, unsubscribe } = await followed(true);
    const runId = run.getSnapshot().runId;
    unsubscribe();
    await microtask();
    const reads = server.counts.reads;

    run.subscribe(() => undefined);
    await idle(run);

    expect(run.getSnapshot()).toMatchObject({ runId, status: 'running' });
    expect(run.getSnapshot().connection).not.toBe('stopped');
    expect(server.counts.reads).toBe(reads + 1);
    expect(server.counts.starts).toBe(1);
  });
});

describe('given no detachWhenUnobserved (the default)', () => {
  it('the run is still watched after the last unsubscribe', async () => {
    const { page, run, unsubscribe } = await followed(false);
    unsubscribe();
    await microtask();
    expect(run.getSnapshot().connection).not.toBe('stopped');
    expect(page.scheduled()).not.toEqual([]);
  });
});
