import type { AgentClient } from '../wire/agent-client.js';
import { sleep } from '../base/backoff.js';
import { AgentHttpError, type AgentError } from '../wire/errors.js';
import { createNotifyScheduler, type NotifyScheduler } from './notify-scheduler.js';
import { redactFrame, redactText } from '../wire/secrets.js';
import { classifyFrame } from './classify-frame.js';
import type { RunEvent, RunSnapshot } from './run-types.js';
import type { SentRunRequest, SseMessage } from '../wire/sse-types.js';
import { ListenerSet } from '../base/subscribable.js';
import { noRunEvents, parseNumericId, Run } from './run-state.js';
import { reconnectPlan, retryDelay, toAgentError } from './run-reconnect.js';
import {
  defaultIdleTimeoutMs,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
} from './run-stream-options.js';

// Declared beside the stream (run-stream-options.ts), and taken with it from here (the barrel too).
export {
  defaultIdleTimeoutMs,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
  type RunStreamReconnectOptions,
} from './run-stream-options.js';

/** The snapshot before any run, and after `reset()`. */
export const initialRunSnapshot: RunSnapshot = Object.freeze({
  status: 'idle',
  request: undefined,
  events: noRunEvents,
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

const defaultMaxEvents = 5000;

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
    const plan = reconnectPlan(options.reconnect);
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
        if (this.#isCurrent(run)) run.noteEventId(id);
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
      const delay = retryDelay(plan, run, error, this.#options.random);
      if (delay === undefined) {
        this.#finish(run, 'error', error);
        return;
      }
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

    const admitted = run.admit(numericId);
    if (admitted === 'duplicate') {
      this.#markChanged(run);
      return;
    }
    const restart = admitted === 'restart';

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
    if (message.id !== undefined) run.noteEventId(message.id, numericId);
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
