import { describe, expect, it } from 'vitest';
import { AgentHttpError, AgentNetworkError } from 'agent-console-kit';
import type { DurableRunRecord } from 'agent-console-kit/core';
import type { DurableToolApproval } from '../../../src/core/wire/durable-run-schemas.js';
import {
  durableRunStatusOf,
  initialDurableRunModel,
  reduceDurableRun,
  type DurableRunAction,
  type DurableRunModel,
} from '../../../src/core/durable/durable-run-reducer.js';
import type { DurableRunStoreRecord } from '../../../src/core/storage/durable-run-store.js';
import { durableRunRecord } from '../../support/durable-environment.js';

// The reducer alone: no server, no timer, no store. The commands that dispatch these actions are
// tested against the mock service in durable-run.node.test.ts.

function record(state: string, patch: Partial<DurableRunRecord> = {}): DurableRunRecord {
  return durableRunRecord({
    state: durableRunStatusOf(state) === 'unknown' ? 'unknown' : (state as 'RUNNING'),
    serverState: state,
    updatedAt: `2026-11-27T20:00:00Z ${state}`,
    ...patch,
  });
}

function withText(state: string, text: string, updatedAt = text): DurableRunRecord {
  return record(state, {
    updatedAt,
    output: { text, messages: [], present: true },
  });
}

function approval(interactionId: string): DurableToolApproval {
  return {
    kind: 'tool-approval',
    interactionId,
    displayName: 'Refund',
    description: 'Refunds an order',
    toolId: 'refund',
    arguments: { order: 7 },
    argumentsText: '{"order":7}',
    argumentsPrecisionLost: false,
    expiresAt: undefined,
    raw: {},
  };
}

const paused = record('REQUIRES_INPUT', {
  pendingInteractions: [approval('b'), approval('a')],
  output: { text: 'Checking the order.', messages: [], present: true },
});

const stored: DurableRunStoreRecord = {
  v: 1,
  localId: 'local-1',
  agentId: 'agent',
  runId: 'run-1',
  phase: 'created',
  startedAt: 1000,
  request: { kind: 'messages', preview: 'Refund order 7' },
  lastState: 'RUNNING',
};

function httpError(status: number): AgentHttpError {
  return new AgentHttpError({ status, url: '/v2/agents/agent/runs', method: 'GET', body: '' });
}

function run(...actions: DurableRunAction[]): DurableRunModel {
  return actions.reduce(reduceDurableRun, initialDurableRunModel('agent'));
}

const starting: DurableRunAction = {
  type: 'starting',
  localId: 'local-1',
  request: { kind: 'messages', preview: 'Refund order 7' },
  storageError: undefined,
};

