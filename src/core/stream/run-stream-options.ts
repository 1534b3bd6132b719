import type { AgentRunRequest } from '../wire/agent-client.js';
import type { BackoffJitter } from '../base/backoff.js';
import type { AgentError } from '../wire/errors.js';
import type { SseTransport } from '../wire/sse-types.js';
import type { RunEvent, RunSnapshot, RunStatus } from './run-types.js';

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

/** The default of {@link RunStreamOptions.idleTimeoutMs}: 5 minutes. */
export const defaultIdleTimeoutMs = 300_000;
