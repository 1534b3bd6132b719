import type { AgentClient, AgentRunRequest } from '../wire/agent-client.js';
import {
  backoffDelay,
  exceedsRetryAfterLimit,
  sleep,
  type BackoffJitter,
} from '../base/backoff.js';
import {
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentValidationError,
} from '../wire/errors.js';
import { createNotifyScheduler, type NotifyScheduler } from './notify-scheduler.js';
import { RingBuffer } from './ring-buffer.js';
import { redactFrame, redactText } from '../wire/secrets.js';
import { classifyFrame } from './classify-frame.js';
import type { RunEvent, RunSnapshot, RunStatus } from './run-types.js';
import type { SentRunRequest, SseMessage, SseTransport } from '../wire/sse-types.js';
import { ListenerSet } from '../base/subscribable.js';

/** The reconnect policy of a {@link RunStream}. */
export interface RunStreamReconnectOptions {
  /**
   * The most connection attempts (POSTs) one `start()` makes, the first included. Every attempt
   * after the first is a new POST: see `midStream`.
   * @default 4 (the first and up to 3 more)
   */
  maxAttempts?: number;
  /**
   * The delay before the first retry, doubled for each further one (before jitter).
   * @default 1000
   */
  baseDelayMs?: number;
  /**
   * The cap of a computed delay. A `Retry-After` longer than this ends the run in `error` instead
   * of waiting (the error carries `retryAfterMs`).
   * @default 30000
   */
  maxDelayMs?: number;
  /**
   * What a connection that drops after the stream opened (or goes silent past `idleTimeoutMs`)
   * does. `'reconnect'` POSTs the run again with `Last-Event-ID`: a server that supports it resumes,
   * the documented service **starts the run over** (side effects again, one more run start against
   * the rate limit); the snapshot counts it in `restarts`. `'fail'` ends the run in `error` with an
   * `AgentNetworkError`. Failures before the stream opens (no response, 408, 429, 502, 503, 504) are
   * retried either way.
   * @default 'reconnect'
   */
  midStream?: 'reconnect' | 'fail';
  /**
   * How delays are randomized. `'equal'` keeps at least half the delay, which spaces run starts
   * (the service allows 0.5 per second per user).
   * @default 'equal'
   */
  jitter?: BackoffJitter;
}

/** Callbacks of a {@link RunStream}; each is isolated: a throw is reported, never retried. */
export interface RunStreamCallbacks {
  /** Each event, as it arrives (not batched). */
  onEvent?: ((event: RunEvent) => void) | undefined;
  /** Each status change, after listeners saw the new snapshot. */
  onStatusChange?: ((status: RunStatus, snapshot: RunSnapshot) => void) | undefined;
  /** The run ended cleanly (`done`). */
  onDone?: ((snapshot: RunSnapshot) => void) | undefined;
  /** The run ended in `error` (a refused start included). */
  onError?: ((error: AgentError, snapshot: RunSnapshot) => void) | undefined;
}

/** Options of {@link RunStream}. */
export interface RunStreamOptions extends RunStreamCallbacks {
  /**
   * Abort the run in progress once no listener is subscribed (a microtask after the last one
   * left, unless one came back), and a `start()` made while none is, after one was: the stream
   * then lives as long as something reads it, as a hook's own stream does.
   * @default false (the run goes on until it ends, `abort()` or `reset()`)
   */
  abortWhenUnobserved?: boolean | undefined;
  /**
   * When and how often a failed connection is tried again.
   * @default { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 30000, midStream: 'reconnect', jitter: 'equal' }
   */
  reconnect?: RunStreamReconnectOptions;
  /**
   * The most events kept in `events` (the newest); older ones are counted in `droppedEvents`.
   * `text` keeps everything.
   * @default 5000
   */
  maxEvents?: number;
  /**
   * How often listeners may be notified of new events, in ms. Undefined: once per animation frame
   * (a 16 ms timer outside browsers, 100 ms at most when a hidden tab runs no frame). A status change
   * notifies at once, so a terminal snapshot always holds every event.
   * @default undefined (one animation frame)
   */
  throttleMs?: number;
  /**
   * With no byte (heartbeats count) for this long, the connection counts as dropped (a half-open
   * socket, a proxy that stalls) with a retryable `AgentNetworkError`, and the `reconnect` policy
   * applies. On by default: without it a stream that opens and then says nothing stays `streaming`
   * forever. The default is long because the service sends no keep-alive and a run may take
   * 30 minutes: an agent that thinks or waits on a slow tool is silent for minutes, and a reconnect
   * to the documented service starts the run over (side effects again), so a false alarm costs
   * more than a late one. Lower it where a proxy or the server sends heartbeats; `0` or
   * `Infinity` turns it off.
   * @default 300000 (5 minutes)
   */
  idleTimeoutMs?: number;
  /**
   * The most bytes one server-sent event may take (its lines from one blank line to the next,
   * UTF-8 as received, line breaks not counted). Past it the connection closes at once and the run
   * ends in `error` with an `AgentEventTooLargeError`, never retried: a server that sends a line
   * that never ends costs at most this much memory. An agent's event is a few kB; one of 1 MB fits.
   * @default 4194304 (4 MiB)
   */
  maxEventSize?: number;
  /**
   * The SSE transport.
   * @default defaultSseTransport (the one scan of the body, in every runtime)
   */
  transport?: SseTransport;
  /**
   * Waits between attempts; resolves early when `signal` aborts. For tests.
   * @default a setTimeout
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * The clock of timings and `receivedAt`. For tests.
   * @default Date.now
   */
  now?: () => number;
  /**
   * The randomness of the jitter, in `[0, 1)`. For tests.
   * @default Math.random
   */
  random?: () => number;
}

