import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import { fetchSseTransport } from './fetch-sse-transport.js';
import {
  attemptFailure,
  checkEventStreamResponse,
  createEventStreamScanner,
  defaultMaxEventSize,
  eventStreamHeaders,
  idleTimeoutError,
  scannedBody,
  startAttempt,
} from './sse-attempt.js';

/** One server-sent event that carries data (the SSE spec's "dispatch"). */
export interface SseMessage {
  /** The frame's `id:` field; undefined when the frame had none (or an empty one). */
  id: string | undefined;
  /** The `event:` field; `message` when the frame named none. */
  event: string;
  /** The `data:` lines joined by `\n`; never empty. */
  data: string;
  /**
   * The stream's last event id when this event came (the SSE standard's `lastEventId`): the
   * latest `id:` of this frame or an earlier one, `''` before any (or after an empty `id:`). An
   * `id:` holding NUL is ignored, as the standard says. Set by this library's transports.
   */
  lastEventId?: string | undefined;
}

/** One connection attempt of {@link SseTransport}. */
export interface SseConnectOptions {
  url: string;
  method: string;
  /** A plain object: fetch-event-source copies headers with `Object.assign`, so a `Headers` is lost. */
  headers: Readonly<Record<string, string>>;
  body?: string | undefined;
  /** Values redacted from every error (the token). */
  secrets: readonly string[];
  /** Ends the attempt; the promise then resolves `'aborted'`. */
  signal: AbortSignal;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /**
   * With no byte received for this long (response headers included), the attempt fails with an
   * `AgentNetworkError`: a half-open socket becomes a drop. (`RunStream` always passes one: see
   * its `idleTimeoutMs`.)
   * @default undefined (off)
   */
  idleTimeoutMs?: number | undefined;
  /**
   * The most bytes one event may take (its lines from one blank line to the next, as received,
   * line breaks not counted; comments count too). Past it the attempt fails at once with an
   * `AgentEventTooLargeError` and the connection closes: nothing holds more than this.
   * @default 4194304 (4 MiB)
   */
  maxEventSize?: number | undefined;
  /** The response opened: a 2xx `text/event-stream`. */
  onOpen?: ((response: Response) => void) | undefined;
  /** An event with data. A throw ends the attempt with that error (it is never retried here). */
  onMessage: (message: SseMessage) => void;
  /** A frame that set an `id:` but carried no data (not an event, but the last event id moves). */
  onId?: ((id: string) => void) | undefined;
  /** The server's `retry:` field, in ms. */
  onRetry?: ((retryMs: number) => void) | undefined;
}

/**
 * How an attempt ended: `'closed'` when the server ended the response, `'aborted'` when `signal`
 * did. It rejects with an `AgentHttpError` (non-2xx status), an `AgentValidationError`
 * (a 2xx that is not `text/event-stream`), an `AgentNetworkError` (no response, a dropped
 * connection, the idle timeout; `onOpen` tells which side of the response it happened on) or the
 * error an `onMessage` threw. It never retries by itself.
 */
export type SseTransport = (options: SseConnectOptions) => Promise<SseAttemptResult>;

export interface SseAttemptResult {
  outcome: 'closed' | 'aborted';
}

/**
 * The transport over `@microsoft/fetch-event-source`: exactly one `fetchEventSource` call per
 * attempt, with its own behaviours that do not suit a run (every POST starts a run) wrapped:
 *
 * - `openWhenHidden: true`: otherwise hiding the tab aborts the request and showing it re-POSTs.
 * - `onerror` rethrows: otherwise it retries forever (HTTP errors and handler throws included).
 * - An already-aborted signal is ignored by it (its listener never fires): checked before calling.
 * - On abort its promise resolves like a clean close: the outcome is read from our own signal.
 * - It dispatches a message on every blank line, data or not (heartbeat comments, a lone `retry:`):
 *   those are not events (SSE spec), but their `id:` still moves the last event id.
 * - Headers are a plain object, and `Accept` is written as `accept`: it adds a lowercase `accept`
 *   when that exact key is absent, which would send `Accept` twice.
 * - It keeps dispatching the rest of a chunk after an abort: callers guard their own handlers.
 * - It copies its whole line buffer on every chunk (an endless line is quadratic), skips a field
 *   without a colon, passes an `id:` holding NUL on, forgets the last event id on a frame without
 *   `id:` and reads `retry:` with parseInt: the body reaches it through
 *   {@link createEventStreamScanner} (whole lines only, an event's size bounded, the byte order
 *   mark stripped, the colon added), which reads the ids and `retry:` as the standard does.
 * - Still not as the standard (test/sse-conformance-corpus.ts lists them): empty `data:` values
 *   before a value or alone are dropped, and a byte order mark that starts a field name or a value
 *   is dropped.
 * - It needs `window` and `document` (timers, visibility): where either is missing the attempt
 *   goes through {@link fetchSseTransport} instead.
 */
