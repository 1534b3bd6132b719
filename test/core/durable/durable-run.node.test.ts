import { describe, expect, it } from 'vitest';
import { createAgentClient, createDurableRunStore } from 'agent-console-kit';
import {
  AgentApprovalConflictError,
  AgentStartUnknownError,
  createDurableRun,
  type DurableRun,
  type DurableRunOptions,
  type KeyValueStorage,
} from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import {
  approval,
  serveDurableWireForTest,
  type DurableWireServer,
} from '../../support/durable-wire-server.js';
import { fakeLocks, manualPage, type ManualPage } from '../../support/durable-environment.js';

const hello = { messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hello' }] }] };

function setUp(server: DurableWireServer, storage: KeyValueStorage = createMemoryStorage()) {
  const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'token-abcdef' });
  const page = manualPage();
  const settled: string[] = [];
  const asked: string[] = [];
  /** A page load: a new store over the same storage, a new durable run. */
  const load = (options: Partial<DurableRunOptions> & { page?: ManualPage } = {}) =>
    createDurableRun(client, {
      agentId: 'agent',
      store: createDurableRunStore({ storage, now: (options.page ?? page).environment.now }),
      environment: (options.page ?? page).environment,
      onSettled: (snapshot) => settled.push(`${snapshot.runId}:${snapshot.status}`),
      onRequiresInput: (snapshot) => asked.push(snapshot.batchKey ?? ''),
      ...options,
    });
  return { client, page, settled, asked, load, storage };
}

/** Waits until no read is in flight (reads go over a real socket). */
async function idle(run: DurableRun) {
  await expect.poll(() => run.getSnapshot().connection).not.toBe('polling');
}

/**
 * Moves the page's clock by `ms`, in steps of at most 5 s with every read answered in between (a
 * read in flight would otherwise see its 15 s timeout pass).
 */
async function tick(page: ManualPage, run: DurableRun, ms: number) {
  for (let left = ms; left > 0; left -= 5000) {
    page.advance(Math.min(5000, left));
    await idle(run);
  }
}

/** Starts `run` and waits for the start's answer; resolves with the run id. */
async function startAndIdle(run: DurableRun): Promise<string> {
  await run.start(hello);
  await idle(run);
  return run.getSnapshot().runId ?? '';
}

/** A run started and polled until it waits for `interactions` (one approval by default). */
async function pausedRun(server: DurableWireServer, interactions = [approval('call_1')]) {
  const context = setUp(server);
  const run = context.load();
  const runId = await startAndIdle(run);
  server.set(runId, {
    state: 'REQUIRES_INPUT',
    text: 'Let me check.',
    pending_interactions: interactions,
  });
  await tick(context.page, run, 1000);
  return { ...context, run, runId };
}

/** Starts `run`, asks for its cancellation once the start is answered; resolves with the run id. */
async function startThenCancel(run: DurableRun): Promise<string> {
  const runId = await startAndIdle(run);
  await run.cancel();
  await idle(run);
  return runId;
}

describe('given a run started and polled to the end', () => {
  it('shows the output once, calls onSettled once, and sent one POST', async () => {
    const server = await serveDurableWireForTest();
    const { page, load, settled } = setUp(server);
    const run = load();

    const runId = await startAndIdle(run);
    expect(run.getSnapshot()).toMatchObject({ status: 'running', serverState: 'RUNNING' });
    // Immediate read after the 201, then 1 s.
    expect(server.counts.reads).toBe(1);
    expect(page.scheduled()[0]).toBe(1000);

    server.set(runId, { text: 'Hello' });
    await tick(page, run, 1000);
    expect(run.getSnapshot().output.text).toBe('Hello');
    server.set(runId, { text: 'Hello world' });
    await tick(page, run, 1000);
    server.set(runId, { state: 'SUCCEEDED', text: 'Hello world' });
    await tick(page, run, 1000);

    expect(run.getSnapshot()).toMatchObject({
      status: 'succeeded',
      output: { text: 'Hello world', segments: ['Hello world'] },
      connection: 'stopped',
    });
    const reads = server.counts.reads;
    await tick(page, run, 60_000);
    expect(server.counts.reads).toBe(reads);
    expect(settled).toEqual([`${runId}:succeeded`]);
    expect(server.counts.starts).toBe(1);
  });
});

