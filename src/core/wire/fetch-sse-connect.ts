import { createParser, type EventSourceParser } from 'eventsource-parser';
import {
  createEventStreamScanner,
  defaultMaxEventSize,
  scannedBody,
  type EventStreamScanner,
} from './sse-attempt.js';
import type { SseReadOptions, SseTransport } from './sse-types.js';

/** {@link fetchSseTransport}'s body, in a module of its own so that browsers never load it. */
export const readEventStream: SseTransport = async (response, options) => {
  const { signal } = options;
  if (signal.aborted) return { outcome: 'aborted' };
  if (response.body === null) return { outcome: 'closed' };

  let handlerError: { error: unknown } | undefined;
  const scanner = createEventStreamScanner(options.maxEventSize ?? defaultMaxEventSize);
  const frames = createFrameReader(options, scanner, (error) => {
    handlerError = { error };
  });
  // The scanner strips the one byte order mark the stream may start with: no second one here.
  const reader = scannedBody(response.body, scanner, options.onActivity)
    .pipeThrough(new TextDecoderStream('utf-8', { ignoreBOM: true }))
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        // After the bound, what is left is the start of the event that passed it: never an event.
        if (scanner.exceeded === undefined) frames.end();
        break;
      }
      frames.feed(value);
      if (handlerError !== undefined) break;
      if (signal.aborted) break;
    }
  } catch (error) {
    if (handlerError !== undefined) throw handlerError.error;
    if (signal.aborted) return { outcome: 'aborted' };
    if (scanner.exceeded !== undefined) throw scanner.exceeded;
    throw error;
  }

  if (handlerError !== undefined) {
    // Ends the body that is still open after a handler threw.
    void reader.cancel().catch(() => undefined);
    throw handlerError.error;
  }
  if (signal.aborted) {
    void reader.cancel().catch(() => undefined);
    return { outcome: 'aborted' };
  }
  if (scanner.exceeded !== undefined) throw scanner.exceeded;
  return { outcome: 'closed' };
};

/**
 * Reads the decoded text of a stream into {@link SseReadOptions}' callbacks. eventsource-parser
 * parses the fields; the text is handed to it line by line (CRLF, CR and LF, also split across
 * chunks) because it drops a frame that set `id:` without data, and by the SSE spec such a frame
 * still moves the last event id: `onId` gets it here, in order with the events around it. The ids
 * come from `scanner` (one entry per blank line), which reads them as the standard does:
 * eventsource-parser forgets the last event id on a frame without `id:`.
 * After a callback throws, nothing more is read or dispatched.
 */
function createFrameReader(
  options: SseReadOptions,
  scanner: EventStreamScanner,
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
  let frameId: string | undefined;
  let lastEventId = '';
  const parser: EventSourceParser = createParser({
    onEvent: (event) =>
      guard(() => {
        if (event.data === '') {
          if (frameId !== undefined && frameId !== '') options.onId?.(frameId);
          return;
        }
        options.onMessage({
          id: frameId === '' ? undefined : frameId,
          event: event.event ?? 'message',
          data: event.data,
          lastEventId,
        });
      }),
    onRetry: (retryMs) => guard(() => options.onRetry?.(retryMs)),
  });
  // Spends eventsource-parser's own byte order mark check (on its first chunk; it reads the mark
  // as three Latin-1 characters): the scanner already dropped the one mark there may be.
  parser.feed('\n');

  // The unfinished line, in parts: a long line that comes in many chunks is joined once.
  const pending: string[] = [];
  let frameHasData = false;
  const line = (text: string) => {
    if (text === '') {
      const frame = scanner.takeFrame();
      frameId = frame?.id;
      lastEventId = frame?.lastEventId ?? lastEventId;
      if (!frameHasData && frameId !== undefined && frameId !== '') {
        const id = frameId;
        guard(() => options.onId?.(id));
      }
      frameHasData = false;
    } else {
      const colon = text.indexOf(':');
      if ((colon === -1 ? text : text.slice(0, colon)) === 'data') frameHasData = true;
    }
    parser.feed(`${text}\n`);
  };

  return {
    feed(text) {
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
