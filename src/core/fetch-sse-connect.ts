import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { SseConnectOptions, SseTransport } from './sse-transport.js';
import {
  attemptFailure,
  checkEventStreamResponse,
  eventStreamHeaders,
  startAttempt,
} from './sse-attempt.js';

/** {@link fetchSseTransport}'s body, in a module of its own so that browsers never load it. */
export const connectWithFetch: SseTransport = async (options) => {
  const { signal } = options;
  if (signal.aborted) return { outcome: 'aborted' };

  const attempt = startAttempt(signal, options.idleTimeoutMs);
  const request = {
    url: options.url,
    method: options.method,
    secrets: options.secrets,
    idleTimeoutMs: options.idleTimeoutMs,
  };
  const fetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let opened = false;
  let handlerError: { error: unknown } | undefined;

  try {
    const response = await fetchFunction(options.url, {
      method: options.method,
      headers: eventStreamHeaders(options.headers),
      ...(options.body === undefined ? {} : { body: options.body }),
      signal: attempt.signal,
    });
    attempt.touch();
    await checkEventStreamResponse(response, request);
    opened = true;
    options.onOpen?.(response);
    if (response.body === null) return { outcome: 'closed' };

    const frames = createFrameReader(options, (error) => {
      handlerError = { error };
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        frames.end();
        break;
      }
      attempt.touch();
      frames.feed(value);
      if (handlerError !== undefined) break;
      if (signal.aborted) break;
    }
  } catch (error) {
    if (handlerError !== undefined) throw handlerError.error;
    if (signal.aborted) return { outcome: 'aborted' };
    throw attemptFailure(error, attempt, opened, request);
  } finally {
    attempt.end();
    // Ends the body that is still open after a handler threw (no-op after a clean end).
    attempt.abort();
  }

  if (handlerError !== undefined) throw handlerError.error;
  return { outcome: signal.aborted ? 'aborted' : 'closed' };
};

/**
 * Reads the decoded text of a stream into {@link SseConnectOptions}' callbacks. eventsource-parser
 * parses the fields; the text is handed to it line by line (CRLF, CR and LF, also split across
 * chunks) because it drops a frame that set `id:` without data, and by the SSE spec such a frame
 * still moves the last event id: `onId` gets it here, in order with the events around it.
 * After a callback throws, nothing more is read or dispatched.
 */
function createFrameReader(
  options: SseConnectOptions,
  onHandlerError: (error: unknown) => void,
): { feed(text: string): void; end(): void } {
  let failed = false;
  const guard = (callback: () => void) => {
    if (failed) return;
    try {
      callback();
    } catch (error) {
      failed = true;
      onHandlerError(error);
    }
  };
  const parser: EventSourceParser = createParser({
    onEvent: (event) =>
      guard(() => {
        if (event.data === '') {
          if (event.id !== undefined && event.id !== '') options.onId?.(event.id);
          return;
        }
        options.onMessage({
          id: event.id === '' ? undefined : event.id,
          event: event.event ?? 'message',
          data: event.data,
        });
      }),
    onRetry: (retryMs) => guard(() => options.onRetry?.(retryMs)),
  });

  // The unfinished line, in parts: a long line that comes in many chunks is joined once.
  const pending: string[] = [];
  let firstChunk = true;
  let frameHasData = false;
  let frameId: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      if (!frameHasData && frameId !== undefined && frameId !== '') {
        const id = frameId;
        guard(() => options.onId?.(id));
      }
      frameHasData = false;
      frameId = undefined;
    } else {
      const colon = text.indexOf(':');
      const field = colon === -1 ? text : text.slice(0, colon);
      if (field === 'data') frameHasData = true;
      if (field === 'id') {
        const value = colon === -1 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
        if (!value.includes('\0')) frameId = value;
      }
    }
    parser.feed(`${text}\n`);
  };

  return {
    feed(chunk) {
      // A byte order mark opens the stream only (eventsource-parser drops it there too).
      const text = firstChunk && chunk.startsWith('\uFEFF') ? chunk.slice(1) : chunk;
      firstChunk = false;
      if (!/[\r\n]/.test(text)) {
        pending.push(text);
        return;
      }
      let input = pending.join('') + text;
      pending.length = 0;
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      const heldCarriageReturn = input.endsWith('\r');
      if (heldCarriageReturn) input = input.slice(0, -1);
      const lines = input.split(/\r\n|\r|\n/);
      const last = lines.pop() ?? '';
      pending.push(heldCarriageReturn ? `${last}\r` : last);
      for (const each of lines) {
        if (failed) return;
        line(each);
      }
    },
    end() {
      // The stream ended after a CR: it ended that line (no LF can follow any more).
      const rest = pending.join('');
      if (rest.endsWith('\r') && !failed) line(rest.slice(0, -1));
    },
  };
}
