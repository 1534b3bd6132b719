import {
  AgentHttpError,
  AgentNetworkError,
  AgentValidationError,
  readErrorResponse,
  redact,
  toNetworkError,
} from './errors.js';

// What both SSE transports share about one attempt: the idle watch, the response check and the
// errors an attempt ends with, so both fail the same way under the same faults.

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
    redact(
      `The connection to ${request.url} dropped mid-stream: ${describe(error)}`,
      request.secrets,
    ),
    { url: request.url, cause: error },
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
    this.name = 'AgentEventTooLargeError';
    this.maxEventSize = maxEventSize;
  }
}

/** What the frame that a blank line ended set, as the SSE standard reads its `id:` and `retry:`. */
export interface FrameIds {
  /** The frame's own last valid `id:` value; undefined without one (an id holding NUL is none). */
  id: string | undefined;
  /** The stream's last event id after this frame (`''` before any id, or after an empty one). */
  lastEventId: string;
  /** The frame's last valid `retry:` (ASCII digits only), in ms. */
  retry: number | undefined;
}

/** Reads the bytes of an event stream ahead of its parser: see {@link createEventStreamScanner}. */
export interface EventStreamScanner {
  /**
   * The bytes to hand on for `chunk`. Past the bound it hands on the bytes before, sets
   * {@link exceeded} and reads nothing more: the events complete before it still reach the parser.
   */
  scan(chunk: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>[];
  /** Set once an event passed the bound: the attempt ends with it. */
  readonly exceeded: AgentEventTooLargeError | undefined;
  /** What is held at the end of the stream (the unfinished last line, with `wholeLines`). */
  flush(): Uint8Array<ArrayBuffer>[];
  /**
   * The oldest entry not yet taken, one per blank line scanned, in order (undefined when none).
   * A head index rather than `Array#shift`, which moves every entry left on a large queue.
   */
  takeFrame(): FrameIds | undefined;
}

const lineFeed = 10;
const carriageReturn = 13;
const colon = 58;
const space = 32;
const colonBytes: Uint8Array<ArrayBuffer> = new Uint8Array([colon]);
const byteOrderMark = [0xef, 0xbb, 0xbf];
// The field names read here, byte by byte: a line's name is one of them while its bit stays set
// (small integers only: no number is boxed per byte).
const idName = [105, 100];
const retryName = [114, 101, 116, 114, 121];
const idField = 1;
const retryField = 2;
const asciiDigits = /^[0-9]+$/;

/**
 * A byte scanner that both transports put between the response body and their parser, one pass
 * per byte and nothing kept but an `id:` value:
 *
 * - It bounds an event: past `maxEventSize` bytes since the last blank line it stops, so the
 *   parser never holds more than that, whatever the server sends (and fetch-event-source, which
 *   copies its whole line buffer on every chunk, never goes quadratic on an endless line).
 * - It drops one byte order mark at the start of the stream (split across chunks too), and only
 *   there: decoders and parsers downstream must not strip another.
 * - It reads `id:` fields as the standard does (a value holding NUL is ignored; the last event id
 *   persists across frames), and `retry:` (ASCII digits only), one entry per blank line
 *   ({@link EventStreamScanner.takeFrame}): fetch-event-source dispatches on every blank line, so
 *   its n-th dispatch is the n-th entry.
 * - It writes a colon after a field that has none (`data` alone is `data:`), which
 *   fetch-event-source would otherwise skip; for a parser that follows the standard it is the same.
 * - With `wholeLines`, it hands on whole lines only and holds the unfinished one (its parts,
 *   joined once when the line ends): fetch-event-source copies its buffer on every chunk while a
 *   line is unfinished, so a large event that comes in many chunks would be copied once per chunk.
 */
export function createEventStreamScanner(
  maxEventSize: number,
  { wholeLines = false }: { wholeLines?: boolean } = {},
): EventStreamScanner {
  let frames: FrameIds[] = [];
  let framesTaken = 0;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let lastEventId = '';
  let frameId: string | undefined;
  let frameRetry: number | undefined;
  let eventBytes = 0;
  let lineBytes = 0;
  let afterCarriageReturn = false;
  let colonSeen = false;
  let field = idField | retryField;
  let fieldLength = 0;
  // While an `id:` or `retry:` value is read: which, its parts from earlier chunks, and whether a
  // space may lead it.
  let valueField = 0;
  let readingValue = false;
  // The value's bytes from earlier chunks (a value seldom spans chunks).
  const valueParts: Uint8Array[] = [];
  let valueLeadingSpace = false;
  let bomPending: Uint8Array<ArrayBuffer> | undefined = new Uint8Array(0);
  let exceeded: AgentEventTooLargeError | undefined;
  // With `wholeLines`: the parts of the unfinished line, held.
  const unfinished: Uint8Array<ArrayBuffer>[] = [];

  // An id is mostly a few ASCII digits: read as such without a TextDecoder call per event.
  const decodeValue = (bytes: Uint8Array, start: number, end: number): string => {
    if (end - start <= 32) {
      let text = '';
      let index = start;
      for (; index < end; index++) {
        const byte = bytes[index] as number;
        if (byte >= 0x80) break;
        text += String.fromCharCode(byte);
      }
      if (index === end) return text;
    }
    return decoder.decode(bytes.subarray(start, end));
  };

  const applyValue = (name: number, value: string) => {
    if (name === retryField) {
      if (asciiDigits.test(value)) frameRetry = Number(value);
      return;
    }
    if (value.includes('\0')) return;
    frameId = value;
    lastEventId = value;
  };

  const startOfStream = (chunk: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> | undefined => {
    const held = bomPending ?? new Uint8Array(0);
    const bytes = held.length === 0 ? chunk : concatBytes(held, chunk);
    const checked = Math.min(bytes.length, byteOrderMark.length);
    for (let index = 0; index < checked; index++) {
      if (bytes[index] !== byteOrderMark[index]) {
        bomPending = undefined;
        return bytes;
      }
    }
    if (bytes.length < byteOrderMark.length) {
      bomPending = bytes;
      return undefined;
    }
    bomPending = undefined;
    return bytes.subarray(byteOrderMark.length);
  };

  return {
    takeFrame() {
      if (framesTaken >= frames.length) return undefined;
      const frame = frames[framesTaken++];
      if (framesTaken === frames.length) {
        frames = [];
        framesTaken = 0;
      }
      return frame;
    },
    get exceeded() {
      return exceeded;
    },
    flush() {
      return unfinished.splice(0);
    },
    scan(input) {
      if (exceeded !== undefined) return [];
      let chunk = input;
      if (bomPending !== undefined) {
        const rest = startOfStream(input);
        if (rest === undefined) return [];
        chunk = rest;
      }
      const output: Uint8Array<ArrayBuffer>[] = [];
      let emitFrom = 0;
      // Just after the last line break of this chunk (0: none yet).
      let linesEnd = 0;
      let valueStart = 0;
      const length = chunk.length;
      // The next line feed and carriage return at or after where they were looked for (-1: none
      // left in this chunk; -2: not looked for yet).
      let nextLineFeed = -2;
      let nextCarriageReturn = -2;
      for (let index = 0; index < length; index++) {
        const byte = chunk[index] as number;
        if (byte === lineFeed || byte === carriageReturn) {
          linesEnd = index + 1;
          if (byte === lineFeed && afterCarriageReturn) {
            afterCarriageReturn = false;
            continue;
          }
          afterCarriageReturn = byte === carriageReturn;
          if (lineBytes === 0) {
            frames.push({ id: frameId, lastEventId, retry: frameRetry });
            frameId = undefined;
            frameRetry = undefined;
            eventBytes = 0;
            continue;
          }
          if (!colonSeen) {
            output.push(chunk.subarray(emitFrom, index), colonBytes);
            emitFrom = index;
            applyValue(fieldAt(field, fieldLength), '');
          } else if (readingValue) {
            if (valueParts.length === 0) {
              applyValue(valueField, decodeValue(chunk, valueStart, index));
            } else {
              valueParts.push(chunk.subarray(valueStart, index));
              const value = concatAll(valueParts.splice(0));
              applyValue(valueField, decodeValue(value, 0, value.length));
            }
          }
          readingValue = false;
          valueLeadingSpace = false;
          lineBytes = 0;
          colonSeen = false;
          field = idField | retryField;
          fieldLength = 0;
          continue;
        }
        afterCarriageReturn = false;
        if (colonSeen && !readingValue) {
          // A value nothing reads here: straight to the end of the line.
          if (nextLineFeed !== -1 && nextLineFeed < index) {
            nextLineFeed = chunk.indexOf(lineFeed, index);
          }
          if (nextCarriageReturn !== -1 && nextCarriageReturn < index) {
            nextCarriageReturn = chunk.indexOf(carriageReturn, index);
          }
          const lineEnd = Math.min(
            nextLineFeed === -1 ? length : nextLineFeed,
            nextCarriageReturn === -1 ? length : nextCarriageReturn,
          );
          const room = maxEventSize - eventBytes;
          if (lineEnd - index <= room) {
            lineBytes += lineEnd - index;
            eventBytes += lineEnd - index;
            index = lineEnd - 1;
            continue;
          }
          index += room;
          eventBytes = maxEventSize;
        }
        lineBytes++;
        if (++eventBytes > maxEventSize) {
          exceeded = new AgentEventTooLargeError(maxEventSize);
          if (!wholeLines) {
            output.push(chunk.subarray(emitFrom, index));
            return output;
          }
          // What came before this event's lines, whole; the unfinished line is dropped.
          unfinished.length = 0;
          return linesEnd === 0 ? [] : wholeLinesOf(output, chunk, emitFrom, linesEnd);
        }
        if (colonSeen) {
          if (valueLeadingSpace) {
            valueLeadingSpace = false;
            if (byte === space) valueStart = index + 1;
          }
        } else if (byte === colon) {
          colonSeen = true;
          const name = fieldAt(field, fieldLength);
          if (name !== 0) {
            valueField = name;
            readingValue = true;
            valueStart = index + 1;
            valueLeadingSpace = true;
          }
        } else {
          if (byte !== idName[fieldLength]) field &= ~idField;
          if (byte !== retryName[fieldLength]) field &= ~retryField;
          fieldLength++;
        }
      }
      // A value that goes on in the next chunk: its bytes so far (bounded with the event).
      if (readingValue && valueStart < length) {
        valueParts.push(chunk.slice(valueStart));
      }
      if (!wholeLines) {
        output.push(emitFrom === 0 ? chunk : chunk.subarray(emitFrom));
        return output;
      }
      if (linesEnd === 0) {
        unfinished.push(chunk);
        return [];
      }
      const lines = wholeLinesOf(output, chunk, emitFrom, linesEnd);
      if (linesEnd < length) unfinished.push(chunk.subarray(linesEnd));
      return lines;
    },
  };

  /** The held parts, the `output` segments and `chunk` up to `linesEnd`, as one array. */
  function wholeLinesOf(
    output: Uint8Array<ArrayBuffer>[],
    chunk: Uint8Array<ArrayBuffer>,
    emitFrom: number,
    linesEnd: number,
  ): Uint8Array<ArrayBuffer>[] {
    if (unfinished.length > 0 && output.length === 0) {
      // The held line ends at this chunk's first line break: only that much is joined.
      const first = firstLinesEnd(chunk);
      unfinished.push(chunk.subarray(0, first));
      const joined = concatAll(unfinished.splice(0));
      return first === linesEnd ? [joined] : [joined, chunk.subarray(first, linesEnd)];
    }
    output.push(chunk.subarray(emitFrom, linesEnd));
    if (unfinished.length === 0 && output.length === 1) return output;
    const parts = unfinished.splice(0);
    parts.push(...output);
    return [concatAll(parts)];
  }
}

/** Which of the names read here a field of `length` bytes is (0: none), from its bits. */
function fieldAt(bits: number, length: number): number {
  if ((bits & idField) !== 0 && length === idName.length) return idField;
  if ((bits & retryField) !== 0 && length === retryName.length) return retryField;
  return 0;
}

/** Just after the first line break of `chunk` (a CRLF whole), or 0 without one. */
function firstLinesEnd(chunk: Uint8Array): number {
  for (let index = 0; index < chunk.length; index++) {
    const byte = chunk[index];
    if (byte === lineFeed) return index + 1;
    if (byte === carriageReturn) return chunk[index + 1] === lineFeed ? index + 2 : index + 1;
  }
  return 0;
}

function concatBytes(left: Uint8Array, right: Uint8Array): Uint8Array<ArrayBuffer> {
  const result = new Uint8Array(left.length + right.length);
  result.set(left);
  result.set(right, left.length);
  return result;
}

function concatAll(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  if (parts.length === 1) return parts[0] as Uint8Array<ArrayBuffer>;
  let length = 0;
  for (const part of parts) length += part.length;
  const result = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}

/**
 * The response body through `scanner`, each chunk a sign of life for `attempt`. Once the scanner
 * saw an event pass the bound the stream ends (the bytes before it delivered) and the body is
 * cancelled, which closes the connection: the transport then fails with `scanner.exceeded`.
 */
export function scannedBody(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  scanner: EventStreamScanner,
  attempt: Attempt,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  return body.pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      transform(chunk, controller) {
        attempt.touch();
        for (const part of scanner.scan(chunk)) {
          if (part.length > 0) controller.enqueue(part);
        }
        if (scanner.exceeded !== undefined) controller.terminate();
      },
      flush(controller) {
        for (const part of scanner.flush()) controller.enqueue(part);
      },
    }),
  );
}
