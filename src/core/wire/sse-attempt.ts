import {
  AgentHttpError,
  AgentNetworkError,
  AgentValidationError,
  readErrorResponse,
  toNetworkError,
} from './errors.js';
import { redactError, redactText } from './secrets.js';

// One attempt of a run stream: the idle watch, the response check and the errors an attempt ends
// with (the client's side). The body is read by the transport (sse-transport.ts, sse-scanner.ts).

export const eventStreamType = 'text/event-stream';

interface AttemptRequest {
  url: string;
  method: string;
  secrets: readonly string[];
}

/** One attempt's own abort (the caller's signal or the idle timeout) and its idle watch. */
export interface Attempt {
  /** Aborted when the caller's signal is, when the idle timeout fires, or by {@link abort}. */
  readonly signal: AbortSignal;
  /** Whether an idle timeout is watched at all. */
  readonly watchesIdle: boolean;
  /** A sign of life: the response or a chunk of it arrived. */
  touch(): void;
  readonly idleTimedOut: boolean;
  /** Ends what is still open of the request (the body after a handler threw). */
  abort(): void;
  /** Stops the idle watch and unlinks the caller's signal. */
  end(): void;
}

export function startAttempt(
  callerSignal: AbortSignal,
  idleTimeoutMs: number | undefined,
): Attempt {
  const inner = new AbortController();
  const abortInner = () => inner.abort(callerSignal.reason);
  callerSignal.addEventListener('abort', abortInner, { once: true });

  let lastActivity = Date.now();
  let idleTimedOut = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const watchesIdle =
    idleTimeoutMs !== undefined && idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs);
  const checkIdle = () => {
    if (idleTimeoutMs === undefined) return;
    const idleFor = Date.now() - lastActivity;
    if (idleFor >= idleTimeoutMs) {
      idleTimedOut = true;
      inner.abort();
    } else {
      idleTimer = setTimeout(checkIdle, idleTimeoutMs - idleFor);
    }
  };
  if (watchesIdle) idleTimer = setTimeout(checkIdle, idleTimeoutMs);

  return {
    signal: inner.signal,
    watchesIdle,
    touch() {
      lastActivity = Date.now();
    },
    get idleTimedOut() {
      return idleTimedOut;
    },
    abort() {
      inner.abort();
    },
    end() {
      clearTimeout(idleTimer);
      callerSignal.removeEventListener('abort', abortInner);
    },
  };
}

/** The request headers: `Accept` written once, as `accept`, defaulting to the event stream. */
export function eventStreamHeaders(
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name.toLowerCase() === 'accept' ? 'accept' : name] = value;
  }
  result['accept'] ??= eventStreamType;
  return result;
}

/**
 * Throws unless the response is a 2xx `text/event-stream`: an {@link AgentHttpError} for another
 * status, an {@link AgentValidationError} (with the body) for another content type.
 */
export async function checkEventStreamResponse(
  response: Response,
  request: AttemptRequest,
): Promise<void> {
  if (!response.ok) throw await readErrorResponse(response, request);
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.toLowerCase().startsWith(eventStreamType)) return;
  const { body } = await readErrorResponse(response, request);
  throw new AgentValidationError(
    'The run response',
    [
      {
        path: 'content-type',
        message: `expected ${eventStreamType}, got ${contentType || 'none'} (status ${response.status})`,
      },
    ],
    body,
  );
}

/** The error an attempt that failed for a reason other than a handler's throw ends with. */
export function attemptFailure(
  error: unknown,
  attempt: Attempt,
  opened: boolean,
  request: AttemptRequest & { idleTimeoutMs?: number | undefined },
): unknown {
  if (attempt.idleTimedOut) return idleTimeoutError(request);
  if (!opened) {
    if (error instanceof AgentValidationError || error instanceof AgentHttpError) return error;
    return toNetworkError(error, request.url, request.secrets);
  }
  return new AgentNetworkError(
    redactText(
      `The connection to ${request.url} dropped mid-stream: ${describe(error)}`,
      request.secrets,
    ),
    { url: request.url, cause: redactError(error, request.secrets) },
  );
}

export function idleTimeoutError(request: {
  url: string;
  idleTimeoutMs?: number | undefined;
}): AgentNetworkError {
  const message = `No byte came from ${request.url} for ${request.idleTimeoutMs} ms: the connection is treated as dropped.`;
  return new AgentNetworkError(message, { url: request.url });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}

/**
 * The default of `maxEventSize`, in bytes: 4 MiB. An agent's event is a message of a few kB (a
 * long answer streams as many events); a tool result quoted whole can reach some hundred kB, and
 * an event of 1 MB is received whole with room to spare.
 */
export const defaultMaxEventSize = 4 * 1024 * 1024;

/**
 * A server-sent event (its lines from one blank line to the next, as bytes received, line breaks
 * not counted) passed `maxEventSize`: the connection is closed at once, and the run ends in error
 * without a retry (the same request would get the same answer).
 */
export class AgentEventTooLargeError extends AgentValidationError {
  /** The bound that was passed, in bytes. */
  readonly maxEventSize: number;
  override name = 'AgentEventTooLargeError';
  constructor(maxEventSize: number) {
    super(
      'The run stream',
      [
        {
          path: 'event',
          message: `an event passed ${maxEventSize} bytes (maxEventSize): the connection was closed`,
        },
      ],
      undefined,
    );
    this.maxEventSize = maxEventSize;
  }
}