describe('given a reload', () => {
  it('while running: attaches the same run, shows its output once, onSettled once in all', async () => {
    const server = await serveDurableWireForTest();
    const { page, load, settled } = setUp(server);
    const first = load();
    await first.start(hello);
    await idle(first);
    const runId = first.getSnapshot().runId ?? '';
    server.set(runId, { text: 'Partial' });
    await tick(page, first, 1000);
    first.detach(); // the page goes away: nothing is cancelled
    expect(server.counts.cancels).toBe(0);

    const second = load();
    await second.resume();
    expect(second.getSnapshot()).toMatchObject({
      runId,
      status: 'running',
      resumed: true,
      output: { text: 'Partial' },
    });
    server.set(runId, { state: 'SUCCEEDED', text: 'Partial answer' });
    await tick(page, second, 1000);
    expect(second.getSnapshot().output.text).toBe('Partial answer');

    // A reload after the end shows the answer, once, and announces nothing.
    const third = load();
    await third.resume();
    expect(third.getSnapshot()).toMatchObject({
      runId,
      status: 'succeeded',
      output: { text: 'Partial answer', segments: ['Partial answer'] },
    });
    expect(settled).toEqual([`${runId}:succeeded`]);
    expect(server.counts.starts).toBe(1);
  });

  it('during the start POST: start-unknown, and the POST is never sent again', async () => {
    const server = await serveDurableWireForTest();
    server.startMode = 'hang';
    const { load } = setUp(server);
    const first = load();
    const arrived = server.startArrived();
    void first.start({
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'Book the room' }] }],
    });
    await arrived;
    expect(first.getSnapshot().status).toBe('starting');

    const second = load(); // the reload: the first page never saw the answer
    await second.resume();
    expect(second.getSnapshot()).toMatchObject({
      status: 'start-unknown',
      runId: undefined,
      request: { kind: 'messages', preview: 'Book the room' },
    });
    await second.refresh();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.counts.starts).toBe(1);
    expect(server.counts.reads).toBe(0);

    second.forget();
    expect(second.getSnapshot().status).toBe('idle');
    const third = load();
    await third.resume();
    expect(third.getSnapshot().status).toBe('idle');
  });

  it('a connection broken after the POST was sent: start-unknown, not sent again', async () => {
    const server = await serveDurableWireForTest();
    server.startMode = 'reset';
    const { load } = setUp(server);
    const run = load();
    await run.start(hello);
    expect(run.getSnapshot().status).toBe('start-unknown');
    expect(run.getSnapshot().error).toBeInstanceOf(AgentStartUnknownError);
    expect(server.counts.starts).toBe(1);
    // The record stays: a reload says the same.
    const reloaded = load();
    await reloaded.resume();
    expect(reloaded.getSnapshot().status).toBe('start-unknown');
  });
});

