import { defaultMaxEventSize } from './sse-attempt.js';
import { createEventStreamScanner } from './sse-scanner.js';
import type { SseAttemptResult, SseReadOptions, SseTransport } from './sse-types.js';

/**
 * The transport the client uses unless told otherwise, in every runtime (browsers, Node 20+, Deno,
 * Bun, workers, server routes): the response body read with its own reader, each chunk handed to
 * the one scan of the stream (`createEventStreamScanner`), which dispatches the events. It needs no
 * `window` or `document` and loads nothing on demand, so nothing is chosen per runtime.
 *
 * After a callback throws, after an abort (even mid-chunk) or past `maxEventSize`, nothing more is
 * dispatched and the body is cancelled, which closes the connection.
 */
export const defaultSseTransport: SseTransport = async (
  response: Response,
  options: SseReadOptions,
): Promise<SseAttemptResult> => {
  const { signal } = options;
  if (signal.aborted) return { outcome: 'aborted' };
  const body = response.body;
  if (body === null) return { outcome: 'closed' };

  const scanner = createEventStreamScanner({
    maxEventSize: options.maxEventSize ?? defaultMaxEventSize,
    lastEventId: options.lastEventId,
    signal,
    onMessage: options.onMessage,
    onId: options.onId,
    onRetry: options.onRetry,
  });
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        ended = true;
        if (signal.aborted) return { outcome: 'aborted' };
        throw error;
      }
      if (chunk.done) {
        ended = true;
        break;
      }
      options.onActivity?.();
      scanner.scan(chunk.value);
      if (scanner.exceeded !== undefined) throw scanner.exceeded;
      if (signal.aborted) return { outcome: 'aborted' };
    }
  } finally {
    // The body still open after a throw, an abort or the bound: its connection is closed.
    if (!ended) void reader.cancel().catch(() => undefined);
  }
  return { outcome: signal.aborted ? 'aborted' : 'closed' };
};
