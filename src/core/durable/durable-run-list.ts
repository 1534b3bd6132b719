import {
  defaultRunStore,
  durableRunStatusOf,
  settledDurableRunStatuses,
  type DurableRunStatus,
} from './durable-run.js';
import type {
  DurableRunStoreRecord,
  DurableRunStoreRecordPhase,
  DurableRunStore,
} from '../storage/durable-run-store.js';
import { ListenerSet } from '../base/subscribable.js';

/** A durable run this browser knows: what its run store record says (no read of the service). */
export interface KnownDurableRun {
  /** The record's id (this library's, known before the start POST). */
  localId: string;
  agentId: string;
  /** The service's run id; `undefined` while the start POST's answer is not known. */
  runId: string | undefined;
  /**
   * The status the record implies: `start-unknown` for a start whose answer the record never got
   * (on its way in some tab, or cut by a reload: never sent again), `queued` for a run accepted
   * with no state yet, else the status of the last state seen.
   */
  status: DurableRunStatus;
  /** The service's last state seen, as sent. */
  serverState: string | undefined;
  phase: DurableRunStoreRecordPhase;
  /** A run that may still change: it has a run id and has not settled (attach it to follow it). */
  inProgress: boolean;
  /** When the record was written first (ms since the epoch). */
  startedAt: number;
  /** When the record last took a new state (ms since the epoch). */
  lastSnapshotAt: number | undefined;
  /** When the run settled (ms since the epoch). */
  settledAt: number | undefined;
  /** What was asked (a preview of at most 200 characters). */
  request: DurableRunStoreRecord['request'];
}

/** Options of {@link createDurableRunList}. */
export interface DurableRunListOptions {
  /**
   * The run store to list.
   * @default the page's run store (the one durable runs given no `store` use)
   */
  store?: DurableRunStore | undefined;
  /**
   * Only this agent's runs.
   * @default undefined (every agent's)
   */
  agentId?: string | undefined;
}

/** The durable runs of a run store, as a list that fits `useSyncExternalStore`. */
export interface DurableRunList {
  /** The runs, newest first: the same array until a record changes. */
  getSnapshot(): readonly KnownDurableRun[];
  /**
   * Calls `listener` when a record changes, in this tab or (localStorage) another one. The first
   * subscriber removes settled records past retention.
   */
  subscribe(listener: () => void): () => void;
  /** Lists another store or agent (the listeners stay; they hear of the new list). */
  setOptions(options: DurableRunListOptions): void;
}

/**
 * The durable runs a run store knows (in flight, waiting for approval, settled within retention,
 * or started with an unknown outcome), kept up to date across tabs: e.g. to show "runs in
 * progress" and attach one again with `createDurableRun(…).attach(runId)`.
 *
 * @example
 * const list = createDurableRunList({ agentId: 'helpdesk' });
 * list.subscribe(() => render(list.getSnapshot().filter((run) => run.inProgress)));
 */
export function createDurableRunList(options: DurableRunListOptions = {}): DurableRunList {
  let store = options.store ?? defaultRunStore();
  let agentId = options.agentId;
  let stopStore: (() => void) | undefined;
  let key: string | undefined;
  let snapshot: readonly KnownDurableRun[] = Object.freeze([]);

  const read = (): readonly KnownDurableRun[] => {
    const records = store.list(
      agentId === undefined ? { prune: false } : { agentId, prune: false },
    );
    const next = JSON.stringify(records);
    if (next !== key) {
      key = next;
      snapshot = Object.freeze(records.map(knownRunOf));
    }
    return snapshot;
  };
  const onChange = () => {
    const before = snapshot;
    if (read() === before) return;
    listeners.notify();
  };
  const listen = () => {
    // Before listening: the removals it writes are not changes anyone waits for.
    store.prune();
    stopStore = store.subscribe(onChange);
  };
  const stopListening = () => {
    stopStore?.();
    stopStore = undefined;
  };
  const listeners = new ListenerSet({ onFirst: listen, onLast: stopListening });

  return {
    getSnapshot: read,
    subscribe: listeners.subscribe,
    setOptions(next) {
      const nextStore = next.store ?? defaultRunStore();
      if (nextStore === store && next.agentId === agentId) return;
      const listening = stopStore !== undefined;
      if (listening) stopListening();
      store = nextStore;
      agentId = next.agentId;
      if (listening) listen();
      onChange();
    },
  };
}

function knownRunOf(record: DurableRunStoreRecord): KnownDurableRun {
  const status: DurableRunStatus =
    record.phase === 'creating'
      ? 'start-unknown'
      : record.lastState === undefined
        ? 'queued'
        : durableRunStatusOf(record.lastState);
  return {
    localId: record.localId,
    agentId: record.agentId,
    runId: record.runId,
    status,
    serverState: record.lastState,
    phase: record.phase,
    inProgress:
      record.runId !== undefined &&
      record.phase !== 'settled' &&
      !settledDurableRunStatuses.has(status),
    startedAt: record.startedAt,
    lastSnapshotAt: record.lastSnapshotAt,
    settledAt: record.settledAt,
    request: record.request,
  };
}
