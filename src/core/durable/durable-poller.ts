import { AgentError } from '../wire/errors.js';
import type { DurableRunStore } from '../storage/durable-run-store.js';
import type { DurableRunRecord } from '../wire/durable-run-schemas.js';
import {
  durablePollDelay,
  type DurablePollPolicy,
  type DurablePollSituation,
} from './durable-poll-schedule.js';
import type { DurableRunAction } from './durable-run-reducer.js';
import { stringOf } from './durable-run-reducer.js';
import {
  settledDurableRunStatuses,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable-run-snapshot.js';
import {
  requestTabLead,
  tabLeadLockName,
  watchRecordWrites,
  type DurableRunLockManager,
} from './tab-leader.js';

/** What the page gives a durable run: injected in tests, the globals otherwise. */
export interface DurableRunEnvironment {
  /** @default Date.now */
  now?: () => number;
  /** @default globalThis.setTimeout */
  setTimeout?: (callback: () => void, ms: number) => unknown;
  /** @default globalThis.clearTimeout */
  clearTimeout?: (handle: unknown) => void;
  /** @default Math.random */
  random?: () => number;
  /** `visibilityState` and `visibilitychange`. @default globalThis.document */
  document?:
    | (Pick<EventTarget, 'addEventListener' | 'removeEventListener'> & {
        visibilityState?: string;
      })
    | undefined;
  /** `online`, `offline` and `pageshow`. @default globalThis.window */
  window?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined;
  /** `onLine` and `locks`. @default globalThis.navigator */
  navigator?: { onLine?: boolean; locks?: DurableRunLockManager | undefined } | undefined;
}

/** The page: what was given, the globals for the rest. */
export interface DurableRunPage extends DurableRunEnvironment {
  now: () => number;
  random: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

/** The environment with the globals for what it does not give. */
export function durableRunPage(given: DurableRunEnvironment = {}): DurableRunPage {
  const global = globalThis as {
    document?: DurableRunEnvironment['document'];
    window?: DurableRunEnvironment['window'];
    navigator?: DurableRunEnvironment['navigator'];
  };
  // Called as plain functions, never as methods of this object: a browser's `setTimeout` throws
  // "Illegal invocation" when called on anything but the window.
  const set = given.setTimeout ?? setTimeout;
  const clear = given.clearTimeout ?? clearTimeout;
  return {
    now: given.now ?? Date.now,
    setTimeout: (callback, ms) => set(callback, ms),
    clearTimeout: (handle) => clear(handle as ReturnType<typeof setTimeout>),
    random: given.random ?? Math.random,
    document: 'document' in given ? given.document : eventTargetOrUndefined(global.document),
    window: 'window' in given ? given.window : eventTargetOrUndefined(global.window),
    navigator: 'navigator' in given ? given.navigator : global.navigator,
  };
}

/** What the poller asks of the durable run it reads. */
export interface DurablePollerHost {
  /** The snapshot shown now: its status and failed reads decide the next delay. */
  getSnapshot(): DurableRunSnapshot;
  dispatch(action: DurableRunAction): void;
  /** One read of the run. */
  read(runId: string, signal: AbortSignal): Promise<DurableRunRecord>;
  /** A read answered: the run shows and keeps it (and stops the poller once it settles). */
  received(record: DurableRunRecord): void;
  /** A read failed: the run shows it (and stops the poller after a 404, 401 or 403). */
  failed(error: unknown): void;
}

/** What {@link DurablePoller} is given. */
export interface DurablePollerOptions {
  agentId: string;
  store: DurableRunStore;
  policy: Readonly<DurablePollPolicy>;
  environment: DurableRunEnvironment | undefined;
}

/**
 * Reads one durable run on the schedule of `durablePollDelay`: at once on `online`, `pageshow` and
 * the page becoming visible, slower while hidden, not while offline, and (with Web Locks) in one
 * tab only, the others reading when the store's record changes.
 */
export class DurablePoller {
  readonly #host: DurablePollerHost;
  readonly #options: DurablePollerOptions;
  /** The run read: set by `watch` and `readOnce`, never read back from a snapshot. */
  #runId: string | undefined;
  #watching = false;
  // Bumped by every stop: the answer of a read sent before it is dropped.
  #epoch = 0;
  #role: 'deciding' | 'leader' | 'follower' = 'deciding';
  #timer: unknown;
  #read: Promise<void> | undefined;
  #readAbort: AbortController | undefined;
  #lastChangeAt = 0;
  #turnAcceptedAt: number | undefined;
  #retryAfterMs: number | undefined;
  #stopWatching: (() => void)[] = [];

  constructor(host: DurablePollerHost, options: DurablePollerOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** Whether the run is watched (read on a schedule until it settles or `stop()`). */
  get watching(): boolean {
    return this.#watching;
  }

  /** The read in flight, if any. */
  get reading(): Promise<void> | undefined {
    return this.#read;
  }

  /** Starts watching `runId`: listens to the page, asks for the tab's lead, reads at once. */
  watch(runId: string): void {
    this.#runId = runId;
    this.#watching = true;
    this.#role = 'deciding';
    this.#lastChangeAt = this.#now();
    const page = this.#page();

    const wake = () => {
      if (this.#role !== 'follower') this.pollSoon();
    };
    const onVisibility = () => {
      if (page.document?.visibilityState !== 'hidden') wake();
      else this.#schedule();
    };
    const onOffline = () => this.#schedule();
    page.document?.addEventListener('visibilitychange', onVisibility);
    page.window?.addEventListener('online', wake);
    page.window?.addEventListener('pageshow', wake);
    page.window?.addEventListener('offline', onOffline);
    this.#stopWatching.push(() => {
      page.document?.removeEventListener('visibilitychange', onVisibility);
      page.window?.removeEventListener('online', wake);
      page.window?.removeEventListener('pageshow', wake);
      page.window?.removeEventListener('offline', onOffline);
    });

    // Another tab (or another object of this page) wrote the record: a follower reads once; the
    // leader reads now too (a follower answered or cancelled it), not at the paused pace. Its own
    // writes match its snapshot.
    const { store, agentId } = this.#options;
    this.#stopWatching.push(
      watchRecordWrites(
        store,
        this.#host.getSnapshot().localId,
        () => {
          const shown = this.#host.getSnapshot();
          return { lastState: shown.serverState, lastUpdatedAt: stringOf(shown.updatedAt) };
        },
        (record, news) => {
          if (this.#role === 'follower') {
            if (news || record.phase === 'settled') void this.#readOnce();
          } else if (this.#role === 'leader' && news) {
            this.pollSoon();
          }
        },
      ),
    );

    const locks = page.navigator?.locks;
    if (locks === undefined) {
      this.#role = 'leader';
    } else {
      this.#stopWatching.push(
        requestTabLead(locks, tabLeadLockName(store, agentId, runId), (role) => {
          this.#role = role;
          this.#schedule();
        }),
      );
    }
    this.pollSoon();
  }

  /** Stops watching: timers, the read in flight, page listeners, the lock. */
  stop(): void {
    this.#epoch++;
    this.#watching = false;
    this.#runId = undefined;
    this.#clearTimer();
    this.#readAbort?.abort();
    this.#readAbort = undefined;
    this.#read = undefined;
    for (const stop of this.#stopWatching.splice(0)) stop();
  }

  /** Forgets what the last run taught the schedule (its turn's deadline, a `Retry-After`). */
  reset(): void {
    this.#turnAcceptedAt = undefined;
    this.#retryAfterMs = undefined;
  }

  /** The run changed (or was acted on): the quick pace begins again. */
  changed(): void {
    this.#lastChangeAt = this.#now();
  }

  /** The service accepted a turn at `at`: it expires it `deadlineMs` later, on a read. */
  turnAccepted(at: number | undefined): void {
    this.#turnAcceptedAt = at;
  }

  /** Reads at once while watching (offline: when the page is online again). */
  pollSoon(): void {
    if (!this.#watching) return;
    if (this.#isOffline()) {
      this.#schedule();
      return;
    }
    this.#clearTimer();
    void this.#readOnce();
  }

  /** One read of `runId` now, watched or not (joined when one is in flight). */
  readOnce(runId: string): Promise<void> {
    this.#runId = runId;
    return this.#readOnce();
  }

  #schedule() {
    this.#clearTimer();
    if (!this.#watching) return;
    if (this.#role === 'follower') {
      this.#host.dispatch({ type: 'connection', connection: 'following', nextPollAt: undefined });
      return;
    }
    const snapshot = this.#host.getSnapshot();
    const { policy } = this.#options;
    const page = this.#page();
    const now = this.#now();
    const situation: DurablePollSituation = {
      phase: phaseOf(snapshot.status),
      sinceChangeMs: now - this.#lastChangeAt,
      hidden: page.document?.visibilityState === 'hidden',
      offline: this.#isOffline(),
      consecutiveFailures: snapshot.consecutiveFailures,
      retryAfterMs: this.#retryAfterMs,
      untilDeadlineMs:
        this.#turnAcceptedAt === undefined
          ? undefined
          : this.#turnAcceptedAt + policy.deadlineMs - now,
      random: page.random,
    };
    const delay = durablePollDelay(situation, policy);
    if (delay === undefined) {
      this.#host.dispatch({
        type: 'connection',
        connection: situation.phase === 'settled' ? 'stopped' : 'offline',
        nextPollAt: undefined,
      });
      return;
    }
    this.#timer = page.setTimeout(() => {
      this.#timer = undefined;
      void this.#readOnce();
    }, delay);
    this.#host.dispatch({
      type: 'connection',
      nextPollAt: now + delay,
      connection:
        snapshot.consecutiveFailures >= 3
          ? 'backing-off'
          : situation.hidden === true
            ? 'paused-hidden'
            : 'waiting',
    });
  }

  #clearTimer() {
    if (this.#timer === undefined) return;
    this.#page().clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** One read of the run (joined when one is in flight), then the next one scheduled. */
  #readOnce(): Promise<void> {
    const runId = this.#runId;
    if (runId === undefined) return Promise.resolve();
    if (this.#read !== undefined) return this.#read;
    const epoch = this.#epoch;
    const abort = new AbortController();
    this.#readAbort = abort;
    const page = this.#page();
    const timeout = page.setTimeout(
      () => abort.abort(new DOMException('The read took too long.', 'TimeoutError')),
      this.#options.policy.requestTimeoutMs,
    );
    this.#host.dispatch({ type: 'read-sent', at: this.#now() });
    const reads = { current: undefined as Promise<void> | undefined };
    const read = (async () => {
      try {
        const record = await this.#host.read(runId, abort.signal);
        if (epoch !== this.#epoch) return;
        this.#retryAfterMs = undefined;
        this.#host.received(record);
      } catch (error) {
        if (epoch !== this.#epoch) return;
        this.#retryAfterMs = retryAfterOf(error);
        this.#host.failed(error);
      } finally {
        page.clearTimeout(timeout);
        if (this.#read === reads.current) {
          this.#read = undefined;
          this.#readAbort = undefined;
        }
      }
      if (epoch !== this.#epoch) return;
      if (this.#watching) this.#schedule();
      else if (this.#host.getSnapshot().connection === 'polling') {
        this.#host.dispatch({ type: 'connection', connection: 'stopped', nextPollAt: undefined });
      }
    })();
    reads.current = read;
    this.#read = read;
    return read;
  }

  #page(): DurableRunPage {
    return durableRunPage(this.#options.environment);
  }

  #now(): number {
    return (this.#options.environment?.now ?? Date.now)();
  }

  #isOffline(): boolean {
    return this.#page().navigator?.onLine === false;
  }
}

/** How polling sees a status. */
function phaseOf(status: DurableRunStatus): DurablePollSituation['phase'] {
  if (settledDurableRunStatuses.has(status)) return 'settled';
  if (status === 'cancelling') return 'cancelling';
  if (status === 'requires-input' || status === 'responding') return 'requires-input';
  if (status === 'unknown') return 'unknown';
  if (status === 'idle' || status === 'starting' || status === 'start-unknown') return 'settled';
  return 'active';
}

/** The `Retry-After` of a failed read, in ms. */
function retryAfterOf(error: unknown): number | undefined {
  return error instanceof AgentError &&
    'retryAfterMs' in error &&
    typeof error.retryAfterMs === 'number'
    ? error.retryAfterMs
    : undefined;
}

/** A global that can take event listeners (a stand-in `document` of a script may not). */
function eventTargetOrUndefined<T>(value: T): T | undefined {
  return typeof value === 'object' &&
    value !== null &&
    typeof (value as { addEventListener?: unknown }).addEventListener === 'function' &&
    typeof (value as { removeEventListener?: unknown }).removeEventListener === 'function'
    ? value
    : undefined;
}
