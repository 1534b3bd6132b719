import { describe, expect, it } from 'vitest';
import type { DurableRunRecord } from 'agent-console-kit/core';
import { DurablePoller, type DurablePollerHost } from '../../../src/core/durable/durable-poller.js';
import { defaultDurablePollPolicy } from '../../../src/core/durable/durable-poll-schedule.js';
import {
  initialDurableRunModel,
  reduceDurableRun,
} from '../../../src/core/durable/durable-run-reducer.js';
import { createDurableRunStore } from '../../../src/core/storage/durable-run-store.js';
import {
  durableRunRecord,
  manualPage,
  type ManualPage,
} from '../../support/durable-environment.js';

// The poller alone, with a host that answers reads when the test says. The poller with the durable
// run and the mock service is tested in durable-run.node.test.ts.

function running(runId: string): DurableRunRecord {
  return durableRunRecord({ runId });
}

function setUp(page: ManualPage = manualPage()) {
  let model = initialDurableRunModel('agent');
  const reads: { runId: string; answer: (record: DurableRunRecord) => void }[] = [];
  const received: string[] = [];
  const host: DurablePollerHost = {
    getSnapshot: () => model.snapshot,
    dispatch: (action) => {
      model = reduceDurableRun(model, action);
    },
    read: (runId) =>
      new Promise<DurableRunRecord>((resolve) => reads.push({ runId, answer: resolve })),
    received: (record) => {
      received.push(record.runId);
      model = reduceDurableRun(model, { type: 'read', record });
    },
    failed: () => undefined,
  };
  const poller = new DurablePoller(host, {
    agentId: 'agent',
    store: createDurableRunStore({ storage: 'memory' }),
    policy: defaultDurablePollPolicy,
    environment: page.environment,
  });
  return { poller, reads, received, page, snapshot: () => model.snapshot };
}

describe('DurablePoller', () => {
  it("calls the page's timers as plain functions (a browser's setTimeout refuses another this)", async () => {
    const page = manualPage();
    const { setTimeout: set, clearTimeout: clear } = page.environment;
    // What Chromium does: "Illegal invocation" for a timer called as a method of another object.
    page.environment.setTimeout = function (this: unknown, callback, ms) {
      if (this !== undefined) throw new TypeError('Illegal invocation');
      return set?.(callback, ms);
    };
    page.environment.clearTimeout = function (this: unknown, handle) {
      if (this !== undefined) throw new TypeError('Illegal invocation');
      clear?.(handle);
    };
    const { poller, reads, snapshot } = setUp(page);
    poller.watch('run-1');
    expect(reads).toHaveLength(1);
    reads[0]?.answer(running('run-1'));
    await poller.reading;
    expect(snapshot()).toMatchObject({ status: 'running', connection: 'waiting' });
    // The read's timeout is cleared, the next read is scheduled at the quick pace.
    expect(page.scheduled()).toEqual([1000]);
    poller.stop();
    expect(page.scheduled()).toEqual([]);
  });

  it('reads the run id it was given, never the one a snapshot shows', async () => {
    const { poller, reads, page } = setUp();
    poller.watch('run-1');
    reads[0]?.answer(running('run-1'));
    await poller.reading;
    page.advance(1000);
    expect(reads.map((read) => read.runId)).toEqual(['run-1', 'run-1']);
  });

  it('drops the answer of a read sent before stop()', async () => {
    const { poller, reads, received, snapshot } = setUp();
    poller.watch('run-1');
    const reading = poller.reading;
    poller.stop();
    reads[0]?.answer(running('run-1'));
    await reading;
    expect(received).toEqual([]);
    expect(snapshot()).toMatchObject({ status: 'idle', polls: 1 });
  });
});
