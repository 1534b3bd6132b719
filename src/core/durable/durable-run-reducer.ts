import type { AgentError } from '../wire/errors.js';
import type { AgentStorageError, DurableRunStoreRecord } from '../storage/durable-run-store.js';
import type { DurableRunRecord } from '../wire/durable-run-schemas.js';
import { batchKeyOf } from '../wire/durable-run-states.js';
import {
  initialDurableRunSnapshot,
  noInteractions,
  settledDurableRunStatuses,
  type DurableRunConnection,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable-run-snapshot.js';

/**
 * What a durable run knows: the snapshot it shows, and three facts a read is interpreted by that
 * the snapshot does not show.
 */
export interface DurableRunModel {
  readonly snapshot: DurableRunSnapshot;
  /**
   * A cancellation was asked (here, before a reload, or in another tab): a run still queued or
   * running shows `cancelling`, and one that succeeds gets the note `completed-before-cancel`.
   */
  readonly cancelRequested: boolean;
  /** Decisions are on their way: a read that still shows the approvals shows `responding`. */
  readonly responding: boolean;
  /** The run paused for approval: its next text may begin a new continuation (a new segment). */
  readonly continuationPending: boolean;
}

/**
 * Everything that changes a durable run's state, by name. A `record` is what the service answered
 * (a read, the 201 of the start, the answer to a respond or a cancel); a `stored` record is the
 * store's.
 */
export type DurableRunAction =
  /** The `'creating'` record is written; the POST has not gone out. */
  | {
      type: 'starting';
      localId: string;
      request: DurableRunStoreRecord['request'];
      storageError: AgentStorageError | undefined;
    }
  /** The start POST failed: it may have created a run (`unknown`), or surely did not. */
  | { type: 'start-failed'; error: AgentError; unknown: boolean }
  /** The 201 of the start, for a run that is watched. */
  | { type: 'created'; record: DurableRunRecord; storageError: AgentStorageError | undefined }
  /** The 201 of a start detached while the POST was on its way: shown, not watched. */
  | {
      type: 'created-detached';
      record: DurableRunRecord;
      storageError: AgentStorageError | undefined;
    }
  /** A run found again by its id (a reload, a link, another tab), before its first read. */
  | {
      type: 'attached';
      runId: string;
      stored: DurableRunStoreRecord;
      storageError: AgentStorageError | undefined;
    }
  /** A stored start whose POST was interrupted: it may have created a run, never sent again. */
  | { type: 'found-unsent'; stored: DurableRunStoreRecord }
  /** A read goes out. */
  | { type: 'read-sent'; at: number }
  /** A read answered. */
  | { type: 'read'; record: DurableRunRecord }
  /** A read failed (`status`: its HTTP status, if it had one). */
  | { type: 'read-failed'; error: AgentError; status: number | undefined }
  /** Decisions go out. */
  | { type: 'responding' }
  /** The service took the decisions. */
  | { type: 'responded'; record: DurableRunRecord }
  /** The decisions were refused or could not be sent: the approvals are shown again. */
  | { type: 'respond-failed'; error: AgentError }
  /** A cancellation goes out. */
  | { type: 'cancelling'; at: number }
  /** The service took the cancellation. */
  | { type: 'cancel-answered'; record: DurableRunRecord }
  /** The cancellation was refused or could not be sent: the run goes on. */
  | { type: 'cancel-failed'; error: AgentError }
  /** What the poller does next. */
  | { type: 'connection'; connection: DurableRunConnection; nextPollAt: number | undefined }
  /** The store's last failure (or none). */
  | { type: 'storage'; error: AgentStorageError | undefined }
  /** Not watched any more (a disconnect, not a cancel). */
  | { type: 'detached' }
  /** Nothing shown: `idle`. */
  | { type: 'reset' };

/** The model of a run not started (`idle`). */
export function initialDurableRunModel(agentId: string): DurableRunModel {
  return fresh(initialDurableRunSnapshot(agentId));
}

/**
 * The state after `action`: pure (no clock, no store, no timer), and the same objects when nothing
 * changed, so that `useSyncExternalStore` renders only on a change.
 */
export function reduceDurableRun(
  model: DurableRunModel,
  action: DurableRunAction,
): DurableRunModel {
  const snapshot = model.snapshot;
  const initial = () => initialDurableRunSnapshot(snapshot.agentId);
  switch (action.type) {
    case 'starting':
      return fresh({
        ...initial(),
        status: 'starting',
        localId: action.localId,
        request: action.request,
        storageError: action.storageError,
      });
    case 'start-failed':
      return patched(model, {
        status: action.unknown ? 'start-unknown' : 'failed',
        error: action.error,
      });
    case 'created': {
      const shown = patched(model, {
        runId: action.record.runId,
        storageError: action.storageError,
      });
      return applyRecord(shown, action.record);
    }
    case 'created-detached': {
      const serverState = stateOf(action.record);
      return patched(model, {
        runId: action.record.runId,
        serverState,
        status: durableRunStatusOf(serverState),
        requestId: action.record.requestId,
        storageError: action.storageError,
      });
    }
    case 'attached': {
      const { stored } = action;
      return {
        ...fresh({
          ...initial(),
          status: stored.lastState === undefined ? 'queued' : durableRunStatusOf(stored.lastState),
          localId: stored.localId,
          runId: action.runId,
          serverState: stored.lastState,
          request: stored.request,
          resumed: true,
          storageError: action.storageError,
        }),
        // A cancellation the stored run saw was asked, even when the first read finds it ended.
        cancelRequested: stored.lastState === 'CANCELLING',
      };
    }
    case 'found-unsent':
      return fresh({
        ...initial(),
        status: 'start-unknown',
        localId: action.stored.localId,
        request: action.stored.request,
        resumed: true,
      });
    case 'read-sent':
      return patched(model, {
        polls: snapshot.polls + 1,
        lastPolledAt: action.at,
        nextPollAt: undefined,
        connection: 'polling',
      });
    case 'read': {
      const authError = [401, 403].includes(statusOfError(snapshot.error) ?? 0);
      const recovered = patched(model, {
        consecutiveFailures: 0,
        pollError: undefined,
        ...(authError ? { error: undefined } : {}),
      });
      return applyRecord(recovered, action.record);
    }
    case 'read-failed':
      return readFailed(model, action.error, action.status);
    case 'responding':
      return {
        ...patched(model, { status: 'responding', error: undefined }),
        responding: true,
        continuationPending: true,
      };
    case 'responded':
      return applyRecord({ ...model, responding: false }, action.record);
    case 'respond-failed':
      return {
        ...patched(model, { status: 'requires-input', error: action.error }),
        responding: false,
      };
    case 'cancelling':
      return {
        ...patched(model, { status: 'cancelling', cancelRequestedAt: action.at, error: undefined }),
        cancelRequested: true,
      };
    case 'cancel-answered':
      return applyRecord(model, action.record);
    case 'cancel-failed': {
      const serverState = snapshot.serverState;
      return {
        ...patched(model, {
          status: serverState === undefined ? 'running' : durableRunStatusOf(serverState),
          cancelRequestedAt: undefined,
          error: action.error,
        }),
        cancelRequested: false,
      };
    }
    case 'connection':
      return patched(model, { connection: action.connection, nextPollAt: action.nextPollAt });
    case 'storage':
      return patched(model, { storageError: action.error });
    case 'detached': {
      const stopped = model.responding ? { ...model, responding: false } : model;
      // A start detached during its POST keeps showing `starting` until the POST settles.
      if (snapshot.status === 'starting') return stopped;
      return patched(stopped, { connection: 'stopped', nextPollAt: undefined });
    }
    case 'reset':
      return fresh(initial());
  }
}

const knownStatuses: Readonly<Record<string, DurableRunStatus>> = {
  QUEUED: 'queued',
  RUNNING: 'running',
  REQUIRES_INPUT: 'requires-input',
  CANCELLING: 'cancelling',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  EXPIRED: 'expired',
};

/** The status a raw server state shows as (`unknown` for a state this library does not know). */
export function durableRunStatusOf(serverState: string): DurableRunStatus {
  // An own property only: a state named `constructor` or `__proto__` is not a status.
  return Object.hasOwn(knownStatuses, serverState)
    ? (knownStatuses[serverState] ?? 'unknown')
    : 'unknown';
}

/** The state the service sent (kept when unknown). */
export function stateOf(record: DurableRunRecord): string {
  return record.serverState ?? record.state;
}

/** A time as compared between reads and as stored (`updated_at` was seen as a string or a Date). */
export function stringOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The HTTP status an error carries, if any. */
export function statusOfError(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

function fresh(snapshot: DurableRunSnapshot): DurableRunModel {
  return { snapshot, cancelRequested: false, responding: false, continuationPending: false };
}

/** The model with `patch` on its snapshot: the same snapshot object when no field differs. */
function patched(model: DurableRunModel, patch: Partial<DurableRunSnapshot>): DurableRunModel {
  const snapshot = model.snapshot;
  const differs = (Object.keys(patch) as (keyof DurableRunSnapshot)[]).some(
    (key) => !Object.is(patch[key], snapshot[key]),
  );
  return differs ? { ...model, snapshot: { ...snapshot, ...patch } } : model;
}

function readFailed(
  model: DurableRunModel,
  error: AgentError,
  status: number | undefined,
): DurableRunModel {
  if (status === 404) {
    return patched(model, {
      status: 'lost',
      error,
      pendingInteractions: noInteractions,
      batchKey: undefined,
      connection: 'stopped',
    });
  }
  if (status === 401 || status === 403) return patched(model, { error, connection: 'stopped' });
  return patched(model, {
    consecutiveFailures: model.snapshot.consecutiveFailures + 1,
    pollError: error,
  });
}

/** A record the service sent, as shown: its state, approvals, output and error. */
function applyRecord(model: DurableRunModel, record: DurableRunRecord): DurableRunModel {
  const previous = model.snapshot;
  const serverState = stateOf(record);
  let status = durableRunStatusOf(serverState);
  let note = previous.note;
  // A cancellation the service shows (asked before a reload, or in another tab) was asked.
  const cancelRequested = model.cancelRequested || serverState === 'CANCELLING';
  if (cancelRequested) {
    if (status === 'queued' || status === 'running') status = 'cancelling';
    if (status === 'succeeded') note = 'completed-before-cancel';
  }
  if (model.responding && status === 'requires-input') status = 'responding';

  const paused = status === 'requires-input' || status === 'responding';
  const interactions = paused ? record.pendingInteractions : noInteractions;
  const batchKey = paused ? batchKeyOf(interactions) : undefined;
  const pendingInteractions =
    batchKey !== undefined && batchKey === previous.batchKey
      ? previous.pendingInteractions
      : interactions;

  const merged = mergeOutput(previous.output, record.output, {
    continuationPending: model.continuationPending || status === 'requires-input',
    // The segment ends while decisions are on their way or the run still waits for them.
    keepsContinuation: model.responding || previous.status === 'requires-input',
  });
  const settled = settledDurableRunStatuses.has(status);
  const failed = status === 'failed' || status === 'expired';
  const error: DurableRunSnapshot['error'] = !failed
    ? previous.error
    : record.error !== undefined && record.error.message !== undefined
      ? { kind: 'run', code: record.error.code, message: record.error.message }
      : { kind: 'run', code: record.error?.code, message: 'The run failed.' };

  const next = patched(model, {
    status,
    runId: record.runId,
    serverState,
    requestId: record.requestId ?? previous.requestId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    expiresAt: record.expiresAt,
    pendingInteractions,
    batchKey,
    output: merged.output,
    error,
    note,
    ...(settled ? { connection: 'stopped' as const, nextPollAt: undefined } : {}),
  });
  if (
    next === model &&
    cancelRequested === model.cancelRequested &&
    merged.continuationPending === model.continuationPending
  ) {
    return model;
  }
  return { ...next, cancelRequested, continuationPending: merged.continuationPending };
}

/**
 * The output is a snapshot, replaced on every read. After an approval the service may restart it
 * (only the new continuation's text): then the earlier text is kept as a segment of its own. An
 * empty output never erases text already shown.
 */
function mergeOutput(
  previous: DurableRunSnapshot['output'],
  output: DurableRunRecord['output'],
  continuation: { continuationPending: boolean; keepsContinuation: boolean },
): { output: DurableRunSnapshot['output']; continuationPending: boolean } {
  const { continuationPending } = continuation;
  const text = output?.text ?? '';
  const messages = output?.messages ?? previous.messages;
  if (text === '') {
    return {
      output: messages === previous.messages ? previous : { ...previous, messages },
      continuationPending,
    };
  }
  const segments = [...previous.segments];
  const last = segments.at(-1);
  if (last === undefined) {
    segments.push(text);
  } else if (continuationPending && !text.startsWith(last) && !isPrefixOfJoined(text, segments)) {
    segments.push(text);
  } else if (isPrefixOfJoined(text, segments) && segments.length > 1) {
    // The service sent the whole run's text again (it accumulates): one segment holds it.
    segments.splice(0, segments.length, text);
  } else {
    segments[segments.length - 1] = text;
  }
  const pending = continuationPending && continuation.keepsContinuation;
  const joined = segments.join('\n\n');
  if (joined === previous.text && messages === previous.messages) {
    return { output: previous, continuationPending: pending };
  }
  return { output: { text: joined, segments, messages }, continuationPending: pending };
}

function isPrefixOfJoined(text: string, segments: readonly string[]): boolean {
  const joined = segments.join('');
  return joined !== '' && text.replace(/\s+/g, '').startsWith(joined.replace(/\s+/g, ''));
}
