import { AgentStartUnknownError } from '../wire/durable-run-errors.js';
import { AgentError, AgentHttpError, AgentInputError } from '../wire/errors.js';
import {
  defaultDurablePollPolicy,
  durablePollDelay,
  type DurablePollPolicy,
  type DurablePollSituation,
} from './durable-poll-schedule.js';
import { defaultRunStore, type RunRecord, type RunStore } from '../storage/run-store.js';
import type {
  DurableInteraction,
  DurableRunDecision,
  DurableRunRecord,
} from '../wire/durable-run-schemas.js';
import { batchKeyOf } from '../wire/durable-run-states.js';
import type { DurableRunMethods, DurableRunStartRequest } from '../wire/durable-run-wire.js';
import { ListenerSet } from '../base/subscribable.js';
import {
  initialDurableRunSnapshot as initialSnapshot,
  noInteractions,
  settledDurableRunStatuses,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable-run-snapshot.js';

export {
  settledDurableRunStatuses,
  type DurableRunConnection,
  type DurableRunFailure,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable-run-snapshot.js';

/** The client calls a durable run makes: an `AgentClient` with `api: 'platform'`. */
export type DurableRunClient = Pick<
  DurableRunMethods,
  'startDurableRun' | 'getDurableRun' | 'cancelDurableRun' | 'respondToDurableRun'
>;

// ---- Options ----

/** The Web Locks API as a durable run uses it (`navigator.locks`). */
export interface DurableRunLockManager {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => unknown,
  ): Promise<unknown>;
}

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

/** Options of {@link createDurableRun}. */
export interface DurableRunOptions {
  /** The agent whose runs this object starts and watches. */
  agentId: string;
  /**
   * Where the run's record is kept, so that a reload finds it.
   * @default one store per page: localStorage in a browser, memory elsewhere (createRunStore())
   */
  store?: RunStore;
  /**
   * Changes to the poll schedule (see `defaultDurablePollPolicy`).
   * @default {}
   */
  poll?: Partial<DurablePollPolicy>;
  /**
   * Called once per run id when it settles, across reloads and tabs (the store's settled record is
   * the once-only key): not for a run found settled on attach.
   * @default undefined
   */
  onSettled?: (snapshot: DurableRunSnapshot) => void;
  /**
   * Called once per approval batch when the run pauses for a person (not again after a reload).
   * @default undefined
   */
  onRequiresInput?: (snapshot: DurableRunSnapshot) => void;
  /**
   * Timers, clock, document and navigator (tests inject them).
   * @default the globals
   */
  environment?: DurableRunEnvironment;
}

/** What {@link DurableRun.start} is given besides the request. */
export interface DurableRunStartOptions {
  /**
   * Awaited after the run's record is written and `starting` published, before the POST goes out
   * (e.g. to save a thread that names the record, so a reload during the POST finds both). A
   * rejection does not stop the start; a `detach()`, `attach()` or `forget()` meanwhile does:
   * nothing is sent, the record is removed and a detached run is `idle` again.
   * @default undefined
   */
  beforeSend?: (() => Promise<void> | void) | undefined;
}

export { defaultRunStore };

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

/** How many times a respond or a cancel is sent again after a network error or a 5xx. */
const writeRetries = 3;

/**
 * A durable run of one agent: started once (one POST, never sent again), then read by polling
 * until it settles, paused for approvals, cancelled cooperatively, and found again after a reload
 * through its {@link RunStore} record. `subscribe`/`getSnapshot` fit `useSyncExternalStore`.
 */
export class DurableRun {
  readonly #client: DurableRunClient;
  readonly #agentId: string;
  readonly #store: RunStore;
  readonly #policy: Readonly<DurablePollPolicy>;
  readonly #options: DurableRunOptions;
  readonly #listeners = new ListenerSet();
  #snapshot: DurableRunSnapshot;

  // Bumped by every attach, detach and forget: a late answer of an older generation is dropped.
  #generation = 0;
  #watching = false;
  #role: 'deciding' | 'leader' | 'follower' = 'deciding';
  #timer: unknown;
  #read: Promise<void> | undefined;
  #readAbort: AbortController | undefined;
  #lastChangeAt = 0;
  #turnAcceptedAt: number | undefined;
  #retryAfterMs: number | undefined;
  #cancelRequested = false;
  #responding = false;
  #continuationPending = false;
  #stopWatching: (() => void)[] = [];
  /** The wait before a respond or cancel is sent again; a new generation ends it. */
  #writeWait: { timer: unknown; wake: () => void } | undefined;

  constructor(client: DurableRunClient, options: DurableRunOptions) {
    if (typeof options.agentId !== 'string' || options.agentId.trim() === '') {
      throw new AgentInputError('createDurableRun: pass a non-empty `agentId`.');
    }
    this.#client = client;
    this.#agentId = options.agentId;
    this.#options = options;
    this.#store = options.store ?? defaultRunStore();
    this.#policy = { ...defaultDurablePollPolicy, ...options.poll };
    this.#snapshot = initialSnapshot(options.agentId);
  }

  getSnapshot = (): DurableRunSnapshot => this.#snapshot;

  subscribe = this.#listeners.subscribe;

  /** The store this run's records go to. */
  get store(): RunStore {
    return this.#store;
  }

  /**
   * Starts a run: writes the `'creating'` record, sends one POST (never sent again: a network
   * error after sending, a 500 or another 5xx without the service's problem detail give
   * `start-unknown`; a refusal (4xx, a 503 problem) gives `failed`), records the run id of the 201
   * and polls. Throws an `AgentInputError` while another run is watched and not settled (detach
   * or forget it first).
   */
  async start(
    request: DurableRunStartRequest,
    options: DurableRunStartOptions = {},
  ): Promise<DurableRunSnapshot> {
    const current = this.#snapshot.status;
    if (current !== 'idle' && !settledDurableRunStatuses.has(current)) {
      throw new AgentInputError(
        `This durable run is ${current}: detach() or forget() it before starting another.`,
      );
    }
    this.#stop();
    const generation = this.#nextGeneration();
    this.#resetRun();
    const record = this.#store.create({
      agentId: this.#agentId,
      messages: request.messages,
      input: request.input,
    });
    this.#replace({
      ...initialSnapshot(this.#agentId),
      status: 'starting',
      localId: record.localId,
      request: record.request,
      storageError: this.#store.error,
    });
    if (options.beforeSend !== undefined) {
      try {
        await options.beforeSend();
      } catch {
        // The caller's own step (a thread's save) reports its failure itself.
      }
      if (generation !== this.#generation) {
        // Detached or replaced before anything was sent: nothing is, and no record says
        // "may have started".
        this.#store.remove(record.localId);
        if (this.#showsDetachedStart(record.localId)) this.#replace(initialSnapshot(this.#agentId));
        return this.#snapshot;
      }
    }
    let created: DurableRunRecord;
    try {
      created = await this.#client.startDurableRun(this.#agentId, {
        ...(request.messages === undefined ? {} : { messages: request.messages }),
        ...(request.input === undefined ? {} : { input: request.input }),
        ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
      });
    } catch (error) {
      this.#startFailed(error, record.localId, generation);
      return this.#snapshot;
    }
    this.#created(created, record.localId, generation);
    return this.#snapshot;
  }

  /** The start POST failed: `start-unknown` (the record kept) or `failed` (the record removed). */
  #startFailed(thrown: unknown, localId: string, generation: number) {
    const error = asStartOutcome(thrown);
    const unknown = isUnknownStartOutcome(error);
    // Removed even after a detach: a start that surely failed must not read "may have started".
    if (!unknown) this.#store.remove(localId);
    if (generation !== this.#generation && !this.#showsDetachedStart(localId)) return;
    // Unknown: the record stays 'creating', a reload shows the same "may have started".
    this.#set({ status: unknown ? 'start-unknown' : 'failed', error: asAgentError(error) });
  }

  /** The 201: the record gets the run id, and the run is watched unless detached meanwhile. */
  #created(created: DurableRunRecord, localId: string, generation: number) {
    // Written even after a detach during the POST: a reload then finds the run by its id.
    this.#store.update(localId, {
      phase: 'created',
      runId: created.runId,
      lastState: stateOf(created),
    });
    if (generation !== this.#generation) {
      // Detached: not watched, but the run id is shown, so refresh() and attach() can find it.
      if (this.#showsDetachedStart(localId)) {
        const serverState = stateOf(created);
        this.#set({
          runId: created.runId,
          serverState,
          status: durableRunStatusOf(serverState),
          requestId: created.requestId,
          storageError: this.#store.error,
        });
      }
      return;
    }
    this.#turnAcceptedAt = this.#now();
    this.#set({ runId: created.runId, storageError: this.#store.error });
    this.#apply(created);
    if (!settledDurableRunStatuses.has(this.#snapshot.status)) this.#watch(created.runId);
  }

  /**
   * Watches an existing run: the first read is immediate. A run already settled in the store is
   * read once and shown, without `onSettled`. A 404 gives `lost` and removes the record.
   */
  async attach(runId: string): Promise<DurableRunSnapshot> {
    if (typeof runId !== 'string' || runId.trim() === '') {
      throw new AgentInputError('attach: pass a non-empty run id.');
    }
    this.#stop();
    this.#nextGeneration();
    this.#resetRun();
    const record = this.#store.findByRunId(this.#agentId, runId) ?? this.#adopt(runId);
    // A cancellation the stored run saw was asked, even when the first read finds the run ended.
    if (record.lastState === 'CANCELLING') this.#cancelRequested = true;
    this.#replace({
      ...initialSnapshot(this.#agentId),
      status: record.lastState === undefined ? 'queued' : durableRunStatusOf(record.lastState),
      localId: record.localId,
      runId,
      serverState: record.lastState,
      request: record.request,
      resumed: true,
      storageError: this.#store.error,
    });
    if (record.phase === 'settled') {
      await this.#readOnce();
      return this.#snapshot;
    }
    // The first turn was accepted about when its record was written; after an approval the
    // deadline of the new turn is unknown here (the service still applies it on any read).
    if (record.decidedBatchKey === undefined) this.#turnAcceptedAt = record.startedAt;
    this.#watch(runId);
    await this.#read;
    return this.#snapshot;
  }

  /**
   * Finds this agent's newest record in the store and shows it again: a run in flight is
   * attached, a settled one read once (no `onSettled`), one whose start POST was interrupted is
   * `start-unknown` (never sent again). Resolves with the idle snapshot when there is none.
   */
  async resume(): Promise<DurableRunSnapshot> {
    const [record] = this.#store.list({ agentId: this.#agentId });
    if (record === undefined) return this.#snapshot;
    if (record.runId !== undefined) return this.attach(record.runId);
    this.#stop();
    this.#nextGeneration();
    this.#resetRun();
    this.#replace({
      ...initialSnapshot(this.#agentId),
      status: 'start-unknown',
      localId: record.localId,
      request: record.request,
      resumed: true,
    });
    return this.#snapshot;
  }

  /**
   * Answers the approvals shown: one decision per interaction of the batch, each once (else an
   * `AgentInputError`, nothing sent). A network error or 503 sends the identical batch again (up to
   * 3 times); a 409 (answered or changed elsewhere) reads the run again and is not re-sent.
   */
  async respond(decisions: readonly DurableRunDecision[]): Promise<DurableRunSnapshot> {
    const shown = this.#snapshot;
    const runId = shown.runId;
    if (shown.status !== 'requires-input' || runId === undefined) {
      throw new AgentInputError(`Nothing to answer: this durable run is ${shown.status}.`);
    }
    assertWholeBatch(decisions, shown.pendingInteractions);
    const generation = this.#generation;
    this.#store.update(shown.localId ?? '', { decidedBatchKey: shown.batchKey });
    this.#responding = true;
    this.#continuationPending = true;
    this.#set({ status: 'responding', error: undefined });
    const batch = decisions.map(({ interactionId, decision }) => ({ interactionId, decision }));
    try {
      const answered = await this.#write(generation, () =>
        this.#client.respondToDurableRun(this.#agentId, runId, batch),
      );
      if (generation !== this.#generation) return this.#snapshot;
      this.#responding = false;
      this.#turnAcceptedAt = this.#now();
      this.#apply(answered);
    } catch (error) {
      if (generation !== this.#generation) return this.#snapshot;
      this.#responding = false;
      this.#set({ status: 'requires-input', error: asAgentError(error) });
    }
    this.#pollSoon();
    return this.#snapshot;
  }

  /**
   * Asks the service to cancel the run (cooperative: it may still finish, and then says so in
   * `note`). Polls at the cancelling pace until the run settles. A 409 (the run cannot take a
   * cancellation now) is shown in `error` and polling goes on.
   */
  async cancel(): Promise<DurableRunSnapshot> {
    const runId = this.#snapshot.runId;
    if (runId === undefined || settledDurableRunStatuses.has(this.#snapshot.status)) {
      return this.#snapshot;
    }
    const generation = this.#generation;
    this.#cancelRequested = true;
    this.#lastChangeAt = this.#now();
    this.#set({ status: 'cancelling', cancelRequestedAt: this.#now(), error: undefined });
    try {
      const answered = await this.#write(generation, () =>
        this.#client.cancelDurableRun(this.#agentId, runId),
      );
      if (generation !== this.#generation) return this.#snapshot;
      this.#apply(answered);
    } catch (error) {
      if (generation !== this.#generation) return this.#snapshot;
      this.#cancelRequested = false;
      const serverState = this.#snapshot.serverState;
      this.#set({
        status: serverState === undefined ? 'running' : durableRunStatusOf(serverState),
        cancelRequestedAt: undefined,
        error: asAgentError(error),
      });
    }
    this.#pollSoon();
    return this.#snapshot;
  }

  /** Reads the run now (and starts watching again after a 401 or 403 stopped it). */
  async refresh(): Promise<DurableRunSnapshot> {
    const runId = this.#snapshot.runId;
    if (runId === undefined) return this.#snapshot;
    if (!this.#watching && !settledDurableRunStatuses.has(this.#snapshot.status)) {
      this.#watch(runId);
      await this.#read;
      return this.#snapshot;
    }
    await this.#readOnce();
    return this.#snapshot;
  }

  /** Stops watching (timers, reads, listeners, the lock): a disconnect, never a cancel. */
  detach(): void {
    this.#nextGeneration();
    this.#stop();
    this.#responding = false;
    if (this.#snapshot.status === 'starting') return;
    this.#set({ connection: 'stopped', nextPollAt: undefined });
  }

  /** Detaches and removes the record (after a settled, lost or start-unknown run); back to idle. */
  forget(): void {
    const localId = this.#snapshot.localId;
    this.detach();
    if (localId !== undefined) this.#store.remove(localId);
    this.#resetRun();
    this.#replace(initialSnapshot(this.#agentId));
  }

  /** Whether the snapshot is still the `'starting'` one of this record (a detach kept it). */
  #showsDetachedStart(localId: string): boolean {
    return this.#snapshot.status === 'starting' && this.#snapshot.localId === localId;
  }

  #nextGeneration(): number {
    this.#endWriteWait();
    return ++this.#generation;
  }

  #endWriteWait() {
    const wait = this.#writeWait;
    if (wait === undefined) return;
    this.#writeWait = undefined;
    (this.#environment().clearTimeout ?? clearTimeout)(wait.timer as ReturnType<typeof setTimeout>);
    wait.wake();
  }

  // ---- watching ----

  #watch(runId: string) {
    this.#watching = true;
    this.#role = 'deciding';
    this.#lastChangeAt = this.#now();
    const generation = this.#generation;
    const environment = this.#environment();

    const wake = () => {
      if (this.#role !== 'follower') this.#pollSoon();
    };
    const onVisibility = () => {
      if (environment.document?.visibilityState !== 'hidden') wake();
      else this.#schedule();
    };
    const onOffline = () => this.#schedule();
    environment.document?.addEventListener('visibilitychange', onVisibility);
    environment.window?.addEventListener('online', wake);
    environment.window?.addEventListener('pageshow', wake);
    environment.window?.addEventListener('offline', onOffline);
    this.#stopWatching.push(() => {
      environment.document?.removeEventListener('visibilitychange', onVisibility);
      environment.window?.removeEventListener('online', wake);
      environment.window?.removeEventListener('pageshow', wake);
      environment.window?.removeEventListener('offline', onOffline);
    });

    // Another tab (or another object of this page) wrote the record: a follower reads once; the
    // leader reads now too (a follower answered or cancelled it), not at the paused pace. Its own
    // writes match its snapshot.
    const localId = this.#snapshot.localId;
    this.#stopWatching.push(
      this.#store.subscribe((change) => {
        if (change.localId !== localId || change.record === undefined) return;
        const same =
          change.record.lastState === this.#snapshot.serverState &&
          change.record.lastUpdatedAt === stringOf(this.#snapshot.updatedAt);
        if (this.#role === 'follower') {
          if (!same || change.record.phase === 'settled') void this.#readOnce();
        } else if (this.#role === 'leader' && !same) {
          this.#pollSoon();
        }
      }),
    );

    this.#lead(runId, generation, environment.navigator?.locks);
    this.#pollSoon();
  }

  /** One tab reads a run: the one holding its Web Lock; the others follow through the store. */
  #lead(runId: string, generation: number, locks: DurableRunLockManager | undefined) {
    if (locks === undefined) {
      this.#role = 'leader';
      return;
    }
    const name = `agent-console-kit:durable-run:${this.#store.scope}:${this.#agentId}:${runId}`;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const waiting = new AbortController();
    this.#stopWatching.push(() => {
      waiting.abort();
      release();
    });
    const becomeLeader = () => {
      if (generation !== this.#generation) return undefined;
      this.#role = 'leader';
      this.#schedule();
      return held;
    };
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (generation !== this.#generation) return undefined;
        if (lock !== null) return becomeLeader();
        this.#role = 'follower';
        this.#schedule();
        // Queued: when the leading tab closes, this one takes over.
        locks
          .request(name, { signal: waiting.signal }, () => becomeLeader())
          .catch(() => undefined);
        return undefined;
      })
      .catch(() => {
        if (generation === this.#generation) {
          this.#role = 'leader';
          this.#schedule();
        }
      });
  }

  #stop() {
    this.#watching = false;
    this.#clearTimer();
    this.#readAbort?.abort();
    this.#readAbort = undefined;
    this.#read = undefined;
    for (const stop of this.#stopWatching.splice(0)) stop();
  }

  #resetRun() {
    this.#cancelRequested = false;
    this.#responding = false;
    this.#continuationPending = false;
    this.#turnAcceptedAt = undefined;
    this.#retryAfterMs = undefined;
  }

  #pollSoon() {
    if (!this.#watching) return;
    if (this.#isOffline()) {
      this.#schedule();
      return;
    }
    this.#clearTimer();
    void this.#readOnce();
  }

  #schedule() {
    this.#clearTimer();
    if (!this.#watching) return;
    if (this.#role === 'follower') {
      this.#set({ connection: 'following', nextPollAt: undefined });
      return;
    }
    const snapshot = this.#snapshot;
    const now = this.#now();
    const situation: DurablePollSituation = {
      phase: phaseOf(snapshot.status),
      sinceChangeMs: now - this.#lastChangeAt,
      hidden: this.#environment().document?.visibilityState === 'hidden',
      offline: this.#isOffline(),
      consecutiveFailures: snapshot.consecutiveFailures,
      retryAfterMs: this.#retryAfterMs,
      untilDeadlineMs:
        this.#turnAcceptedAt === undefined
          ? undefined
          : this.#turnAcceptedAt + this.#policy.deadlineMs - now,
      random: this.#environment().random,
    };
    const delay = durablePollDelay(situation, this.#policy);
    if (delay === undefined) {
      this.#set({
        connection: situation.phase === 'settled' ? 'stopped' : 'offline',
        nextPollAt: undefined,
      });
      return;
    }
    const environment = this.#environment();
    this.#timer = (environment.setTimeout ?? setTimeout)(() => {
      this.#timer = undefined;
      void this.#readOnce();
    }, delay);
    this.#set({
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
    const clear = this.#environment().clearTimeout ?? clearTimeout;
    clear(this.#timer as ReturnType<typeof setTimeout>);
    this.#timer = undefined;
  }

  /** One read of the run (joined when one is in flight), then the next one scheduled. */
  #readOnce(): Promise<void> {
    const runId = this.#snapshot.runId;
    if (runId === undefined) return Promise.resolve();
    if (this.#read !== undefined) return this.#read;
    const generation = this.#generation;
    const abort = new AbortController();
    this.#readAbort = abort;
    const environment = this.#environment();
    const timeout = (environment.setTimeout ?? setTimeout)(
      () => abort.abort(new DOMException('The read took too long.', 'TimeoutError')),
      this.#policy.requestTimeoutMs,
    );
    this.#set({
      polls: this.#snapshot.polls + 1,
      lastPolledAt: this.#now(),
      nextPollAt: undefined,
      connection: 'polling',
    });
    const reads = { current: undefined as Promise<void> | undefined };
    const read = (async () => {
      try {
        const record = await this.#client.getDurableRun(this.#agentId, runId, {
          signal: abort.signal,
        });
        if (generation !== this.#generation) return;
        this.#retryAfterMs = undefined;
        const authError = [401, 403].includes(statusOfError(this.#snapshot.error) ?? 0);
        this.#set({
          consecutiveFailures: 0,
          pollError: undefined,
          ...(authError ? { error: undefined } : {}),
        });
        this.#apply(record);
      } catch (error) {
        if (generation !== this.#generation) return;
        this.#readFailed(error);
      } finally {
        (environment.clearTimeout ?? clearTimeout)(timeout as ReturnType<typeof setTimeout>);
        if (this.#read === reads.current) {
          this.#read = undefined;
          this.#readAbort = undefined;
        }
      }
      if (generation !== this.#generation) return;
      if (this.#watching) this.#schedule();
      else if (this.#snapshot.connection === 'polling') this.#set({ connection: 'stopped' });
    })();
    reads.current = read;
    this.#read = read;
    return read;
  }

  #readFailed(error: unknown) {
    const status = statusOfError(error);
    if (status === 404) {
      const localId = this.#snapshot.localId;
      this.#stop();
      if (localId !== undefined) this.#store.remove(localId);
      this.#set({
        status: 'lost',
        error: asAgentError(error),
        pendingInteractions: noInteractions,
        batchKey: undefined,
        connection: 'stopped',
      });
      return;
    }
    if (status === 401 || status === 403) {
      this.#stop();
      this.#set({ error: asAgentError(error), connection: 'stopped' });
      return;
    }
    this.#retryAfterMs =
      error instanceof AgentError &&
      'retryAfterMs' in error &&
      typeof error.retryAfterMs === 'number'
        ? error.retryAfterMs
        : undefined;
    this.#set({
      consecutiveFailures: this.#snapshot.consecutiveFailures + 1,
      pollError: asAgentError(error),
    });
  }

  /**
   * A respond or a cancel, sent again (identical) after a network error or a 5xx, while the
   * generation it began in lasts (a detach, forget or new run ends it with the last error).
   */
  async #write(
    generation: number,
    send: () => Promise<DurableRunRecord>,
  ): Promise<DurableRunRecord> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        const status = statusOfError(error);
        const again =
          attempt < writeRetries &&
          (status === undefined ? isNetworkError(error) : status >= 500 || status === 408);
        if (!again || generation !== this.#generation) throw error;
        await new Promise<void>((resolve) => {
          const environment = this.#environment();
          const wait: { timer: unknown; wake: () => void } = { timer: undefined, wake: resolve };
          wait.timer = (environment.setTimeout ?? setTimeout)(
            () => {
              if (this.#writeWait === wait) this.#writeWait = undefined;
              resolve();
            },
            this.#policy.failureBaseMs * 2 ** attempt,
          );
          this.#writeWait = wait;
        });
        if (generation !== this.#generation) throw error;
      }
    }
  }

  // ---- applying a record ----

  #apply(record: DurableRunRecord) {
    const previous = this.#snapshot;
    const serverState = stateOf(record);
    let status = durableRunStatusOf(serverState);
    const updatedAt = stringOf(record.updatedAt);
    const changed =
      serverState !== previous.serverState || updatedAt !== stringOf(previous.updatedAt);
    if (changed) this.#lastChangeAt = this.#now();

    let note = previous.note;
    // A cancellation the service shows (asked before a reload, or in another tab) was asked.
    if (serverState === 'CANCELLING') this.#cancelRequested = true;
    if (this.#cancelRequested) {
      if (status === 'queued' || status === 'running') status = 'cancelling';
      if (status === 'succeeded') note = 'completed-before-cancel';
    }
    if (this.#responding && status === 'requires-input') status = 'responding';

    const paused = status === 'requires-input' || status === 'responding';
    const interactions = paused ? record.pendingInteractions : noInteractions;
    const batchKey = paused ? batchKeyOf(interactions) : undefined;
    const pendingInteractions =
      batchKey !== undefined && batchKey === previous.batchKey
        ? previous.pendingInteractions
        : interactions;
    if (status === 'requires-input') this.#continuationPending = true;

    const output = this.#mergeOutput(previous.output, record.output);
    const error: DurableRunSnapshot['error'] =
      record.error !== undefined && record.error.message !== undefined
        ? { kind: 'run', code: record.error.code, message: record.error.message }
        : status === 'failed' || status === 'expired'
          ? { kind: 'run', code: record.error?.code, message: 'The run failed.' }
          : previous.error;

    this.#set({
      status,
      runId: record.runId,
      serverState,
      requestId: record.requestId ?? previous.requestId,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      expiresAt: record.expiresAt,
      pendingInteractions,
      batchKey,
      output,
      error: status === 'failed' || status === 'expired' ? error : previous.error,
      note,
    });

    const localId = this.#snapshot.localId;
    if (localId === undefined) return;
    const stored = this.#store.get(localId);
    if (
      stored !== undefined &&
      stored.phase !== 'settled' &&
      (stored.lastState !== serverState || stored.lastUpdatedAt !== updatedAt)
    ) {
      this.#store.update(localId, {
        lastState: serverState,
        lastUpdatedAt: updatedAt,
        lastSnapshotAt: this.#now(),
      });
    }
    if (this.#store.error !== this.#snapshot.storageError) {
      this.#set({ storageError: this.#store.error });
    }

    if (settledDurableRunStatuses.has(status)) {
      this.#stop();
      this.#set({ connection: 'stopped', nextPollAt: undefined });
      if (this.#store.settle(localId, serverState)) this.#options.onSettled?.(this.#snapshot);
      return;
    }
    if (status === 'requires-input' && batchKey !== undefined) {
      const current = this.#store.get(localId);
      if (current === undefined || current.announcedBatchKey !== batchKey) {
        this.#store.update(localId, { announcedBatchKey: batchKey });
        this.#options.onRequiresInput?.(this.#snapshot);
      }
    }
  }

  /**
   * The output is a snapshot, replaced on every read. After an approval the service may restart it
   * (only the new continuation's text): then the earlier text is kept as a segment of its own. An
   * empty output never erases text already shown.
   */
  #mergeOutput(
    previous: DurableRunSnapshot['output'],
    output: DurableRunRecord['output'],
  ): DurableRunSnapshot['output'] {
    const text = output?.text ?? '';
    const messages = output?.messages ?? previous.messages;
    const segments = [...previous.segments];
    const last = segments.at(-1);
    if (text === '') {
      if (messages === previous.messages) return previous;
      return { ...previous, messages };
    }
    if (last === undefined) {
      segments.push(text);
    } else if (
      this.#continuationPending &&
      !text.startsWith(last) &&
      !isPrefixOfJoined(text, segments)
    ) {
      segments.push(text);
    } else if (isPrefixOfJoined(text, segments) && segments.length > 1) {
      // The service sent the whole run's text again (it accumulates): one segment holds it.
      segments.splice(0, segments.length, text);
    } else {
      segments[segments.length - 1] = text;
    }
    if (!this.#responding && this.#snapshot.status !== 'requires-input') {
      this.#continuationPending = false;
    }
    const joined = segments.join('\n\n');
    if (joined === previous.text && messages === previous.messages) return previous;
    return { text: joined, segments, messages };
  }

  // ---- snapshot plumbing ----

  #set(patch: Partial<DurableRunSnapshot>) {
    let differs = false;
    for (const key of Object.keys(patch) as (keyof DurableRunSnapshot)[]) {
      if (!Object.is(patch[key], this.#snapshot[key])) {
        differs = true;
        break;
      }
    }
    if (!differs) return;
    this.#replace({ ...this.#snapshot, ...patch });
  }

  #replace(snapshot: DurableRunSnapshot) {
    this.#snapshot = snapshot;
    this.#listeners.notify();
  }

  /** A record for a run id the store does not know (attached from a link or another device). */
  #adopt(runId: string): RunRecord {
    const created = this.#store.create({ agentId: this.#agentId });
    return (
      this.#store.update(created.localId, { phase: 'created', runId }) ?? {
        ...created,
        phase: 'created',
        runId,
      }
    );
  }

  #environment(): DurableRunEnvironment {
    const given = this.#options.environment ?? {};
    const global = globalThis as {
      document?: DurableRunEnvironment['document'];
      window?: DurableRunEnvironment['window'];
      navigator?: DurableRunEnvironment['navigator'];
    };
    return {
      now: given.now ?? Date.now,
      setTimeout: given.setTimeout,
      clearTimeout: given.clearTimeout,
      random: given.random ?? Math.random,
      document: 'document' in given ? given.document : eventTargetOrUndefined(global.document),
      window: 'window' in given ? given.window : eventTargetOrUndefined(global.window),
      navigator: 'navigator' in given ? given.navigator : global.navigator,
    };
  }

  #now(): number {
    return (this.#options.environment?.now ?? Date.now)();
  }

  #isOffline(): boolean {
    return this.#environment().navigator?.onLine === false;
  }
}