export const fetchEventSourceTransport: SseTransport = async (options) => {
  const { signal } = options;
  if (signal.aborted) return { outcome: 'aborted' };
  if (!hasBrowserGlobals()) return fetchSseTransport(options);

  const attempt = startAttempt(signal, options.idleTimeoutMs);
  let opened = false;
  let handlerError: { error: unknown } | undefined;
  const scanner = createEventStreamScanner(options.maxEventSize ?? defaultMaxEventSize, {
    wholeLines: true,
  });

  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetchScanned: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    attempt.touch();
    if (!response.ok || response.body === null) return response;
    return new Response(scannedBody(response.body, scanner, attempt), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  const request = {
    url: options.url,
    method: options.method,
    secrets: options.secrets,
    idleTimeoutMs: options.idleTimeoutMs,
  };

  try {
    await fetchEventSource(options.url, {
      method: options.method,
      headers: eventStreamHeaders(options.headers),
      body: options.body,
      signal: attempt.signal,
      openWhenHidden: true,
      fetch: fetchScanned,
      async onopen(response) {
        await checkEventStreamResponse(response, request);
        opened = true;
        options.onOpen?.(response);
      },
      onmessage(message: EventSourceMessage) {
        // One entry per dispatch, taken even when nothing is dispatched, to stay in step.
        const frame = scanner.takeFrame();
        if (handlerError !== undefined) return;
        try {
          // Its own reading of `retry:` is parseInt (`12x` is 12, `-1` is -1): the scanner's instead.
          if (frame?.retry !== undefined) options.onRetry?.(frame.retry);
          if (message.data === '') {
            if (frame?.id !== undefined && frame.id !== '') options.onId?.(frame.id);
            return;
          }
          options.onMessage(asSseMessage(message, frame?.id, frame?.lastEventId ?? ''));
        } catch (error) {
          handlerError = { error };
          throw error;
        }
      },
      onerror(error: unknown) {
        // Rethrowing is the only way to stop fetch-event-source's own retry loop.
        throw error;
      },
    });
  } catch (error) {
    if (handlerError !== undefined) throw handlerError.error;
    if (scanner.exceeded !== undefined && !signal.aborted) throw scanner.exceeded;
    throw attemptFailure(error, attempt, opened, request);
  } finally {
    attempt.end();
  }

  if (attempt.idleTimedOut && !signal.aborted) throw idleTimeoutError(request);
  if (scanner.exceeded !== undefined && !signal.aborted) throw scanner.exceeded;
  return { outcome: signal.aborted ? 'aborted' : 'closed' };
};

/**
 * fetch-event-source's message as an {@link SseMessage}, normalized in place (the ids as the
 * scanner read them, `id` undefined when empty, `event` `message` when unnamed) rather than
 * copied: it makes a new object per event and keeps none after dispatching it, so no second
 * object per event. (Its `retry` field stays.)
 */
function asSseMessage(
  message: EventSourceMessage,
  id: string | undefined,
  lastEventId: string,
): SseMessage {
  const normalized = message as Omit<EventSourceMessage, 'id'> & SseMessage;
  normalized.id = id === '' ? undefined : id;
  normalized.lastEventId = lastEventId;
  if (normalized.event === '') normalized.event = 'message';
  return normalized;
}

/**
 * The transport a `RunStream` uses unless told otherwise: {@link fetchEventSourceTransport}
 * where `window` and `document` exist (browsers, jsdom), {@link fetchSseTransport} elsewhere
 * (Node, Deno, Bun, workers, server routes). Chosen per attempt.
 */
export const defaultSseTransport: SseTransport = (options) =>
  hasBrowserGlobals() ? fetchEventSourceTransport(options) : fetchSseTransport(options);

function hasBrowserGlobals(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}