describe('given a detach while the start POST is pending', () => {
  async function detachedStart(server: DurableWireServer) {
    server.startMode = 'hold';
    const context = setUp(server);
    const run = context.load();
    const arrived = server.startArrived();
    const started = run.start(hello);
    await arrived;
    run.detach();
    return { ...context, run, started };
  }

  it('a 201 after the detach: the snapshot has the run id, a refresh reads it, a reload finds it', async () => {
    const server = await serveDurableWireForTest();
    const { run, started, load } = await detachedStart(server);
    server.answerHeldStarts('201');
    await started;
    const [runId] = [...server.runs.keys()];
    expect(runId).toBeDefined();
    expect(run.getSnapshot()).toMatchObject({ runId, status: 'running', connection: 'stopped' });
    expect(server.counts.reads).toBe(0); // detached: not watched
    await run.refresh();
    await idle(run);
    expect(server.counts.reads).toBeGreaterThan(0);
    expect(run.getSnapshot()).toMatchObject({ runId, status: 'running' });

    run.detach();
    const reloaded = load();
    await reloaded.resume();
    expect(reloaded.getSnapshot()).toMatchObject({ runId, status: 'running', resumed: true });
    expect(server.counts.starts).toBe(1);
  });

  it('a connection broken after the detach: start-unknown, the record kept, not sent again', async () => {
    const server = await serveDurableWireForTest();
    const { run, started, load } = await detachedStart(server);
    server.answerHeldStarts('reset');
    await started;
    expect(run.getSnapshot().status).toBe('start-unknown');
    const reloaded = load();
    await reloaded.resume();
    expect(reloaded.getSnapshot().status).toBe('start-unknown');
    expect(server.counts.starts).toBe(1);
  });

  it('an HTTP refusal after the detach: failed, and a reload finds no record', async () => {
    const server = await serveDurableWireForTest();
    const { run, started, load } = await detachedStart(server);
    server.answerHeldStarts(422);
    await started;
    expect(run.getSnapshot().status).toBe('failed');
    expect(run.getSnapshot().error?.kind).toBe('http');
    const reloaded = load();
    await reloaded.resume();
    expect(reloaded.getSnapshot().status).toBe('idle');
    expect(server.counts.starts).toBe(1);
    expect(server.runs.size).toBe(0);
  });
});

describe('given a run the service does not know (404)', () => {
  it('is lost, its record removed, and it is not read again', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const run = load();
    await run.attach('gone');
    expect(run.getSnapshot()).toMatchObject({ status: 'lost', connection: 'stopped' });
    expect(run.store.list()).toEqual([]);
    await tick(page, run, 60_000);
    expect(server.counts.reads).toBe(1);
  });
});

describe('given a cancel', () => {
  it('polls at 1 s until the run is cancelled, onSettled once', async () => {
    const server = await serveDurableWireForTest();
    const { page, load, settled } = setUp(server);
    const run = load();
    const runId = await startAndIdle(run);
    await tick(page, run, 30_000); // patient by now

    await run.cancel();
    await idle(run);
    expect(server.counts.cancels).toBe(1);
    expect(run.getSnapshot().status).toBe('cancelling'); // the service still says RUNNING
    expect(run.getSnapshot().serverState).toBe('RUNNING');
    expect(page.scheduled()[0]).toBe(1000);

    server.set(runId, { state: 'CANCELLED' });
    await tick(page, run, 1000);
    expect(run.getSnapshot().status).toBe('cancelled');
    expect(settled).toEqual([`${runId}:cancelled`]);
  });

  it('completion winning the race: succeeded, with the answer and a note', async () => {
    const server = await serveDurableWireForTest();
    const { page, load, settled } = setUp(server);
    const run = load();
    const runId = await startThenCancel(run);
    server.set(runId, { state: 'SUCCEEDED', text: 'Done anyway' });
    await tick(page, run, 1000);
    expect(run.getSnapshot()).toMatchObject({
      status: 'succeeded',
      note: 'completed-before-cancel',
      output: { text: 'Done anyway' },
    });
    expect(settled).toEqual([`${runId}:succeeded`]);
  });

  it('completion winning the race after a reload during the cancellation: the note too', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const first = load();
    const runId = await startThenCancel(first);
    server.set(runId, { state: 'CANCELLING' });
    first.detach();
    const reloaded = load();
    await reloaded.resume();
    expect(reloaded.getSnapshot().status).toBe('cancelling');
    server.set(runId, { state: 'SUCCEEDED', text: 'Done anyway' });
    await tick(page, reloaded, 1000);
    expect(reloaded.getSnapshot()).toMatchObject({
      status: 'succeeded',
      note: 'completed-before-cancel',
    });
  });

  it('completion winning the race before the first read after a reload: the note from the stored CANCELLING', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const first = load();
    const runId = await startThenCancel(first);
    server.set(runId, { state: 'CANCELLING' });
    await tick(page, first, 1000);
    expect(first.getSnapshot().serverState).toBe('CANCELLING');
    first.detach();
    // The run completes while the page reloads: its first read already says SUCCEEDED.
    server.set(runId, { state: 'SUCCEEDED', text: 'Done anyway' });
    const reloaded = load();
    await reloaded.resume();
    await idle(reloaded);
    expect(reloaded.getSnapshot()).toMatchObject({
      status: 'succeeded',
      note: 'completed-before-cancel',
    });
  });

  it('503 then a detach: the cancel is not sent again', async () => {
    const server = await serveDurableWireForTest();
    server.failCancels = 3;
    const { page, load } = setUp(server);
    const run = load();
    await run.start(hello);
    await idle(run);
    const cancelled = run.cancel();
    await expect.poll(() => server.counts.cancels).toBe(1);
    await expect.poll(() => page.scheduled()).toContain(2000);
    run.detach();
    const retryTimerLeft = page.scheduled().includes(2000);
    for (let step = 0; step < 4; step++) {
      page.advance(20_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await cancelled;
    expect(server.counts.cancels).toBe(1);
    expect(retryTimerLeft).toBe(false);
  });

  it('409 (no cancellation registration): shown, the run goes on being read', async () => {
    const server = await serveDurableWireForTest();
    server.cancelConflict = true;
    const { page, load } = setUp(server);
    const run = load();
    await run.start(hello);
    await idle(run);
    await run.cancel();
    await idle(run);
    expect(run.getSnapshot()).toMatchObject({ status: 'running', cancelRequestedAt: undefined });
    expect(run.getSnapshot().error?.kind).toBe('http');
    expect(server.counts.cancels).toBe(1);
    const reads = server.counts.reads;
    await tick(page, run, 1000);
    expect(server.counts.reads).toBe(reads + 1);
  });
});

