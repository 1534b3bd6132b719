import {
  AgentHttpError,
  AgentNetworkError,
  AgentValidationError,
  readErrorResponse,
  toNetworkError,
} from './errors.js';
import { concatBytes } from '../base/bytes.js';
import { redactError, redactText } from './secrets.js';

// One attempt of a run stream: the idle watch, the response check and the errors an attempt ends
// with (the client's side), and the byte scanner both transports read the body through.

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

/** What the frame that a blank line ended set, as the SSE standard reads its `id:` and `retry:`. */
export interface FrameIds {
  /** The frame's own last valid `id:` value; undefined without one (an id holding NUL is none). */
  id: string | undefined;
  /** The stream's last event id after this frame (`''` before any id, or after an empty one). */
  lastEventId: string;
  /** The frame's last valid `retry:` (ASCII digits only), in ms. */
  retry: number | undefined;
}

/** Takes the bytes a scan hands on, in order (an empty part may come). */
export type ScannedBytes = (part: Uint8Array<ArrayBuffer>) => void;

/** Reads the bytes of an event stream ahead of its parser: see {@link createEventStreamScanner}. */
export interface EventStreamScanner {
  /**
   * Hands `emit` the bytes to pass on for `chunk`: the chunk itself when nothing changes. Past the
   * bound it hands on the bytes before, sets {@link exceeded} and reads nothing more: the events
   * complete before it still reach the parser.
   */
  scan(chunk: Uint8Array<ArrayBuffer>, emit: ScannedBytes): void;
  /** Set once an event passed the bound: the attempt ends with it. */
  readonly exceeded: AgentEventTooLargeError | undefined;
  /** Hands `emit` what is held at the end of the stream (the unfinished last line, with `wholeLines`). */
  flush(emit: ScannedBytes): void;
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
const idName = [105, 100];
const retryName = [114, 101, 116, 114, 121];
const idLineStart = [...idName, colon];
const retryLineStart = [...retryName, colon];
const idField = 1;
const retryField = 2;
const asciiDigits = /^[0-9]+$/;

// What is known of the open line (one that goes on in the next chunk).
const noOpenLine = 0;
/** Its bytes so far are the start of `id:` or `retry:`: held, since it may be read. */
const prefixLine = 1;
/** An `id:` or `retry:` line: held whole, to be read when it ends. */
const valueLine = 2;
/** It has its colon and is not read here. */
const colonLine = 3;
/** No colon yet, and it is not read here. */
const nameLine = 4;

/**
 * A byte scanner that both transports put between the response body and their parser. It finds
 * each line end with `indexOf` and looks at a line's name only (the bytes up to its colon); it
 * reads the value of `id:` and `retry:` alone, and keeps nothing else:
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
  const fields = createFieldReader();
  const stripByteOrderMark = createByteOrderMarkStrip();
  let exceeded: AgentEventTooLargeError | undefined;
  let eventBytes = 0;
  // The last chunk ended with a CR: a LF that starts the next one is the rest of a CRLF.
  let afterCarriageReturn = false;
  let openLine = noOpenLine;
  const held = new ByteBuffer();
  // With `wholeLines`: the parts of the unfinished line, held.
  const unfinished: Uint8Array<ArrayBuffer>[] = [];

  /** Just after the line break at `lineEnd` (a CRLF whole, or its CR when the chunk ends there). */
  const afterLineBreak = (chunk: Uint8Array, lineEnd: number): number => {
    if (chunk[lineEnd] !== carriageReturn) return lineEnd + 1;
    if (lineEnd + 1 === chunk.length) {
      afterCarriageReturn = true;
      return lineEnd + 1;
    }
    return chunk[lineEnd + 1] === lineFeed ? lineEnd + 2 : lineEnd + 1;
  };

  const continueLine = (chunk: Uint8Array, start: number, end: number) => {
    if (openLine === noOpenLine) {
      openLine = prefixLine;
      held.clear();
    }
    advanceOpenLine(chunk, start, end);
  };

