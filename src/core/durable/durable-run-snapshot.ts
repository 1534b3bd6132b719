import type { AgentError } from '../wire/errors.js';
import type { DurableInteraction } from '../wire/durable-run-schemas.js';
import type { AgentStorageError, DurableRunStoreRecord } from '../storage/durable-run-store.js';

// A module of its own (without the durable run's code): a conversation shows a durable turn as
// `starting` while the durable run's code loads (docs/decisions/0014-bundle-size.md).

/**
 * Where a durable run is, as shown. `start-unknown`: the start POST may have created a run (a
 * network error after sending, or a reload during it) and was not sent again; `lost`: the service
 * answered 404 (unknown, another user's, or gone); `unknown`: the service reported a state this
 * library does not know (shown, not acted on).
 */
export type DurableRunStatus =
  | 'idle'
  | 'starting'
  | 'start-unknown'
  | 'queued'
  | 'running'
  | 'requires-input'
  | 'responding'
  | 'cancelling'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'expired'
  | 'lost'
  | 'unknown';

/** The statuses after which a durable run changes no more. */
export const settledDurableRunStatuses: ReadonlySet<DurableRunStatus> = new Set([
  'succeeded',
  'failed',
  'cancelled',
  'expired',
  'lost',
]);

/**
 * What the polling does: `polling` (a read in flight), `waiting` (the next read is scheduled),
 * `paused-hidden` (scheduled, slower: the page is hidden), `backing-off` (after 3 failed reads),
 * `offline` (until the `online` event), `following` (another tab reads the run), `stopped`.
 */
export type DurableRunConnection =
  'polling' | 'waiting' | 'paused-hidden' | 'backing-off' | 'offline' | 'following' | 'stopped';

/** A failure the service reported for the run itself (`run.error`). */
export interface DurableRunFailure {
  kind: 'run';
  code: string | undefined;
  message: string;
}

/** The state of a durable run: immutable, the same object until something changes. */
export interface DurableRunSnapshot {
  status: DurableRunStatus;
  agentId: string;
  /** This library's id of the run (its store record), known before the POST. */
  localId: string | undefined;
  runId: string | undefined;
  /** The service's raw state (kept when unknown). */
  serverState: string | undefined;
  requestId: string | undefined;
  /** The service's times as sent (RFC 3339): shown, never used as identity. */
  createdAt: string | undefined;
  updatedAt: string | undefined;
  expiresAt: string | undefined;
  /** The approvals of the batch shown (empty unless `requires-input` or `responding`). */
  pendingInteractions: readonly DurableInteraction[];
  /** The sorted interaction ids of the batch shown: decisions belong to it. */
  batchKey: string | undefined;
  /**
   * The agent's output: `text` is replaced from each read (never appended to); `segments` holds one
   * text per continuation (before and after an approval), joined by a blank line into `text`.
   */
  output: { text: string; segments: readonly string[]; messages: readonly unknown[] };
  /** What ended or refused the run: a typed client error, or the service's `run.error`. */
  error: AgentError | DurableRunFailure | undefined;
  /** The last failed read, while reads are retried (cleared by the next good one). */
  pollError: AgentError | undefined;
  /** The store could not write: the run goes on in memory (and will not survive a reload). */
  storageError: AgentStorageError | undefined;
  /** `'completed-before-cancel'`: the run finished before a cancellation could stop it. */
  note: 'completed-before-cancel' | undefined;
  /** Whether this run was attached (after a reload, or from another tab) rather than started here. */
  resumed: boolean;
  /** What was asked (a preview of at most 200 characters), from the store's record. */
  request: DurableRunStoreRecord['request'] | undefined;
  cancelRequestedAt: number | undefined;
  /** Reads sent, the time of the last one, of the next one, and failed reads in a row. */
  polls: number;
  lastPolledAt: number | undefined;
  nextPollAt: number | undefined;
  consecutiveFailures: number;
  connection: DurableRunConnection;
}

/** A durable run's snapshot before it starts (`idle`) or anything is known of it. */
export function initialDurableRunSnapshot(agentId: string): DurableRunSnapshot {
  return {
    status: 'idle',
    agentId,
    localId: undefined,
    runId: undefined,
    serverState: undefined,
    requestId: undefined,
    createdAt: undefined,
    updatedAt: undefined,
    expiresAt: undefined,
    pendingInteractions: noInteractions,
    batchKey: undefined,
    output: { text: '', segments: [], messages: [] },
    error: undefined,
    pollError: undefined,
    storageError: undefined,
    note: undefined,
    resumed: false,
    request: undefined,
    cancelRequestedAt: undefined,
    polls: 0,
    lastPolledAt: undefined,
    nextPollAt: undefined,
    consecutiveFailures: 0,
    connection: 'stopped',
  };
}

/** No approval waits (one frozen list, so that an unchanged snapshot keeps its identity). */
export const noInteractions: readonly DurableInteraction[] = Object.freeze([]);