describe('given a run that waits for approval', () => {
  it('approve: one batch sent, the run continues, both continuations shown in order', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId, page, asked, settled } = await pausedRun(server);
    expect(run.getSnapshot()).toMatchObject({
      status: 'requires-input',
      batchKey: 'call_1',
      pendingInteractions: [{ kind: 'tool-approval', interactionId: 'call_1' }],
    });
    expect(asked).toEqual(['call_1']);
    expect(page.scheduled()[0]).toBe(15_000);

    const answered = run.respond([{ interactionId: 'call_1', decision: 'APPROVE' }]);
    expect(run.getSnapshot().status).toBe('responding');
    await answered;
    await idle(run);
    expect(server.runs.get(runId)?.decisions).toEqual([
      [{ interaction_id: 'call_1', decision: 'APPROVE' }],
    ]);
    // The service restarted the output (empty after the decision): the first part stays.
    expect(run.getSnapshot()).toMatchObject({
      status: 'running',
      output: { text: 'Let me check.' },
    });

    server.set(runId, { state: 'SUCCEEDED', text: 'Sent your message.' });
    await tick(page, run, 1000);
    expect(run.getSnapshot().output).toMatchObject({
      text: 'Let me check.\n\nSent your message.',
      segments: ['Let me check.', 'Sent your message.'],
    });
    expect(settled).toEqual([`${runId}:succeeded`]);
    expect(asked).toEqual(['call_1']);
  });

  it('reject: the decision reaches the service as REJECT', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId } = await pausedRun(server);
    await run.respond([{ interactionId: 'call_1', decision: 'REJECT' }]);
    expect(server.runs.get(runId)?.decisions).toEqual([
      [{ interaction_id: 'call_1', decision: 'REJECT' }],
    ]);
  });

  it('a decision missing for one of the batch sends nothing', async () => {
    const server = await serveDurableWireForTest();
    const { run } = await pausedRun(server, [approval('call_1'), approval('call_2')]);
    await expect(run.respond([{ interactionId: 'call_1', decision: 'APPROVE' }])).rejects.toThrow(
      /every approval/,
    );
    await expect(
      run.respond([
        { interactionId: 'call_1', decision: 'APPROVE' },
        { interactionId: 'call_3', decision: 'APPROVE' },
      ]),
    ).rejects.toThrow(/not an approval of the batch shown/);
    expect(server.counts.responds).toBe(0);
  });

  it('409 (answered elsewhere): read again, not re-sent', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId } = await pausedRun(server);
    // Another tab answered: the service now has another batch.
    server.set(runId, { pending_interactions: [approval('call_9')] });
    await run.respond([{ interactionId: 'call_1', decision: 'APPROVE' }]);
    await idle(run);
    expect(server.counts.responds).toBe(1);
    expect(run.getSnapshot().error).toBeInstanceOf(AgentApprovalConflictError);
    expect(run.getSnapshot()).toMatchObject({ status: 'requires-input', batchKey: 'call_9' });
  });

  it('503: the identical batch again, accepted once', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId, page } = await pausedRun(server);
    server.failResponds = 1;
    const answered = run.respond([{ interactionId: 'call_1', decision: 'APPROVE' }]);
    await expect.poll(() => server.counts.responds).toBe(1);
    await expect.poll(() => page.scheduled()).toContain(2000);
    page.advance(2000);
    await answered;
    expect(server.counts.responds).toBe(2);
    expect(server.runs.get(runId)?.decisions).toHaveLength(1);
    expect(run.getSnapshot().status).toBe('running');
  });

  it('503 then a detach: nothing is sent again, the retry timer is gone', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId, page } = await pausedRun(server);
    server.failResponds = 3;
    const answered = run.respond([{ interactionId: 'call_1', decision: 'APPROVE' }]);
    await expect.poll(() => server.counts.responds).toBe(1);
    await expect.poll(() => page.scheduled()).toContain(2000);
    run.detach();
    const retryTimerLeft = page.scheduled().includes(2000);
    for (let step = 0; step < 4; step++) {
      page.advance(20_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await answered;
    expect(server.counts.responds).toBe(1);
    expect(server.runs.get(runId)?.decisions).toEqual([]);
    expect(retryTimerLeft).toBe(false);
  });

  it('503 then a forget: nothing is sent again', async () => {
    const server = await serveDurableWireForTest();
    const { run, page } = await pausedRun(server);
    server.failResponds = 3;
    const answered = run.respond([{ interactionId: 'call_1', decision: 'REJECT' }]);
    await expect.poll(() => server.counts.responds).toBe(1);
    await expect.poll(() => page.scheduled()).toContain(2000);
    run.forget();
    for (let step = 0; step < 4; step++) {
      page.advance(20_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await answered;
    expect(server.counts.responds).toBe(1);
    expect(run.getSnapshot().status).toBe('idle');
  });

  it('a reload while paused shows the same approval, not announced again', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId, load, asked } = await pausedRun(server);
    run.detach();
    const reloaded = load();
    await reloaded.resume();
    expect(reloaded.getSnapshot()).toMatchObject({
      runId,
      status: 'requires-input',
      batchKey: 'call_1',
      output: { text: 'Let me check.' },
    });
    expect(asked).toEqual(['call_1']);
  });
});