/** What `start()` takes: a run request, and the caller's check of it. */
export type RunStartRequest = AgentRunRequest & {
  /**
   * Checks the request before anything is sent: what it throws ends the run in `error` (an
   * `AgentError` as it is, anything else wrapped), with nothing sent. A form checks its input
   * against the agent's fields: `check: (request) => assertCompleteInput(fields, request.input)`.
   * @default undefined (the client's own checks only)
   */
  check?: ((request: AgentRunRequest) => void) | undefined;
};

/** The snapshot before any run, and after `reset()`. */
export const initialRunSnapshot: RunSnapshot = Object.freeze({
  status: 'idle',
  request: undefined,
  events: Object.freeze([]) as readonly RunEvent[],
  droppedEvents: 0,
  totalEvents: 0,
  duplicateEvents: 0,
  text: '',
  error: undefined,
  attempt: 0,
  restarts: 0,
  lastEventId: undefined,
  nextAttemptAt: undefined,
  reconnectReason: undefined,
  startedAt: undefined,
  firstEventAt: undefined,
  endedAt: undefined,
});

const terminal = new Set<RunStatus>(['done', 'error', 'aborted']);
/** The default of {@link RunStreamOptions.idleTimeoutMs}: 5 minutes. */
export const defaultIdleTimeoutMs = 300_000;
const defaultMaxEvents = 5000;
const textFoldPieces = 1024;

/** The mutable state of one run; callbacks of an older run see `run !== stream.#run` and stop. */
class Run {
  readonly controller = new AbortController();
  status: RunStatus = 'connecting';
  attempt = 0;
  /** The client sent the current attempt (a failure before is one of preparing it). */
  sent = false;
  /** The current attempt's response opened. */
  opened = false;
  /** How the current reconnect attempt relates to the events before it, once its first event came. */
  attemptMode: 'first' | 'resume' | 'restart' | undefined;
  /** The `Last-Event-ID` the current attempt sent. */
  resumeFrom: string | undefined;
  /** The highest numeric id accepted since the run (re)started. */
  maxId: number | undefined;
  serverRetryMs: number | undefined;
  url = '';
  buffer: RingBuffer<RunEvent>;
  eventsChanged = false;
  eventsView: readonly RunEvent[] = initialRunSnapshot.events;
  totalEvents = 0;
  duplicateEvents = 0;
  /** The output joined so far; `textChunks` are the pieces since (joined when a snapshot is built). */
  textJoined = '';
  textChunks: string[] = [];
  error: AgentError | undefined;
  restarts = 0;
  lastEventId: string | undefined;
  /** The last id that can travel in a header: the `Last-Event-ID` of the next attempt. */
  resumeId: string | undefined;
  nextAttemptAt: number | undefined;
  reconnectReason: AgentError | undefined;
  /** The secrets of every attempt so far (a refreshed token included), removed from each event. */
  secrets: readonly string[] = [];
  firstEventAt: number | undefined;
  endedAt: number | undefined;
  settled = false;
  resolve: (snapshot: RunSnapshot) => void = () => undefined;
  readonly done: Promise<RunSnapshot>;

