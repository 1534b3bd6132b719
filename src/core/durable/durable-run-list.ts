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
import type { ServerRunList, ServerRunSummary } from '../storage/server-run-list.js';

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
  /**
   * Who knows of the run: `browser` when this browser's run store has a record of it (the
   * server's list may have a newer state of it), `server` when only the server's list has it
   * (started on another device of the user, or its record here is gone).
   */
  source: 'browser' | 'server';
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
  /**
   * The user's runs from the server too (`createServerRunList`, through
   * `createAgentProxy({ user, store })`): the runs started on the user's other devices join the
   * list (`source: 'server'`), and a run both know takes the newer state (an ended one stays
   * ended). Read while the list is subscribed to, as the server list reads.
   * @default undefined (this browser's runs only)
   */
  server?: ServerRunList | undefined;
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
  let server = options.server;
  let stopStore: (() => void) | undefined;
  let stopServer: (() => void) | undefined;
  let key: string | undefined;
  let serverRuns: readonly ServerRunSummary[] | undefined;
  let snapshot: readonly KnownDurableRun[] = Object.freeze([]);

  const read = (): readonly KnownDurableRun[] => {
    const records = store.list(
      agentId === undefined ? { prune: false } : { agentId, prune: false },
    );
    const next = JSON.stringify(records);
    const remote = server?.getSnapshot().runs;
    if (next !== key || remote !== serverRuns) {
      key = next;
      serverRuns = remote;
      const local = records.map(knownRunOf);
      snapshot = Object.freeze(
        remote === undefined ? local : withServerRuns(local, remote, agentId),
      );
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
    stopServer = server?.subscribe(onChange);
  };
  const stopListening = () => {
    stopStore?.();
    stopStore = undefined;
    stopServer?.();
    stopServer = undefined;
  };
  const listeners = new ListenerSet({ onFirst: listen, onLast: stopListening });

  return {
    getSnapshot: read,
    subscribe: listeners.subscribe,
    setOptions(next) {
      const nextStore = next.store ?? defaultRunStore();
      if (nextStore === store && next.agentId === agentId && next.server === server) return;
      const listening = stopStore !== undefined;
      if (listening) stopListening();
      store = nextStore;
      agentId = next.agentId;
      server = next.server;
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
    source: 'browser',
  };
}

/**
 * This browser's runs and the server's, newest start first. A run both know keeps its record
 * here (its local id, phase, request) and takes the server's state when that one ended, or
 * changed later than the record last did (another device read or answered it): the proxy sees
 * every device's reads, this record only this browser's. A record with no preview (a run only
 * attached here) takes the server's title.
 */
function withServerRuns(
  local: readonly KnownDurableRun[],
  remote: readonly ServerRunSummary[],
  agentId: string | undefined,
): KnownDurableRun[] {
  const byRun = new Map<string, ServerRunSummary>();
  for (const run of remote) {
    if (agentId === undefined || run.agentId === agentId) byRun.set(keyOf(run), run);
  }
  const merged = local.map((known) => {
    if (known.runId === undefined) return known;
    const run = byRun.get(keyOf({ agentId: known.agentId, runId: known.runId }));
    if (run === undefined) return known;
    byRun.delete(keyOf(run));
    const titled =
      // A run attached here (opened from an inbox) has no preview: the server kept its question.
      known.request.preview === '' && run.title !== ''
        ? { ...known, request: { ...known.request, preview: run.title } }
        : known;
    return newerOnServer(known, run) ? withServerState(titled, run) : titled;
  });
  for (const run of byRun.values()) merged.push(knownServerRunOf(run));
  // A stable sort: runs started at one time keep the store's order.
  return merged.sort((a, b) => b.startedAt - a.startedAt);
}

const keyOf = (run: { agentId: string; runId: string }) => `${run.agentId}\n${run.runId}`;

function newerOnServer(known: KnownDurableRun, run: ServerRunSummary): boolean {
  if (known.serverState === run.state) return false;
  if (settledDurableRunStatuses.has(known.status)) return false;
  if (run.group === 'ended') return true;
  return run.updatedAt > (known.lastSnapshotAt ?? known.startedAt);
}

function withServerState(known: KnownDurableRun, run: ServerRunSummary): KnownDurableRun {
  const status = durableRunStatusOf(run.state);
  const settled = run.group === 'ended' || settledDurableRunStatuses.has(status);
  return {
    ...known,
    status,
    serverState: run.state,
    inProgress: known.phase !== 'settled' && !settled,
    lastSnapshotAt: run.updatedAt,
    settledAt: settled ? run.updatedAt : known.settledAt,
  };
}

function knownServerRunOf(run: ServerRunSummary): KnownDurableRun {
  const status = durableRunStatusOf(run.state);
  const settled = run.group === 'ended' || settledDurableRunStatuses.has(status);
  return {
    // Not a record of this browser's store: `remove` of it changes nothing.
    localId: `server:${run.agentId}:${run.runId}`,
    agentId: run.agentId,
    runId: run.runId,
    status,
    serverState: run.state,
    phase: settled ? 'settled' : 'created',
    inProgress: !settled,
    startedAt: run.createdAt,
    lastSnapshotAt: run.updatedAt,
    settledAt: settled ? run.updatedAt : undefined,
    // The proxy keeps the question's first 200 characters, not whether it was messages or input.
    request: { kind: 'messages', preview: run.title },
    source: 'server',
  };
}