describe('given the network goes away', () => {
  it('stops polling offline and reads at once on online', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const run = load();
    await run.start(hello);
    await idle(run);
    page.goOffline();
    expect(run.getSnapshot().connection).toBe('offline');
    expect(page.scheduled()).toEqual([]);
    const reads = server.counts.reads;
    await tick(page, run, 10 * 60_000);
    expect(server.counts.reads).toBe(reads);

    page.goOnline();
    await expect.poll(() => server.counts.reads).toBe(reads + 1);
    await idle(run);
    expect(run.getSnapshot().connection).toBe('waiting');
  });

  it('failed reads back off, honour Retry-After, and recover', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const run = load();
    await run.start(hello);
    await idle(run);
    server.failReads = { status: 429, times: 1, retryAfter: '20' };
    await tick(page, run, 1000);
    expect(run.getSnapshot()).toMatchObject({ consecutiveFailures: 1, status: 'running' });
    expect(page.scheduled()[0]).toBe(20_000);
    server.failReads = { status: 503, times: 1 };
    await tick(page, run, 20_000);
    expect(run.getSnapshot().consecutiveFailures).toBe(2);
    // 2 s · 2 with equal jitter at 0.5: 3 s.
    expect(page.scheduled()[0]).toBe(3000);
    await tick(page, run, 3000);
    expect(run.getSnapshot()).toMatchObject({ consecutiveFailures: 0, pollError: undefined });
  });

  it('reads at once when the page becomes visible again, and on pageshow', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const run = load();
    await run.start(hello);
    await idle(run);
    await tick(page, run, 3 * 60_000);
    page.hide();
    expect(page.scheduled()[0]).toBe(20_000);
    const reads = server.counts.reads;
    page.show();
    await expect.poll(() => server.counts.reads).toBe(reads + 1);
    await idle(run);
    page.pageshow();
    await expect.poll(() => server.counts.reads).toBe(reads + 2);
  });
});