  constructor(
    readonly client: AgentClient,
    readonly request: RunStartRequest,
    readonly startedAt: number,
    maxEvents: number,
  ) {
    this.buffer = new RingBuffer(maxEvents);
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  get ended() {
    return terminal.has(this.status);
  }

  /**
   * One concatenation per snapshot rather than one per event (each would be kept as a rope node),
   * and at least one per 1,024 pieces: events that come faster than snapshots are published (a
   * buffered response, a burst that never yields to a frame) would otherwise hold every piece,
   * and the payload string it is, in one growing array until the burst ends.
   */
  addText(text: string) {
    if (this.textChunks.push(text) >= textFoldPieces) this.#foldText();
  }

  get text(): string {
    if (this.textChunks.length > 0) this.#foldText();
    return this.textJoined;
  }

  #foldText() {
    this.textJoined += this.textChunks.join('');
    this.textChunks.length = 0;
  }
}

/**
 * Runs an agent and follows its server-sent events: the connection, the status machine, the
 * reconnect policy and the event buffer, with no framework. Subscribe with `subscribe` and read
 * `getSnapshot()` (the same object until something changes): it fits `useSyncExternalStore`.
 *
 * @example
 * const stream = createRunStream(client, { onDone: (run) => console.log(run.text) });
 * stream.subscribe(() => render(stream.getSnapshot()));
 * await stream.start({ agentId: 'my-agent', messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }] });
 */