describe('reduceDurableRun', () => {
  it('starts: starting with the record, then the 201 shows the run and its state', () => {
    const model = run(starting);
    expect(model.snapshot).toMatchObject({
      status: 'starting',
      localId: 'local-1',
      runId: undefined,
    });

    const created = reduceDurableRun(model, {
      type: 'created',
      record: record('QUEUED'),
      storageError: undefined,
    });
    expect(created.snapshot).toMatchObject({
      status: 'queued',
      runId: 'run-1',
      serverState: 'QUEUED',
      requestId: 'request-1',
    });
  });

  it('a start POST that failed: failed, or start-unknown when it may have created a run', () => {
    const error = new AgentNetworkError('The connection broke.', { url: '/runs' });
    expect(run(starting, { type: 'start-failed', error, unknown: true }).snapshot).toMatchObject({
      status: 'start-unknown',
      error,
    });
    expect(run(starting, { type: 'start-failed', error, unknown: false }).snapshot.status).toBe(
      'failed',
    );
  });

  it('keeps the same objects when a read changes nothing', () => {
    const running = withText('RUNNING', 'Hello');
    const first = run(starting, { type: 'read', record: running });
    const again = reduceDurableRun(first, { type: 'read', record: { ...running } });
    expect(again).toBe(first);
    expect(again.snapshot).toBe(first.snapshot);
  });

  it('replaces the text from each read, and an empty output never erases it', () => {
    const model = run(
      starting,
      { type: 'read', record: withText('RUNNING', 'Hel') },
      { type: 'read', record: withText('RUNNING', 'Hello there') },
      { type: 'read', record: withText('RUNNING', '', 'later') },
    );
    expect(model.snapshot.output).toEqual({
      text: 'Hello there',
      segments: ['Hello there'],
      messages: [],
    });
  });

  it('settles: the service error shown, polling stopped', () => {
    const failed = run(
      starting,
      { type: 'connection', connection: 'waiting', nextPollAt: 5000 },
      {
        type: 'read',
        record: record('FAILED', { error: { code: 'tool_failed', message: 'The tool failed.' } }),
      },
    );
    expect(failed.snapshot).toMatchObject({
      status: 'failed',
      error: { kind: 'run', code: 'tool_failed', message: 'The tool failed.' },
      connection: 'stopped',
      nextPollAt: undefined,
    });
    const expired = run(starting, { type: 'read', record: record('EXPIRED') });
    expect(expired.snapshot.error).toEqual({
      kind: 'run',
      code: undefined,
      message: 'The run failed.',
    });
  });

  it('shows a state it does not know as unknown, with the raw state', () => {
    const model = run(starting, { type: 'read', record: record('DREAMING') });
    expect(model.snapshot).toMatchObject({ status: 'unknown', serverState: 'DREAMING' });
  });

  describe('a cancel', () => {
    it('shows cancelling while the run still runs, and a note when it completes anyway', () => {
      const asked = run(
        starting,
        { type: 'read', record: record('RUNNING') },
        { type: 'cancelling', at: 42 },
      );
      expect(asked.snapshot).toMatchObject({ status: 'cancelling', cancelRequestedAt: 42 });
      const stillRunning = reduceDurableRun(asked, {
        type: 'cancel-answered',
        record: record('RUNNING', { updatedAt: 'later' }),
      });
      expect(stillRunning.snapshot.status).toBe('cancelling');
      const completed = reduceDurableRun(stillRunning, {
        type: 'read',
        record: withText('SUCCEEDED', 'Done.'),
      });
      expect(completed.snapshot).toMatchObject({
        status: 'succeeded',
        note: 'completed-before-cancel',
      });
    });

    it('refused: the run shows its state again, the error, and no cancellation asked', () => {
      const error = httpError(409);
      const refused = run(
        starting,
        { type: 'read', record: record('RUNNING') },
        { type: 'cancelling', at: 42 },
        { type: 'cancel-failed', error },
      );
      expect(refused.snapshot).toMatchObject({
        status: 'running',
        cancelRequestedAt: undefined,
        error,
      });
      expect(refused.cancelRequested).toBe(false);
    });

    it('a stored CANCELLING (asked before a reload) counts as asked', () => {
      const attached = run({
        type: 'attached',
        runId: 'run-1',
        stored: { ...stored, lastState: 'CANCELLING' },
        storageError: undefined,
      });
      expect(attached.snapshot).toMatchObject({ status: 'cancelling', resumed: true });
      const completed = reduceDurableRun(attached, {
        type: 'read',
        record: record('SUCCEEDED'),
      });
      expect(completed.snapshot.note).toBe('completed-before-cancel');
    });
  });

  describe('approvals', () => {
    it('shows the batch with its key; while responding, a read of the same batch keeps it', () => {
      const waiting = run(starting, { type: 'read', record: paused });
      expect(waiting.snapshot).toMatchObject({ status: 'requires-input', batchKey: 'a b' });
      expect(waiting.snapshot.pendingInteractions).toHaveLength(2);

      const responding = reduceDurableRun(waiting, { type: 'responding' });
      expect(responding.snapshot.status).toBe('responding');
      const readMeanwhile = reduceDurableRun(responding, {
        type: 'read',
        record: { ...paused, updatedAt: 'later' },
      });
      expect(readMeanwhile.snapshot.status).toBe('responding');
      expect(readMeanwhile.snapshot.pendingInteractions).toBe(waiting.snapshot.pendingInteractions);
    });

    it('the continuation after the decisions is a segment of its own', () => {
      const continued = run(
        starting,
        { type: 'read', record: paused },
        { type: 'responding' },
        { type: 'responded', record: withText('RUNNING', 'Refunded.') },
        { type: 'read', record: withText('SUCCEEDED', 'Refunded. Anything else?') },
      );
      expect(continued.snapshot.output.segments).toEqual([
        'Checking the order.',
        'Refunded. Anything else?',
      ]);
      expect(continued.snapshot.output.text).toBe(
        'Checking the order.\n\nRefunded. Anything else?',
      );
      expect(continued.snapshot.pendingInteractions).toEqual([]);
    });

    it('a service that sends the whole text again keeps one segment', () => {
      const whole = run(
        starting,
        { type: 'read', record: paused },
        { type: 'responding' },
        { type: 'responded', record: withText('RUNNING', 'Refunded.') },
        { type: 'read', record: withText('RUNNING', 'Checking the order. Refunded. Bye.') },
      );
      expect(whole.snapshot.output.segments).toEqual(['Checking the order. Refunded. Bye.']);
    });

    it('decisions refused: the approvals are shown again with the error', () => {
      const error = new AgentNetworkError('The connection broke.', { url: '/respond' });
      const refused = run(
        starting,
        { type: 'read', record: paused },
        { type: 'responding' },
        { type: 'respond-failed', error },
      );
      expect(refused.snapshot).toMatchObject({ status: 'requires-input', error });
      expect(refused.responding).toBe(false);
    });
  });

  describe('failed reads', () => {
    it('count in a row and show the last, until a good read', () => {
      const error = httpError(503);
      const failing = run(
        starting,
        { type: 'read', record: record('RUNNING') },
        { type: 'read-failed', error, status: 503 },
        { type: 'read-failed', error, status: 503 },
      );
      expect(failing.snapshot).toMatchObject({ consecutiveFailures: 2, pollError: error });
      const recovered = reduceDurableRun(failing, {
        type: 'read',
        record: record('RUNNING', { updatedAt: 'later' }),
      });
      expect(recovered.snapshot).toMatchObject({ consecutiveFailures: 0, pollError: undefined });
    });

    it('a 404 is lost: no approvals, stopped', () => {
      const error = httpError(404);
      const lost = run(
        starting,
        { type: 'read', record: paused },
        { type: 'read-failed', error, status: 404 },
      );
      expect(lost.snapshot).toMatchObject({
        status: 'lost',
        error,
        pendingInteractions: [],
        batchKey: undefined,
        connection: 'stopped',
      });
    });

    it('a 401 stops with the error, which the next good read clears', () => {
      const error = httpError(401);
      const refused = run(
        starting,
        { type: 'read', record: record('RUNNING') },
        { type: 'read-failed', error, status: 401 },
      );
      expect(refused.snapshot).toMatchObject({ status: 'running', error, connection: 'stopped' });
      const again = reduceDurableRun(refused, {
        type: 'read',
        record: record('RUNNING', { updatedAt: 'later' }),
      });
      expect(again.snapshot.error).toBeUndefined();
    });
  });

  it('counts the reads sent, and shows what the poller does next', () => {
    const model = run(
      starting,
      { type: 'read-sent', at: 10 },
      { type: 'connection', connection: 'waiting', nextPollAt: 1010 },
      { type: 'read-sent', at: 1010 },
    );
    expect(model.snapshot).toMatchObject({
      polls: 2,
      lastPolledAt: 1010,
      nextPollAt: undefined,
      connection: 'polling',
    });
  });

  it('a detach stops the connection, but a start detached during its POST stays starting', () => {
    const started = run(starting);
    expect(reduceDurableRun(started, { type: 'detached' })).toBe(started);
    const watched = run(
      starting,
      { type: 'read', record: record('RUNNING') },
      { type: 'connection', connection: 'waiting', nextPollAt: 5000 },
      { type: 'detached' },
    );
    expect(watched.snapshot).toMatchObject({
      status: 'running',
      connection: 'stopped',
      nextPollAt: undefined,
    });
  });

  it('a stored start whose POST was interrupted is start-unknown; a reset is idle', () => {
    const unsent = run({ type: 'found-unsent', stored: { ...stored, runId: undefined } });
    expect(unsent.snapshot).toMatchObject({
      status: 'start-unknown',
      localId: 'local-1',
      resumed: true,
      request: { kind: 'messages', preview: 'Refund order 7' },
    });
    expect(reduceDurableRun(unsent, { type: 'reset' })).toEqual(initialDurableRunModel('agent'));
  });

  it('maps every state the service documents', () => {
    expect(
      ['QUEUED', 'RUNNING', 'REQUIRES_INPUT', 'CANCELLING', 'SUCCEEDED', 'FAILED', 'CANCELLED']
        .concat(['EXPIRED', 'NEW'])
        .map(durableRunStatusOf),
    ).toEqual([
      'queued',
      'running',
      'requires-input',
      'cancelling',
      'succeeded',
      'failed',
      'cancelled',
      'expired',
      'unknown',
    ]);
  });
});