describe('given two pages of one browser watching one run', () => {
  it('one polls (it holds the lock), the other follows, and onSettled runs once', async () => {
    const server = await serveDurableWireForTest();
    const storage = createMemoryStorage();
    const { client } = setUp(server, storage);
    const locks = fakeLocks();
    const store = createDurableRunStore({ storage });
    const settled: string[] = [];
    const open = () => {
      const page = manualPage({ locks });
      const run = createDurableRun(client, {
        agentId: 'agent',
        store,
        environment: page.environment,
        onSettled: (snapshot) => settled.push(snapshot.status),
      });
      return { page, run };
    };
    const a = open();
    const b = open();
    await a.run.start(hello);
    await idle(a.run);
    const runId = a.run.getSnapshot().runId ?? '';
    await b.run.attach(runId);
    await idle(b.run);
    await expect.poll(() => b.run.getSnapshot().connection).toBe('following');

    for (let second = 0; second < 20; second++) {
      a.page.advance(1000);
      b.page.advance(1000);
      await idle(a.run);
    }
    expect(a.run.getSnapshot().polls).toBeGreaterThanOrEqual(10);
    expect(b.run.getSnapshot().polls).toBe(1);

    server.set(runId, { state: 'SUCCEEDED', text: 'Both see this' });
    a.page.advance(5000);
    await idle(a.run);
    await expect.poll(() => b.run.getSnapshot().status).toBe('succeeded');
    expect(b.run.getSnapshot().output.text).toBe('Both see this');
    expect(settled).toEqual(['succeeded']);
  });

  it('the polling page reads at once when the following page answers the approvals', async () => {
    const server = await serveDurableWireForTest();
    const storage = createMemoryStorage();
    const { client } = setUp(server, storage);
    const locks = fakeLocks();
    const store = createDurableRunStore({ storage });
    const pageA = manualPage({ locks });
    const pageB = manualPage({ locks });
    const a = createDurableRun(client, { agentId: 'agent', store, environment: pageA.environment });
    const b = createDurableRun(client, { agentId: 'agent', store, environment: pageB.environment });
    await a.start(hello);
    await idle(a);
    const runId = a.getSnapshot().runId ?? '';
    server.set(runId, { state: 'REQUIRES_INPUT', pending_interactions: [approval('call_1')] });
    pageA.advance(1000);
    await expect.poll(() => a.getSnapshot().status).toBe('requires-input');
    await idle(a);
    await b.attach(runId);
    await expect.poll(() => b.getSnapshot().connection).toBe('following');
    const polls = a.getSnapshot().polls;

    await b.respond([{ interactionId: 'call_1', decision: 'APPROVE' }]);
    // No clock moved: the leader read because the follower wrote RUNNING, not in 15 s.
    await expect.poll(() => a.getSnapshot().polls).toBe(polls + 1);
    await idle(a);
    expect(a.getSnapshot().status).toBe('running');
  });

  it('the follower takes over when the leading page goes away', async () => {
    const server = await serveDurableWireForTest();
    const storage = createMemoryStorage();
    const { client } = setUp(server, storage);
    const locks = fakeLocks();
    const store = createDurableRunStore({ storage });
    const pageA = manualPage({ locks });
    const pageB = manualPage({ locks });
    const a = createDurableRun(client, { agentId: 'agent', store, environment: pageA.environment });
    const b = createDurableRun(client, { agentId: 'agent', store, environment: pageB.environment });
    await a.start(hello);
    await idle(a);
    await b.attach(a.getSnapshot().runId ?? '');
    await expect.poll(() => b.getSnapshot().connection).toBe('following');
    a.detach();
    await expect.poll(() => b.getSnapshot().connection).toBe('waiting');
    const polls = b.getSnapshot().polls;
    pageB.advance(1000);
    await expect.poll(() => b.getSnapshot().polls).toBe(polls + 1);
  });
});