  /** The open line ends at `end`; false when a colon must be added there. */
  const endOpenLine = (chunk: Uint8Array, start: number, end: number): boolean => {
    advanceOpenLine(chunk, start, end);
    const kind = openLine;
    openLine = noOpenLine;
    if (kind === colonLine) return true;
    if (kind === nameLine) return false;
    const hasColon = fields.readLine(held.bytes, 0, held.length);
    held.clear();
    return hasColon;
  };

  const advanceOpenLine = (chunk: Uint8Array, start: number, end: number) => {
    let from = start;
    // At most six bytes: by then the line is `retry:` or none read here.
    while (openLine === prefixLine && from < end) {
      held.push(chunk[from++] as number);
      openLine = openLineKind(held.bytes, held.length);
    }
    if (openLine === valueLine) held.append(chunk, from, end);
    else if (openLine === nameLine && indexOfColon(chunk, from, end) !== -1) openLine = colonLine;
  };

  return {
    takeFrame: () => fields.takeFrame(),
    get exceeded() {
      return exceeded;
    },
    flush(emit) {
      for (const part of unfinished.splice(0)) emit(part);
    },
    scan(input, emit) {
      if (exceeded !== undefined) return;
      const chunk = stripByteOrderMark(input);
      if (chunk === undefined || chunk.length === 0) return;
      const length = chunk.length;
      let position = 0;
      if (afterCarriageReturn) {
        afterCarriageReturn = false;
        if (chunk[0] === lineFeed) position = 1;
      }
      // Just after the chunk's first and last line breaks (0: none).
      let firstLinesEnd = 0;
      let linesEnd = position;
      // Where a colon is added: the ends of lines that have none (seldom).
      let colonsAt: number[] | undefined;
      // The next LF and CR at or after where they were looked for (-1: none left; -2: not yet).
      let nextLineFeed = -2;
      let nextCarriageReturn = -2;
      while (position < length) {
        const first = chunk[position];
        // A blank line (one in two in a stream of small events) needs no search.
        if ((first === lineFeed || first === carriageReturn) && openLine === noOpenLine) {
          fields.endFrame();
          eventBytes = 0;
          position = afterLineBreak(chunk, position);
          if (firstLinesEnd === 0) firstLinesEnd = position;
          linesEnd = position;
          continue;
        }
        if (nextLineFeed !== -1 && nextLineFeed < position) {
          nextLineFeed = chunk.indexOf(lineFeed, position);
        }
        if (nextCarriageReturn !== -1 && nextCarriageReturn < position) {
          nextCarriageReturn = chunk.indexOf(carriageReturn, position);
        }
        const lineEnd =
          nextCarriageReturn === -1 || (nextLineFeed !== -1 && nextLineFeed < nextCarriageReturn)
            ? nextLineFeed
            : nextCarriageReturn;
        const end = lineEnd === -1 ? length : lineEnd;
        if (end - position > maxEventSize - eventBytes) {
          // An event passes the bound: what came before it is handed on, and no more.
          exceeded = new AgentEventTooLargeError(maxEventSize);
          const boundAt = position + maxEventSize - eventBytes;
          if (!wholeLines) emitWithColons(chunk, boundAt, colonsAt, emit);
          else if (linesEnd > 0) {
            emitWholeLines(chunk, firstLinesEnd, linesEnd, colonsAt, unfinished, emit);
          }
          // With `wholeLines`, the line that passed the bound is dropped.
          unfinished.length = 0;
          return;
        }
        eventBytes += end - position;
        if (lineEnd === -1) {
          continueLine(chunk, position, end);
          break;
        }
        const hasColon =
          openLine === noOpenLine
            ? fields.readLine(chunk, position, lineEnd)
            : endOpenLine(chunk, position, lineEnd);
        if (!hasColon) (colonsAt ??= []).push(lineEnd);
        position = afterLineBreak(chunk, lineEnd);
        if (firstLinesEnd === 0) firstLinesEnd = position;
        linesEnd = position;
      }
      if (!wholeLines) {
        emitWithColons(chunk, length, colonsAt, emit);
      } else if (linesEnd === 0) {
        unfinished.push(chunk);
      } else {
        emitWholeLines(chunk, firstLinesEnd, linesEnd, colonsAt, unfinished, emit);
        if (linesEnd < length) unfinished.push(chunk.subarray(linesEnd));
      }
    },
  };
}