export class RunStream {
  #client: AgentClient;
  #options: RunStreamOptions;
  readonly #listeners = new ListenerSet({
    onLast: () => {
      if (this.#options.abortWhenUnobserved === true) this.abort();
    },
  });
  readonly #observers = new Set<RunStreamCallbacks>();
  #now: () => number;
  #run: Run | undefined;
  #snapshot: RunSnapshot = initialRunSnapshot;
  #scheduler: NotifyScheduler | undefined;

  constructor(client: AgentClient, options: RunStreamOptions = {}) {
    this.#client = client;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Replaces the options (as `QueryObserver.setOptions` does). The callbacks, `maxEvents`,
   * `throttleMs`, `now` and `random` apply at once; `reconnect`, `transport`, `sleep`,
   * `idleTimeoutMs` and `maxEventSize` from the next `start()` (a run in progress keeps the policy it started with).
   */
  setOptions(options: RunStreamOptions): void {
    const previous = this.#options;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    if (options.throttleMs !== previous.throttleMs && this.#scheduler !== undefined) {
      const pending = this.#scheduler.pending;
      this.#scheduler.cancel();
      this.#scheduler = undefined;
      if (pending) this.#flush();
    }
  }

  /** The client the next `start()` uses (a running run keeps its own). */
  setClient(client: AgentClient): void {
    this.#client = client;
  }

  /** The current snapshot: the same object until a change is published. */
  getSnapshot = (): RunSnapshot => this.#snapshot;

  /** Calls `listener` after each published change (at most once per frame for events). */
  subscribe = this.#listeners.subscribe;

  /** Adds callbacks (beside those of the options); returns their removal. */
  observe(callbacks: RunStreamCallbacks): () => void {
    // A copy, so the same object can be added twice and removed once each.
    const entry = { ...callbacks };
    this.#observers.add(entry);
    return () => {
      this.#observers.delete(entry);
    };
  }

  /**
   * Starts a run; a run in progress is aborted first, and nothing of it reaches the new snapshot.
   * A request that must not be sent (refused by the request's `check`; a blank agent id or a
   * body the API refuses, as the client checks it) ends in `error` with an `AgentInputError` and
   * sends nothing; `start()` never throws. Resolves with the final snapshot (its promise never
   * rejects).
   */
  start(request: RunStartRequest): Promise<RunSnapshot> {
    this.#supersede();
    if (this.#options.abortWhenUnobserved === true) this.#listeners.stopUnlessObserved();
    const run = new Run(this.#client, request, this.#now(), this.#maxEvents());
    this.#run = run;
    try {
      request.check?.(request);
    } catch (error) {
      this.#finish(run, 'error', toAgentError(error, 'prepare'));
      return run.done;
    }
    this.#publishStatus(run);
    void this.#connect(run);
    return run.done;
  }

  /**
   * Aborts the run in any phase (preparing, before the response, streaming, waiting to reconnect):
   * the socket closes and the status becomes `aborted`. Does nothing when no run is in progress.
   */
  abort(): void {
    const run = this.#run;
    if (run === undefined || run.ended) return;
    run.controller.abort();
    this.#finish(run, 'aborted');
  }

  /** Aborts a run in progress (without an `aborted` status) and returns to the idle snapshot. */
  reset(): void {
    this.#supersede();
    this.#run = undefined;
    this.#scheduler?.cancel();
    if (this.#snapshot === initialRunSnapshot) return;
    this.#snapshot = initialRunSnapshot;
    this.#notifyListeners();
    this.#emit((callbacks) => callbacks.onStatusChange?.('idle', initialRunSnapshot));
  }

  /** Ends the current run quietly: it is replaced, so its last state is never published. */
  #supersede() {
    const run = this.#run;
    if (run === undefined || run.ended) return;
    run.controller.abort();
    run.status = 'aborted';
    run.endedAt = this.#now();
    run.nextAttemptAt = undefined;
    run.reconnectReason = undefined;
    this.#settle(run, this.#build(run));
  }

  async #connect(run: Run): Promise<void> {
    const options = this.#options;
    const policy = options.reconnect ?? {};
    const maxAttempts = Math.max(1, policy.maxAttempts ?? 4);
    const backoff = {
      baseDelayMs: policy.baseDelayMs ?? 1000,
      maxDelayMs: policy.maxDelayMs ?? 30_000,
      jitter: policy.jitter ?? 'equal',
    };
    const wait = options.sleep ?? sleep;
    const streamOptions = {
      signal: run.controller.signal,
      transport: options.transport,
      idleTimeoutMs: options.idleTimeoutMs ?? defaultIdleTimeoutMs,
      maxEventSize: options.maxEventSize,
      onSend: (sent: SentRunRequest) => this.#onSend(run, sent),
      onOpen: () => this.#onOpen(run),
      onMessage: (message: SseMessage) => this.#onMessage(run, message),
      onId: (id: string) => {
        if (this.#isCurrent(run)) noteEventId(run, id);
      },
      onRetry: (retryMs: number) => {
        run.serverRetryMs = retryMs;
      },
    };

    for (;;) {
      // Set once the client sent this attempt: a failure before is one of preparing it.
      run.sent = false;
      let failure: unknown;
      let outcome: 'closed' | 'aborted' | undefined;
      try {
        ({ outcome } = await run.client.streamRun(run.request, {
          ...streamOptions,
          lastEventId: run.resumeId,
        }));
      } catch (error) {
        failure = error;
      }
      if (!this.#isCurrent(run)) return;
      if (failure !== undefined && !run.sent) {
        this.#finish(run, 'error', toAgentError(failure, 'prepare'));
        return;
      }
      if (failure === undefined) {
        // 'aborted' without a user abort cannot happen: only `abort`, `start` and `reset` abort.
        if (outcome === 'closed') this.#finish(run, 'done');
        return;
      }

      const error = toAgentError(failure, 'stream');
      const retryable = run.opened
        ? error instanceof AgentNetworkError && (policy.midStream ?? 'reconnect') === 'reconnect'
        : error.retryable;
      const retryAfterMs = error instanceof AgentHttpError ? error.retryAfterMs : undefined;
      if (
        !retryable ||
        run.attempt >= maxAttempts ||
        exceedsRetryAfterLimit(retryAfterMs, backoff)
      ) {
        this.#finish(run, 'error', error);
        return;
      }
      const delay = backoffDelay(
        run.attempt - 1,
        backoff,
        { retryAfterMs, serverRetryMs: run.serverRetryMs },
        this.#options.random,
      );
      run.status = 'reconnecting';
      run.reconnectReason = error;
      run.nextAttemptAt = this.#now() + delay;
      this.#publishStatus(run);
      await wait(delay, run.controller.signal);
      if (!this.#isCurrent(run)) return;
      run.nextAttemptAt = undefined;
    }
  }

  /** The client is sending an attempt: counted, and its secrets kept for redaction. */
  #onSend(run: Run, sent: SentRunRequest) {
    if (!this.#isCurrent(run)) return;
    run.sent = true;
    if (sent.secrets.some((secret) => !run.secrets.includes(secret))) {
      run.secrets = [...new Set([...run.secrets, ...sent.secrets])];
    }
    run.attempt += 1;
    run.opened = false;
    run.attemptMode = run.attempt === 1 ? 'first' : undefined;
    run.resumeFrom = run.resumeId;
    run.url = sent.url;
    this.#publishNow(run);
  }

  #onOpen(run: Run) {
    if (!this.#isCurrent(run)) return;
    run.opened = true;
    run.status = 'streaming';
    run.reconnectReason = undefined;
    this.#publishStatus(run);
  }

  /**
   * The arrival time of the events handed over in the current synchronous burst: a transport
   * dispatches every event of one network read in one go, so the clock is read once per read (the
   * burst ends at the next microtask, before the next read can resolve). The first of them sets it.
   * About 15 B and a clock read less per event.
   */
  #burstAt: number | undefined = undefined;
  readonly #endBurst = () => {
    this.#burstAt = undefined;
  };

  #arrivalTime(): number {
    let at = this.#burstAt;
    if (at === undefined) {
      at = this.#now();
      this.#burstAt = at;
      queueMicrotask(this.#endBurst);
    }
    return at;
  }

  #onMessage(run: Run, received: SseMessage) {
    // A transport of the caller's may go on dispatching the rest of a chunk after an abort.
    if (!this.#isCurrent(run)) return;
    // Redacted here, as it is recorded: the events, the text, the errors and every view of them.
    const message = redactFrame(received, run.secrets);
    const receivedAt = this.#arrivalTime();
    const numericId = parseNumericId(message.id);

    let restart = false;
    if (run.attemptMode === undefined) {
      const resumeFrom = parseNumericId(run.resumeFrom);
      if (numericId !== undefined && resumeFrom !== undefined && numericId <= resumeFrom) {
        run.attemptMode = 'restart';
        restart = true;
        run.restarts += 1;
        run.textJoined = '';
        run.textChunks.length = 0;
        run.maxId = undefined;
      } else {
        run.attemptMode = 'resume';
      }
    } else if (
      run.attemptMode === 'resume' &&
      numericId !== undefined &&
      run.maxId !== undefined &&
      numericId <= run.maxId
    ) {
      run.duplicateEvents += 1;
      this.#markChanged(run);
      return;
    }
    if (numericId !== undefined) run.maxId = Math.max(run.maxId ?? numericId, numericId);

    const event = classifyFrame(message, run.totalEvents + 1, receivedAt, run.attempt, restart);
    // A run.failed ends the run whatever its payload; the problem detail when it is one.
    let failure: AgentHttpError | undefined;
    if (message.event === 'run.failed') {
      const problem = event.kind === 'run-failed' ? event.payload.error : undefined;
      failure = new AgentHttpError({
        status: problem?.status ?? 500,
        url: run.url,
        method: 'POST',
        body: problem ?? (event.kind === 'parse-error' ? message.data : event.payload),
      });
    }
    run.totalEvents += 1;
    run.firstEventAt ??= receivedAt;
    if (message.id !== undefined) noteEventId(run, message.id);
    if (event.text !== '') run.addText(event.text);
    this.#append(run, event);
    this.#markChanged(run);
    this.#emitEvent(event);

    if (failure !== undefined && this.#isCurrent(run)) {
      // The stream closes after run.failed; close it from this side too, and never reconnect.
      run.controller.abort();
      this.#finish(run, 'error', failure);
    }
  }

  #append(run: Run, event: RunEvent) {
    const maxEvents = this.#maxEvents();
    if (run.buffer.capacity !== maxEvents) run.buffer.resize(maxEvents);
    run.buffer.push(event);
    run.eventsChanged = true;
  }

  #maxEvents() {
    return Math.max(0, this.#options.maxEvents ?? defaultMaxEvents);
  }

  #isCurrent(run: Run) {
    return this.#run === run && !run.ended;
  }

  #finish(run: Run, status: 'done' | 'error' | 'aborted', error?: AgentError) {
    if (run.ended) return;
    run.status = status;
    run.error = error;
    run.endedAt = this.#now();
    run.nextAttemptAt = undefined;
    run.reconnectReason = undefined;
    const snapshot = this.#publishStatus(run);
    if (status === 'done') this.#emit((callbacks) => callbacks.onDone?.(snapshot));
    if (status === 'error' && error !== undefined) {
      this.#emit((callbacks) => callbacks.onError?.(error, snapshot));
    }
    this.#settle(run, snapshot);
  }

  #settle(run: Run, snapshot: RunSnapshot) {
    if (run.settled) return;
    run.settled = true;
    run.resolve(snapshot);
  }

  /** Publishes at once and tells `onStatusChange`. */
  #publishStatus(run: Run): RunSnapshot {
    const snapshot = this.#publishNow(run);
    if (this.#run === run) {
      this.#emit((callbacks) => callbacks.onStatusChange?.(run.status, snapshot));
    }
    return snapshot;
  }

  #publishNow(run: Run): RunSnapshot {
    this.#scheduler?.cancel();
    if (this.#run !== run) return this.#build(run);
    this.#snapshot = this.#build(run);
    this.#notifyListeners();
    return this.#snapshot;
  }

  #markChanged(run: Run) {
    if (this.#run !== run) return;
    (this.#scheduler ??= this.#createScheduler()).schedule();
  }

  // Apart from #markChanged, which runs per event: a closure over `this` in it would make V8
  // allocate a context for `this` on every call (about 90 B per event), made or not.
  #createScheduler(): NotifyScheduler {
    return createNotifyScheduler(() => this.#flush(), this.#options.throttleMs);
  }

  #flush() {
    const run = this.#run;
    if (run === undefined) return;
    this.#snapshot = this.#build(run);
    this.#notifyListeners();
  }

  #build(run: Run): RunSnapshot {
    if (run.eventsChanged) {
      run.eventsView = run.buffer.toArray();
      run.eventsChanged = false;
    }
    return {
      status: run.status,
      request: run.request,
      events: run.eventsView,
      droppedEvents: run.totalEvents - run.eventsView.length,
      totalEvents: run.totalEvents,
      duplicateEvents: run.duplicateEvents,
      text: run.text,
      error: run.error,
      attempt: run.attempt,
      restarts: run.restarts,
      // An id-only frame's id is not redacted on its way in (an event's is).
      lastEventId:
        run.lastEventId === undefined ? undefined : redactText(run.lastEventId, run.secrets),
      nextAttemptAt: run.nextAttemptAt,
      reconnectReason: run.reconnectReason,
      startedAt: run.startedAt,
      firstEventAt: run.firstEventAt,
      endedAt: run.endedAt,
    };
  }

  #notifyListeners() {
    this.#listeners.notify(reportCallbackError);
  }

  /** `#emit` for `onEvent`, without a closure per event. */
  #emitEvent(event: RunEvent) {
    const own = this.#options.onEvent;
    if (own !== undefined) {
      try {
        own(event);
      } catch (error) {
        reportCallbackError(error);
      }
    }
    for (const callbacks of this.#observers) {
      const onEvent = callbacks.onEvent;
      if (onEvent === undefined) continue;
      try {
        onEvent(event);
      } catch (error) {
        reportCallbackError(error);
      }
    }
  }

  /** Calls the options' callbacks, then those added with `observe`, each isolated. */
  #emit(call: (callbacks: RunStreamCallbacks) => void) {
    try {
      call(this.#options);
    } catch (error) {
      reportCallbackError(error);
    }
    if (this.#observers.size === 0) return;
    for (const callbacks of [...this.#observers]) {
      try {
        call(callbacks);
      } catch (error) {
        reportCallbackError(error);
      }
    }
  }
}

/**
 * Creates a {@link RunStream}.
 *
 * @example
 * const stream = createRunStream(client, { reconnect: { midStream: 'fail' } });
 */
export function createRunStream(client: AgentClient, options?: RunStreamOptions): RunStream {
  return new RunStream(client, options);
}

/** A listener's or a callback's throw never reaches the stream: it is logged and the run goes on. */
function reportCallbackError(error: unknown) {
  console.error('agent-console-kit: a RunStream listener or callback threw', error);
}

/**
 * Keeps `id` as the run's last event id, and as the one a reconnect sends when it can travel in a
 * header: `fetch` refuses a `Last-Event-ID` with NUL, CR, LF or a character above U+00FF, and the
 * reconnect would fail locally ("Could not reach …"). Such an id stays on its event; the last one
 * that can travel is sent instead (or none).
 */
function noteEventId(run: Run, id: string) {
  run.lastEventId = id;
  if (!/[\0\r\n\u0100-\uffff]/.test(id)) run.resumeId = id;
}

/** A decimal id (`1`, `42`) as a number; undefined for any other id. */
function parseNumericId(id: string | undefined): number | undefined {
  if (id === undefined || id.length === 0 || id.length > 15) return undefined;
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    if (code < 48 || code > 57) return undefined;
  }
  return Number(id);
}

/** Any failure as an {@link AgentError} (a snapshot's `error` is always one). */
function toAgentError(error: unknown, phase: 'prepare' | 'stream'): AgentError {
  if (error instanceof AgentError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (phase === 'prepare') {
    const inputError = new AgentInputError(`The run request could not be prepared: ${reason}`);
    Object.defineProperty(inputError, 'cause', { value: error });
    return inputError;
  }
  return new AgentValidationError('The run stream', [{ path: '', message: reason }], undefined);
}
