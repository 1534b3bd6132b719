import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import { fetchSseTransport } from './fetch-sse-transport.js';
import { createEventStreamScanner, defaultMaxEventSize, scannedBody } from './sse-attempt.js';
import { AgentInputError } from './errors.js';
import type { SseAttemptResult, SseMessage, SseReadOptions, SseTransport } from './sse-types.js';

/**
 * The transport over `@microsoft/fetch-event-source`: one `fetchEventSource` call per response,
 * handed the response the client already opened (its `fetch` answers it), with its own behaviours
 * that do not suit a run wrapped:
 *
 * - `openWhenHidden: true`: otherwise hiding the tab aborts the reading.
 * - `onerror` rethrows: otherwise it retries forever (handler throws included).
 * - An already-aborted signal is ignored by it (its listener never fires): checked before calling.
 * - On abort its promise resolves like a clean close: the outcome is read from the signal.
 * - It dispatches a message on every blank line, data or not (heartbeat comments, a lone `retry:`):
 *   those are not events (SSE spec), but their `id:` still moves the last event id.
 * - It keeps dispatching the rest of a chunk after an abort: callers guard their own handlers.
 * - It copies its whole line buffer on every chunk (an endless line is quadratic), skips a field
 *   without a colon, passes an `id:` holding NUL on, forgets the last event id on a frame without
 *   `id:` and reads `retry:` with parseInt: the body reaches it through
 *   {@link createEventStreamScanner} (whole lines only, an event's size bounded, the byte order
 *   mark stripped, the colon added), which reads the ids and `retry:` as the standard does.
 * - Still not as the standard (test/sse-conformance-corpus.ts lists them): empty `data:` values
 *   before a value or alone are dropped, and a byte order mark that starts a field name or a value
 *   is dropped.
 * - It needs `window` and `document` (timers, visibility): {@link defaultSseTransport} picks it only
 *   where both exist; named where they do not, it refuses before anything is sent.
 */
export const fetchEventSourceTransport: SseTransport = Object.assign(
  (response: Response, options: SseReadOptions) => readWithFetchEventSource(response, options),
  {
    preload: () => {
      if (hasBrowserGlobals()) return undefined;
      throw new AgentInputError(
        'fetchEventSourceTransport needs window and document (a browser); defaultSseTransport picks the transport of each runtime. Nothing was sent.',
      );
    },
  },
);

async function readWithFetchEventSource(
  response: Response,
  options: SseReadOptions,
): Promise<SseAttemptResult> {
  const { signal } = options;
  if (signal.aborted) return { outcome: 'aborted' };
  const body = response.body;
  if (body === null) return { outcome: 'closed' };

  let handlerError: { error: unknown } | undefined;
  const scanner = createEventStreamScanner(options.maxEventSize ?? defaultMaxEventSize, {
    wholeLines: true,
  });
  const scanned = new Response(scannedBody(body, scanner, options.onActivity), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });

  try {
    await fetchEventSource(response.url, {
      signal,
      openWhenHidden: true,
      fetch: () => Promise.resolve(scanned),
      // The client checked the response already.
      onopen: () => Promise.resolve(),
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
    throw error;
  }

  if (scanner.exceeded !== undefined && !signal.aborted) throw scanner.exceeded;
  return { outcome: signal.aborted ? 'aborted' : 'closed' };
}

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
 * The transport the client uses unless told otherwise, and the one place a transport is chosen:
 * {@link fetchEventSourceTransport} where `window` and `document` exist (browsers, jsdom),
 * {@link fetchSseTransport} elsewhere (Node, Deno, Bun, workers, server routes). Chosen per
 * response.
 */
export const defaultSseTransport: SseTransport = Object.assign(
  (response: Response, options: SseReadOptions) => runtimeTransport()(response, options),
  { preload: () => runtimeTransport().preload?.() },
);

function runtimeTransport(): SseTransport {
  return hasBrowserGlobals() ? fetchEventSourceTransport : fetchSseTransport;
}

function hasBrowserGlobals(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}