/**
 * The held parts (taken from `unfinished`) and `chunk` up to `linesEnd` (just after its last line
 * break), with the colons added. Positional parameters: it runs once per chunk.
 */
function emitWholeLines(
  chunk: Uint8Array<ArrayBuffer>,
  firstLinesEnd: number,
  linesEnd: number,
  colonsAt: readonly number[] | undefined,
  unfinished: Uint8Array<ArrayBuffer>[],
  emit: ScannedBytes,
): void {
  if (colonsAt === undefined) {
    if (unfinished.length === 0) {
      emit(linesEnd === chunk.length ? chunk : chunk.subarray(0, linesEnd));
      return;
    }
    // The held line ends at this chunk's first line break: only that much is joined.
    unfinished.push(chunk.subarray(0, firstLinesEnd));
    emit(concatBytes(unfinished.splice(0)));
    emit(chunk.subarray(firstLinesEnd, linesEnd));
    return;
  }
  // One array, so that fetch-event-source is never handed a part of a line.
  const parts = unfinished.splice(0);
  let from = 0;
  for (const at of colonsAt) {
    parts.push(chunk.subarray(from, at), colonBytes);
    from = at;
  }
  parts.push(chunk.subarray(from, linesEnd));
  emit(concatBytes(parts));
}

/** `chunk` up to `end`, with a colon at each of `colonsAt`. */
function emitWithColons(
  chunk: Uint8Array<ArrayBuffer>,
  end: number,
  colonsAt: readonly number[] | undefined,
  emit: ScannedBytes,
): void {
  let from = 0;
  for (const at of colonsAt ?? []) {
    emit(chunk.subarray(from, at));
    emit(colonBytes);
    from = at;
  }
  emit(from === 0 && end === chunk.length ? chunk : chunk.subarray(from, end));
}

/**
 * The `id:` and `retry:` fields of whole lines as the standard reads them, and one
 * {@link FrameIds} entry per blank line.
 */
function createFieldReader() {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let frames: FrameIds[] = [];
  let framesTaken = 0;
  let lastEventId = '';
  let frameId: string | undefined;
  let frameRetry: number | undefined;

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

  return {
    /**
     * Reads the line from `start` to `end` (whole, not blank); false when it has no colon (its
     * name is then the whole line, and its value empty).
     */
    readLine(bytes: Uint8Array, start: number, end: number): boolean {
      const colonAt = indexOfColon(bytes, start, end);
      const field = fieldNamed(bytes, start, colonAt === -1 ? end : colonAt);
      if (field === 0) return colonAt !== -1;
      let valueStart = colonAt === -1 ? end : colonAt + 1;
      if (valueStart < end && bytes[valueStart] === space) valueStart++;
      const value = decodeValue(bytes, valueStart, end);
      if (field === retryField) {
        if (asciiDigits.test(value)) frameRetry = Number(value);
      } else if (!value.includes('\0')) {
        frameId = value;
        lastEventId = value;
      }
      return colonAt !== -1;
    },
    /** A blank line: the frame's entry. */
    endFrame() {
      frames.push({ id: frameId, lastEventId, retry: frameRetry });
      frameId = undefined;
      frameRetry = undefined;
    },
    takeFrame(): FrameIds | undefined {
      if (framesTaken >= frames.length) return undefined;
      const frame = frames[framesTaken++];
      if (framesTaken === frames.length) {
        frames = [];
        framesTaken = 0;
      }
      return frame;
    },
  };
}