/**
 * Creates a {@link DurableRun} of one agent.
 *
 * @example
 * const run = createDurableRun(client, {
 *   agentId: 'helpdesk',
 *   onSettled: (snapshot) => console.log(snapshot.status, snapshot.output.text),
 * });
 * await run.resume(); // after a reload: the run in flight, its approval, or its answer
 * if (run.getSnapshot().status === 'idle') {
 *   await run.start({ messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hello' }] }] });
 * }
 */
export function createDurableRun(client: DurableRunClient, options: DurableRunOptions): DurableRun {
  return new DurableRun(client, options);
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

function phaseOf(status: DurableRunStatus): DurablePollSituation['phase'] {
  if (settledDurableRunStatuses.has(status)) return 'settled';
  if (status === 'cancelling') return 'cancelling';
  if (status === 'requires-input' || status === 'responding') return 'requires-input';
  if (status === 'unknown') return 'unknown';
  if (status === 'idle' || status === 'starting' || status === 'start-unknown') return 'settled';
  return 'active';
}

function stateOf(record: DurableRunRecord): string {
  return record.serverState ?? record.state;
}

function stringOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isPrefixOfJoined(text: string, segments: readonly string[]): boolean {
  const joined = segments.join('');
  return joined !== '' && text.replace(/\s+/g, '').startsWith(joined.replace(/\s+/g, ''));
}

function assertWholeBatch(
  decisions: readonly DurableRunDecision[],
  pending: readonly DurableInteraction[],
) {
  const expected = new Set<string>();
  for (const interaction of pending) {
    if (interaction.kind !== 'tool-approval' || interaction.interactionId === undefined) {
      throw new AgentInputError(
        'The run waits for a kind of input this library cannot answer: nothing was sent.',
      );
    }
    expected.add(interaction.interactionId);
  }
  const seen = new Set<string>();
  for (const { interactionId, decision } of decisions) {
    if (decision !== 'APPROVE' && decision !== 'REJECT') {
      throw new AgentInputError(`A decision is APPROVE or REJECT, not ${String(decision)}.`);
    }
    if (!expected.has(interactionId)) {
      throw new AgentInputError(`${interactionId} is not an approval of the batch shown.`);
    }
    if (seen.has(interactionId)) {
      throw new AgentInputError(`${interactionId} has more than one decision.`);
    }
    seen.add(interactionId);
  }
  if (seen.size !== expected.size) {
    throw new AgentInputError(
      `Answer every approval of the batch shown (${expected.size}), not ${seen.size}.`,
    );
  }
}

function statusOfError(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

/** A failure a respond or cancel is sent again after; an abort is a stop, never retried. */
function isNetworkError(error: unknown): boolean {
  return error instanceof AgentError && error.kind === 'network';
}

/**
 * A 500, or another 5xx that is not the service's problem detail (a proxy's page, an empty body),
 * says nothing of whether the run was created: an unknown outcome like a broken connection. A
 * 4xx, or a 5xx problem such as 503 `service_unavailable`, is the service refusing the run.
 */
function asStartOutcome(error: unknown): unknown {
  if (!(error instanceof AgentHttpError) || error.status < 500) return error;
  if (error.status !== 500 && error.problem !== undefined) return error;
  return new AgentStartUnknownError({
    url: error.url,
    reason: 'server',
    status: error.status,
    cause: error,
  });
}

/** Whether a failed start POST may still have created a run: anything but an HTTP answer. */
function isUnknownStartOutcome(error: unknown): boolean {
  if (error instanceof AgentStartUnknownError) return true;
  if (statusOfError(error) !== undefined) return false;
  // Refused before sending (a blank agent id, a rest-v1 client).
  return !(error instanceof AgentError && error.kind === 'input');
}

function asAgentError(error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  return new AgentInputError(error instanceof Error ? error.message : String(error));
}