describe('given a state this library does not know', () => {
  it('shows it as unknown with the raw state, reads it slowly, and answers nothing', async () => {
    const server = await serveDurableWireForTest();
    const { page, load, settled } = setUp(server);
    const run = load();
    const runId = await startAndIdle(run);
    server.set(runId, { state: 'HIBERNATING' });
    await tick(page, run, 1000);
    expect(run.getSnapshot()).toMatchObject({ status: 'unknown', serverState: 'HIBERNATING' });
    expect(page.scheduled()[0]).toBe(15_000);
    await expect(run.respond([{ interactionId: 'call_1', decision: 'APPROVE' }])).rejects.toThrow(
      /Nothing to answer/,
    );
    expect(server.counts.responds).toBe(0);
    expect(settled).toEqual([]);
  });
});

describe('given a run left running past its 40-minute deadline', () => {
  it('is read just after the deadline, also after a reload, even while hidden', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const first = load();
    const acceptedAt = page.now();
    await first.start(hello);
    await idle(first);
    first.detach();
    await tick(page, first, 37 * 60_000);
    const reloaded = load();
    await reloaded.resume();
    page.hide(); // 20 s between reads once patient
    const deadline = acceptedAt + 40 * 60_000;
    while (page.now() < deadline + 1000) await tick(page, reloaded, 1000);
    const last = reloaded.getSnapshot().lastPolledAt ?? 0;
    expect(last).toBeGreaterThanOrEqual(deadline);
    expect(last).toBeLessThanOrEqual(deadline + 1000);
  });
});

describe('given a read refused with 401', () => {
  it('stops polling and shows the error; refresh() starts again', async () => {
    const server = await serveDurableWireForTest();
    const { page, load } = setUp(server);
    const run = load();
    await run.start(hello);
    await idle(run);
    server.failReads = { status: 401, times: 1 };
    await tick(page, run, 1000);
    expect(run.getSnapshot()).toMatchObject({ status: 'running', connection: 'stopped' });
    expect(run.getSnapshot().error?.kind).toBe('http');
    const reads = server.counts.reads;
    await tick(page, run, 60_000);
    expect(server.counts.reads).toBe(reads);
    await run.refresh();
    await idle(run);
    expect(server.counts.reads).toBe(reads + 1);
    expect(run.getSnapshot()).toMatchObject({ connection: 'waiting', error: undefined });
  });
});

describe('given a cancel while waiting for approval', () => {
  it('is cancelled at once, nothing approved', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId, settled } = await pausedRun(server);
    await run.cancel();
    expect(run.getSnapshot()).toMatchObject({ status: 'cancelled', pendingInteractions: [] });
    expect(settled).toEqual([`${runId}:cancelled`]);
    expect(server.counts.responds).toBe(0);
  });

  it('a read in flight when the cancel settles the run is dropped, not shown as a failed read', async () => {
    const server = await serveDurableWireForTest();
    const { run, runId, page, settled } = await pausedRun(server);

    server.holdReads = true;
    const arrived = server.readArrived();
    const reading = run.refresh();
    await arrived;
    await run.cancel();
    await reading;
    expect(run.getSnapshot()).toMatchObject({
      status: 'cancelled',
      connection: 'stopped',
      pollError: undefined,
      consecutiveFailures: 0,
    });
    expect(settled).toEqual([`${runId}:cancelled`]);
    expect(page.scheduled()).toEqual([]);
  });
});