/** Drops one byte order mark at the start of the stream (split across chunks too), and only there. */
function createByteOrderMarkStrip(): (
  chunk: Uint8Array<ArrayBuffer>,
) => Uint8Array<ArrayBuffer> | undefined {
  // The stream's first bytes while they may still be a mark; undefined once decided.
  let pending: Uint8Array<ArrayBuffer> | undefined = new Uint8Array(0);
  return (chunk) => {
    if (pending === undefined) return chunk;
    const bytes = pending.length === 0 ? chunk : concatBytes([pending, chunk]);
    const checked = Math.min(bytes.length, byteOrderMark.length);
    for (let index = 0; index < checked; index++) {
      if (bytes[index] !== byteOrderMark[index]) {
        pending = undefined;
        return bytes;
      }
    }
    if (bytes.length < byteOrderMark.length) {
      pending = bytes;
      return undefined;
    }
    pending = undefined;
    return bytes.subarray(byteOrderMark.length);
  };
}

/** What the `length` held bytes of an open line tell about it. */
function openLineKind(bytes: Uint8Array, length: number): number {
  const last = bytes[length - 1];
  if (isStartOf(bytes, length, idLineStart) || isStartOf(bytes, length, retryLineStart)) {
    return last === colon ? valueLine : prefixLine;
  }
  return last === colon ? colonLine : nameLine;
}

/** Whether the first `length` bytes are `name` or its start. */
function isStartOf(bytes: Uint8Array, length: number, name: readonly number[]): boolean {
  if (length > name.length) return false;
  for (let index = 0; index < length; index++) {
    if (bytes[index] !== name[index]) return false;
  }
  return true;
}

/** Which of the names read here the bytes from `start` to `end` are (0: none). */
function fieldNamed(bytes: Uint8Array, start: number, end: number): number {
  if (end - start === idName.length && isAt(bytes, start, idName)) return idField;
  if (end - start === retryName.length && isAt(bytes, start, retryName)) return retryField;
  return 0;
}

function isAt(bytes: Uint8Array, start: number, name: readonly number[]): boolean {
  for (let index = 0; index < name.length; index++) {
    if (bytes[start + index] !== name[index]) return false;
  }
  return true;
}

/** The first colon from `start` to `end` (-1: none); a field name is short, so byte by byte. */
function indexOfColon(bytes: Uint8Array, start: number, end: number): number {
  for (let index = start; index < end; index++) {
    if (bytes[index] === colon) return index;
  }
  return -1;
}

/**
 * Bytes appended in place, the room doubled as it fills: a line held over many small chunks is
 * copied about twice in all, not once per chunk.
 */
class ByteBuffer {
  bytes = new Uint8Array(64);
  length = 0;

  push(byte: number): void {
    this.reserve(1);
    this.bytes[this.length++] = byte;
  }

  append(source: Uint8Array, start: number, end: number): void {
    if (end <= start) return;
    this.reserve(end - start);
    this.bytes.set(source.subarray(start, end), this.length);
    this.length += end - start;
  }

  clear(): void {
    this.length = 0;
    // A long `id:` line held once does not keep its room for the rest of the stream.
    if (this.bytes.length > 4096) this.bytes = new Uint8Array(64);
  }

  private reserve(count: number): void {
    if (this.length + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.length + count, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/**
 * The response body through `scanner`, each chunk a sign of life (`onActivity`). Once the scanner
 * saw an event pass the bound the stream ends (the bytes before it delivered) and the body is
 * cancelled, which closes the connection: the transport then fails with `scanner.exceeded`.
 */
export function scannedBody(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  scanner: EventStreamScanner,
  onActivity: (() => void) | undefined,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let enqueue: ScannedBytes = () => undefined;
  return body.pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      start(controller) {
        enqueue = (part) => {
          if (part.length > 0) controller.enqueue(part);
        };
      },
      transform(chunk, controller) {
        onActivity?.();
        scanner.scan(chunk, enqueue);
        if (scanner.exceeded !== undefined) controller.terminate();
      },
      flush() {
        scanner.flush(enqueue);
      },
    }),
  );
}
