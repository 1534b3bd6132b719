import { AgentInputError } from '../wire/errors.js';
import { retry } from '../base/backoff.js';
import { ListenerSet } from '../base/subscribable.js';
import { defaultRunStore, type DurableRunStore } from '../storage/durable-run-store.js';
import type { DurableRunDecision, DurableRunRecord } from '../wire/durable-run-schemas.js';
import type { DurableRunMethods, DurableRunStartRequest } from '../wire/durable-run-wire.js';
import { defaultDurablePollPolicy, type DurablePollPolicy } from './durable-poll-schedule.js';
import { DurablePoller, durableRunPage, type DurableRunEnvironment } from './durable-poller.js';
import {
  initialDurableRunModel,
  reduceDurableRun,
  stateOf,
  statusOfError,
  stringOf,
  type DurableRunAction,
  type DurableRunModel,
} from './durable-run-reducer.js';
import { adoptRun, claimAnnouncement, recordState } from './durable-run-records.js';
import {
  asAgentError,
  asStartOutcome,
  assertWholeBatch,
  isPassingWriteFailure,
  isUnknownStartOutcome,
} from './durable-run-outcomes.js';
import { settledDurableRunStatuses, type DurableRunSnapshot } from './durable-run-snapshot.js';

export {
  settledDurableRunStatuses,
  type DurableRunConnection,
  type DurableRunFailure,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable-run-snapshot.js';
export { durableRunStatusOf } from './durable-run-reducer.js';
export type { DurableRunEnvironment } from './durable-poller.js';
export type { DurableRunLockManager } from './tab-leader.js';
export { defaultRunStore };

/** The client calls a durable run makes: an `AgentClient` with `api: 'platform'`. */
export type DurableRunClient = Pick<
  DurableRunMethods,
  'startDurableRun' | 'getDurableRun' | 'cancelDurableRun' | 'respondToDurableRun'
>;

// ---- Options ----

/** Options of {@link createDurableRun}. */
export interface DurableRunOptions {
  /** The agent whose runs this object starts and watches. */
  agentId: string;
  /**
   * Where the run's record is kept, so that a reload finds it.
   * @default one store per page: localStorage in a browser, memory elsewhere (createDurableRunStore())
   */
  store?: DurableRunStore;
  /**
   * Changes to the poll schedule (see `DurablePollPolicy`): what is not given keeps its default.
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
  /**
   * Detach once no listener is subscribed (a microtask after the last one left, unless one came
   * back), and attach the same run again when a listener comes (a tree hidden and shown again);
   * a start or attach made while none is, after one was, is detached too. The run lives on at the
   * service: this is a disconnect, never a cancel.
   * @default false (watched until it settles, `detach()` or `forget()`)
   */
  detachWhenUnobserved?: boolean | undefined;
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

/** How many times a respond or a cancel is sent again after a network error or a 5xx. */
const writeRetries = 3;

/**
 * A durable run of one agent: started once (one POST, never sent again), then read by polling
 * until it settles, paused for approvals, cancelled cooperatively, and found again after a reload
 * through its {@link DurableRunStore} record. `subscribe`/`getSnapshot` fit `useSyncExternalStore`.
 *
 * The commands live here; the state is `reduceDurableRun`'s, the reads are a `DurablePoller`'s
 * (with `tab-leader.ts` choosing the tab that reads), the retries of writes `backoff.ts`'s.
 */
export class DurableRun {
  readonly #client: DurableRunClient;
  readonly #agentId: string;
  readonly #store: DurableRunStore;
  readonly #policy: Readonly<DurablePollPolicy>;
  #options: DurableRunOptions;
  readonly #listeners = new ListenerSet({
    onFirst: () => this.#observed(),
    onLast: () => this.#unobserved(),
  });
  // Detached because nobody was reading it: the run shown is followed again by the next listener.
  #detachedUnobserved = false;
  readonly #poller: DurablePoller;
  #model: DurableRunModel;

  // Bumped by every start, attach, detach and forget: a late answer of an older generation is
  // dropped, and its fence (aborted) ends the wait before a write is sent again.
  #generation = 0;
  #fence = new AbortController();

  constructor(client: DurableRunClient, options: DurableRunOptions) {
    if (typeof options.agentId !== 'string' || options.agentId.trim() === '') {
      throw new AgentInputError('createDurableRun: pass a non-empty `agentId`.');
    }
    this.#client = client;
    this.#agentId = options.agentId;
    this.#options = options;
    this.#store = options.store ?? defaultRunStore();
    this.#policy = { ...defaultDurablePollPolicy, ...options.poll };
    this.#model = initialDurableRunModel(options.agentId);
    this.#poller = new DurablePoller(
      {
        getSnapshot: this.getSnapshot,
        dispatch: (action) => this.#dispatch(action),
        read: (runId, signal) => this.#client.getDurableRun(this.#agentId, runId, { signal }),
        received: (record) => this.#receive({ type: 'read', record }),
        failed: (error) => this.#readFailed(error),
      },
      {
        agentId: options.agentId,
        store: this.#store,
        policy: this.#policy,
        environment: options.environment,
      },
    );
  }

  getSnapshot = (): DurableRunSnapshot => this.#model.snapshot;

  /** Calls `listener` after each change (see `detachWhenUnobserved` for the first and last). */
  subscribe = this.#listeners.subscribe;

  /**
   * Replaces the options that apply at once: `onSettled`, `onRequiresInput` and
   * `detachWhenUnobserved`. The `agentId`, `store`, `poll` and `environment` stay those it was
   * created with.
   */
  setOptions(options: DurableRunOptions): void {
    this.#options = {
      ...this.#options,
      onSettled: options.onSettled,
      onRequiresInput: options.onRequiresInput,
      detachWhenUnobserved: options.detachWhenUnobserved,
    };
  }

  /** The store this run's records go to. */
  get store(): DurableRunStore {
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
    const generation = this.#begin();
    const record = this.#store.create({
      agentId: this.#agentId,
      messages: request.messages,
      input: request.input,
    });
    this.#dispatch({
      type: 'starting',
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
        if (this.#showsDetachedStart(record.localId)) this.#dispatch({ type: 'reset' });
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
    this.#dispatch({ type: 'start-failed', error: asAgentError(error), unknown });
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
        this.#dispatch({
          type: 'created-detached',
          record: created,
          storageError: this.#store.error,
        });
      }
      return;
    }
    this.#poller.turnAccepted(this.#now());
    this.#receive({ type: 'created', record: created, storageError: this.#store.error });
    if (!settledDurableRunStatuses.has(this.#snapshot.status)) this.#poller.watch(created.runId);
  }

  /**
   * Watches an existing run: the first read is immediate. A run already settled in the store is
   * read once and shown, without `onSettled`. A 404 gives `lost` and removes the record.
   */
  async attach(runId: string): Promise<DurableRunSnapshot> {
    if (typeof runId !== 'string' || runId.trim() === '') {
      throw new AgentInputError('attach: pass a non-empty run id.');
    }
    this.#begin();
    const stored =
      this.#store.findByRunId(this.#agentId, runId) ?? adoptRun(this.#store, this.#agentId, runId);
    this.#dispatch({ type: 'attached', runId, stored, storageError: this.#store.error });
    if (stored.phase === 'settled') {
      await this.#poller.readOnce(runId);
      return this.#snapshot;
    }
    // The first turn was accepted about when its record was written; after an approval the
    // deadline of the new turn is unknown here (the service still applies it on any read).
    if (stored.decidedBatchKey === undefined) this.#poller.turnAccepted(stored.startedAt);
    this.#poller.watch(runId);
    await this.#poller.reading;
    return this.#snapshot;
  }

  /**
   * Finds this agent's newest record in the store and shows it again: a run in flight is
   * attached, a settled one read once (no `onSettled`), one whose start POST was interrupted is
   * `start-unknown` (never sent again). Resolves with the idle snapshot when there is none.
   */
  async resume(): Promise<DurableRunSnapshot> {
    const [stored] = this.#store.list({ agentId: this.#agentId });
    if (stored === undefined) return this.#snapshot;
    if (stored.runId !== undefined) return this.attach(stored.runId);
    this.#begin();
    this.#dispatch({ type: 'found-unsent', stored });
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
    this.#dispatch({ type: 'responding' });
    const batch = decisions.map(({ interactionId, decision }) => ({ interactionId, decision }));
    try {
      const answered = await this.#write(() =>
        this.#client.respondToDurableRun(this.#agentId, runId, batch),
      );
      if (generation !== this.#generation) return this.#snapshot;
      this.#poller.turnAccepted(this.#now());
      this.#receive({ type: 'responded', record: answered });
    } catch (error) {
      if (generation !== this.#generation) return this.#snapshot;
      this.#dispatch({ type: 'respond-failed', error: asAgentError(error) });
    }
    this.#poller.pollSoon();
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
    this.#poller.changed();
    this.#dispatch({ type: 'cancelling', at: this.#now() });
    try {
      const answered = await this.#write(() => this.#client.cancelDurableRun(this.#agentId, runId));
      if (generation !== this.#generation) return this.#snapshot;
      this.#receive({ type: 'cancel-answered', record: answered });
    } catch (error) {
      if (generation !== this.#generation) return this.#snapshot;
      this.#dispatch({ type: 'cancel-failed', error: asAgentError(error) });
    }
    this.#poller.pollSoon();
    return this.#snapshot;
  }

  /** Reads the run now (and starts watching again after a 401 or 403 stopped it). */
  async refresh(): Promise<DurableRunSnapshot> {
    const runId = this.#snapshot.runId;
    if (runId === undefined) return this.#snapshot;
    if (!this.#poller.watching && !settledDurableRunStatuses.has(this.#snapshot.status)) {
      this.#poller.watch(runId);
      await this.#poller.reading;
      return this.#snapshot;
    }
    await this.#poller.readOnce(runId);
    return this.#snapshot;
  }

  /** Stops watching (timers, reads, listeners, the lock): a disconnect, never a cancel. */
  detach(): void {
    this.#nextGeneration();
    this.#poller.stop();
    this.#dispatch({ type: 'detached' });
  }

  /** Detaches and removes the record (after a settled, lost or start-unknown run); back to idle. */
  forget(): void {
    const localId = this.#snapshot.localId;
    this.detach();
    if (localId !== undefined) this.#store.remove(localId);
    this.#poller.reset();
    this.#dispatch({ type: 'reset' });
  }

  get #snapshot(): DurableRunSnapshot {
    return this.#model.snapshot;
  }

  #dispatch(action: DurableRunAction) {
    const next = reduceDurableRun(this.#model, action);
    if (next === this.#model) return;
    const changed = next.snapshot !== this.#model.snapshot;
    this.#model = next;
    if (changed) this.#listeners.notify();
  }

  /** A new run (or the same one found again): the old one is no longer watched nor written. */
  #begin(): number {
    this.#poller.stop();
    this.#poller.reset();
    if (this.#options.detachWhenUnobserved === true) this.#listeners.stopUnlessObserved();
    return this.#nextGeneration();
  }

  #unobserved() {
    if (this.#options.detachWhenUnobserved !== true) return;
    const { status } = this.#snapshot;
    this.detach();
    this.#detachedUnobserved = status !== 'idle' && !settledDurableRunStatuses.has(status);
  }

  #observed() {
    const { runId, status } = this.#snapshot;
    const follow = this.#detachedUnobserved && !settledDurableRunStatuses.has(status);
    this.#detachedUnobserved = false;
    if (follow && runId !== undefined) void this.attach(runId);
  }

  #nextGeneration(): number {
    this.#detachedUnobserved = false;
    this.#fence.abort();
    this.#fence = new AbortController();
    return ++this.#generation;
  }

  /** Whether the snapshot is still the `'starting'` one of this record (a detach kept it). */
  #showsDetachedStart(localId: string): boolean {
    return this.#snapshot.status === 'starting' && this.#snapshot.localId === localId;
  }

  /**
   * A respond or a cancel, sent again (identical) after a network error or a 5xx, while the
   * generation it began in lasts (a detach, forget or new run ends it with the last error).
   */
  #write(send: () => Promise<DurableRunRecord>): Promise<DurableRunRecord> {
    const page = durableRunPage(this.#options.environment);
    return retry(send, {
      retries: writeRetries,
      policy: {
        baseDelayMs: this.#policy.failureBaseMs,
        maxDelayMs: this.#policy.failureMaxMs,
        jitter: 'none',
      },
      retryable: isPassingWriteFailure,
      signal: this.#fence.signal,
      timers: page,
    });
  }

  /**
   * What the service answered, shown (through the reducer), then kept: the store's record follows
   * the state; a settled run stops being read and `onSettled` runs once (the store's settled
   * record is the once-only key); a new approval batch is announced once.
   */
  #receive(action: Extract<DurableRunAction, { record: DurableRunRecord }>) {
    const previous = this.#snapshot;
    this.#dispatch(action);
    const snapshot = this.#snapshot;
    const serverState = snapshot.serverState ?? '';
    const updatedAt = stringOf(snapshot.updatedAt);
    if (serverState !== previous.serverState || updatedAt !== stringOf(previous.updatedAt)) {
      this.#poller.changed();
    }
    const localId = snapshot.localId;
    if (localId === undefined) return;
    recordState(this.#store, localId, { serverState, updatedAt, at: this.#now() });
    this.#dispatch({ type: 'storage', error: this.#store.error });

    const { status, batchKey } = this.#snapshot;
    if (settledDurableRunStatuses.has(status)) {
      this.#poller.stop();
      if (this.#store.settle(localId, serverState)) this.#options.onSettled?.(this.#snapshot);
    } else if (status === 'requires-input' && batchKey !== undefined) {
      if (claimAnnouncement(this.#store, localId, batchKey)) {
        this.#options.onRequiresInput?.(this.#snapshot);
      }
    }
  }

  #readFailed(error: unknown) {
    const status = statusOfError(error);
    if (status === 404 || status === 401 || status === 403) this.#poller.stop();
    if (status === 404) {
      const localId = this.#snapshot.localId;
      if (localId !== undefined) this.#store.remove(localId);
    }
    this.#dispatch({ type: 'read-failed', error: asAgentError(error), status });
  }

  #now(): number {
    return (this.#options.environment?.now ?? Date.now)();
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
