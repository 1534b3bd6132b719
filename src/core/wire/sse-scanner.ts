import { concatBytes } from '../base/bytes.js';
import { AgentEventTooLargeError } from './sse-attempt.js';
import type { SseMessage } from './sse-types.js';

// The one scan of an event stream's body (docs/decisions/0019-one-sse-scan.md): each byte is looked
// at once to find the line ends, and decoded once.

/** What {@link createEventStreamScanner} dispatches to; a throw ends the reading (it propagates). */
export interface EventStreamHandlers {
  /** An event with data (the standard's dispatch; an event whose data is empty is none). */
  onMessage: (message: SseMessage) => void;
  /** A frame that set an `id:` but carried no data: not an event, but the last event id moves. */
  onId?: ((id: string) => void) | undefined;
  /** A valid `retry:` field (ASCII digits only), in ms, as it is read. */
  onRetry?: ((retryMs: number) => void) | undefined;
}

export interface EventStreamScannerOptions extends EventStreamHandlers {
  /** See `SseReadOptions.maxEventSize`. */
  maxEventSize: number;
  /** The last event id the stream starts from (the one a reconnect sent): `''` for none. */
  lastEventId?: string | undefined;
  /** Once aborted, nothing more is dispatched (not even the rest of the chunk being read). */
  signal?: AbortSignal | undefined;
}

/** Reads an event stream's bytes, chunk by chunk: see {@link createEventStreamScanner}. */
export interface EventStreamScanner {
  /**
   * Reads `chunk`, dispatching each frame it completes, in order. Past the bound it sets
   * {@link exceeded} and reads nothing more: the events complete before it are dispatched.
   */
  scan(chunk: Uint8Array): void;
  /** Set once an event passed the bound: the attempt ends with it. */
  readonly exceeded: AgentEventTooLargeError | undefined;
}

const lineFeed = 10;
const carriageReturn = 13;
const colon = 58;
const space = 32;
const byteOrderMark = [0xef, 0xbb, 0xbf];
const dataName = [100, 97, 116, 97];
const eventName = [101, 118, 101, 110, 116];
const idName = [105, 100];
const retryName = [114, 101, 116, 114, 121];
const messageType = [109, 101, 115, 115, 97, 103, 101];
const asciiDigits = /^[0-9]+$/;

/**
 * The event stream parser of every runtime, as the SSE standard reads a stream (the byte order
 * mark, CRLF, CR and LF, a field without a colon, `id:` and `retry:`, the last event id kept across
 * frames and from the attempt's `Last-Event-ID`):
 *
 * - It finds a chunk's last line break from its end and decodes the whole lines before it with one
 *   `TextDecoder` call. When each byte became one character (ASCII: offsets in bytes and in
 *   characters agree) it reads them in that text, values sliced; otherwise it reads them in the
 *   bytes, a line end found with `indexOf`, the field name compared as bytes, a value decoded once.
 * - It bounds an event: past `maxEventSize` bytes since the last blank line (line breaks not
 *   counted, comments counted) it stops, so nothing holds more than that, whatever the server sends.
 * - A line that goes on in the next chunk is held as its parts, joined once when it ends: a large
 *   event that comes in many chunks is copied once, not once per chunk.
 * - It drops one byte order mark at the start of the stream (split across chunks too), and only
 *   there.
 */
export function createEventStreamScanner(options: EventStreamScannerOptions): EventStreamScanner {
  const { maxEventSize, signal, onMessage, onId, onRetry } = options;
  const stripByteOrderMark = createByteOrderMarkStrip();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let exceeded: AgentEventTooLargeError | undefined;
  let stopped = false;
  // Read once per frame: a flag rather than the signal's getter.
  let aborted = signal?.aborted === true;
  signal?.addEventListener(
    'abort',
    () => {
      aborted = true;
    },
    { once: true },
  );
  let eventBytes = 0;
  // The last chunk ended with a CR: a LF that starts the next one is the rest of a CRLF.
  let afterCarriageReturn = false;
  // The parts of the line that goes on in the next chunk.
  const held: Uint8Array[] = [];

  // The frame being read, and the stream's last event id (the standard's "last event ID buffer").
  let data = '';
  let hasData = false;
  let eventType = '';
  let frameId: string | undefined;
  let lastEventId = options.lastEventId ?? '';

  // An id or an event name is mostly a few ASCII characters: read without a TextDecoder call.
  const decode = (bytes: Uint8Array, start: number, end: number): string => {
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

  /** A blank line: the frame is dispatched (or its id alone noted), and a new one begins. */
  const endFrame = () => {
    if (aborted) {
      stopped = true;
      return;
    }
    const id = frameId;
    const text = data;
    const type = eventType;
    const carriesData = hasData && text !== '';
    frameId = undefined;
    data = '';
    hasData = false;
    eventType = '';
    if (carriesData) {
      onMessage({
        id: id === '' ? undefined : id,
        event: type === '' ? 'message' : type,
        data: text,
        lastEventId,
      });
    } else if (id !== undefined && id !== '') {
      onId?.(id);
    }
  };

  const setData = (value: string) => {
    data = hasData ? `${data}\n${value}` : value;
    hasData = true;
  };
  const setId = (value: string) => {
    if (value.includes('\0')) return;
    frameId = value;
    lastEventId = value;
  };
  const setRetry = (value: string) => {
    if (asciiDigits.test(value)) onRetry?.(Number(value));
  };

  const readData = (bytes: Uint8Array, valueStart: number, end: number) => {
    if (valueStart < end && bytes[valueStart] === space) valueStart++;
    setData(decoder.decode(bytes.subarray(valueStart, end)));
  };

  const readId = (bytes: Uint8Array, valueStart: number, end: number) => {
    if (valueStart < end && bytes[valueStart] === space) valueStart++;
    setId(decode(bytes, valueStart, end));
  };

  /** A whole line, not blank, from `start` to `end`. */
  const readLine = (bytes: Uint8Array, start: number, end: number) => {
    // The lines of nearly every event, known by their first bytes without a search.
    const first = bytes[start];
    if (first === dataName[0] && isFieldAt(bytes, start, end, dataName)) {
      readData(bytes, start + 5, end);
      return;
    }
    if (first === idName[0] && isFieldAt(bytes, start, end, idName)) {
      readId(bytes, start + 3, end);
      return;
    }
    let colonAt = -1;
    for (let index = start; index < end; index++) {
      if (bytes[index] === colon) {
        colonAt = index;
        break;
      }
    }
    // A comment.
    if (colonAt === start) return;
    const nameEnd = colonAt === -1 ? end : colonAt;
    let valueStart = colonAt === -1 ? end : colonAt + 1;
    if (valueStart < end && bytes[valueStart] === space) valueStart++;
    if (isName(bytes, start, nameEnd, dataName)) {
      readData(bytes, valueStart, end);
    } else if (isName(bytes, start, nameEnd, eventName)) {
      // The literal for the usual name: one string for every event, not a copy each.
      eventType = isName(bytes, valueStart, end, messageType)
        ? 'message'
        : decode(bytes, valueStart, end);
    } else if (isName(bytes, start, nameEnd, idName)) {
      setId(decode(bytes, valueStart, end));
    } else if (isName(bytes, start, nameEnd, retryName)) {
      setRetry(decode(bytes, valueStart, end));
    }
  };

  /**
   * {@link readLine} over text where each character is one byte received (offsets are the same):
   * a value is a slice of the text decoded once for the chunk.
   */
  const readTextLine = (text: string, start: number, end: number) => {
    const first = text.charCodeAt(start);
    if (first === colon) return;
    if (first === 100 && isDataFieldAt(text, start)) {
      const valueStart = text.charCodeAt(start + 5) === space ? start + 6 : start + 5;
      setData(text.slice(valueStart, end));
      return;
    }
    if (first === 105 && isIdFieldAt(text, start)) {
      const valueStart = text.charCodeAt(start + 3) === space ? start + 4 : start + 3;
      setId(text.slice(valueStart, end));
      return;
    }
    if (first === 101 && isEventFieldAt(text, start)) {
      const valueStart = text.charCodeAt(start + 6) === space ? start + 7 : start + 6;
      // The literal for the usual name: one string for every event, not a copy each.
      eventType =
        end - valueStart === 7 && isMessageAt(text, valueStart)
          ? 'message'
          : text.slice(valueStart, end);
      return;
    }
    let colonAt = text.indexOf(':', start);
    if (colonAt >= end) colonAt = -1;
    const name = text.slice(start, colonAt === -1 ? end : colonAt);
    let valueStart = colonAt === -1 ? end : colonAt + 1;
    if (valueStart < end && text.charCodeAt(valueStart) === space) valueStart++;
    const value = text.slice(valueStart, end);
    if (name === 'data') setData(value);
    // The literal for the usual name: one string for every event, not a copy each.
    else if (name === 'event') eventType = value === 'message' ? 'message' : value;
    else if (name === 'id') setId(value);
    else if (name === 'retry') setRetry(value);
  };

  /**
   * Reads the whole lines of `chunk` from `start` to `regionEnd` (just after its last line break)
   * as text, when each of their bytes decodes to one character (ASCII, as an agent's JSON mostly
   * is): one TextDecoder call for all of them instead of one per value. False, having read
   * nothing, otherwise.
   */
  const scanText = (chunk: Uint8Array, start: number, regionEnd: number): boolean => {
    const text = decoder.decode(chunk.subarray(start, regionEnd));
    const length = text.length;
    if (length !== regionEnd - start) return false;
    let position = 0;
    let nextLineFeed = -2;
    let nextCarriageReturn = -2;
    while (position < length) {
      const first = text.charCodeAt(position);
      if (first === lineFeed || first === carriageReturn) {
        eventBytes = 0;
        position = afterTextLineBreak(text, position, regionEnd === chunk.length);
        endFrame();
        if (stopped) return true;
        continue;
      }
      if (nextLineFeed !== -1 && nextLineFeed < position) {
        nextLineFeed = text.indexOf('\n', position);
      }
      if (nextCarriageReturn !== -1 && nextCarriageReturn < position) {
        nextCarriageReturn = text.indexOf('\r', position);
      }
      // The text ends with a line break: one is found.
      const lineEnd =
        nextCarriageReturn === -1 || (nextLineFeed !== -1 && nextLineFeed < nextCarriageReturn)
          ? nextLineFeed
          : nextCarriageReturn;
      if (lineEnd - position > maxEventSize - eventBytes) {
        exceeded = new AgentEventTooLargeError(maxEventSize);
        return true;
      }
      eventBytes += lineEnd - position;
      readTextLine(text, position, lineEnd);
      position = afterTextLineBreak(text, lineEnd, regionEnd === chunk.length);
      if (stopped) return true;
    }
    return true;
  };

  /** {@link afterLineBreak} in text that ends where the chunk does when `atChunkEnd`. */
  const afterTextLineBreak = (text: string, lineEnd: number, atChunkEnd: boolean): number => {
    if (text.charCodeAt(lineEnd) !== carriageReturn) return lineEnd + 1;
    if (lineEnd + 1 === text.length) {
      if (atChunkEnd) afterCarriageReturn = true;
      return lineEnd + 1;
    }
    return text.charCodeAt(lineEnd + 1) === lineFeed ? lineEnd + 2 : lineEnd + 1;
  };

  /** Just after the line break at `lineEnd` (a CRLF whole, or its CR when the chunk ends there). */
  const afterLineBreak = (chunk: Uint8Array, lineEnd: number): number => {
    if (chunk[lineEnd] !== carriageReturn) return lineEnd + 1;
    if (lineEnd + 1 === chunk.length) {
      afterCarriageReturn = true;
      return lineEnd + 1;
    }
    return chunk[lineEnd + 1] === lineFeed ? lineEnd + 2 : lineEnd + 1;
  };

  /** The rest of the chunk from `start`, with no line break: held, within the bound. */
  const holdRest = (chunk: Uint8Array, start: number) => {
    const rest = chunk.length - start;
    if (rest === 0) return;
    if (rest > maxEventSize - eventBytes) {
      exceeded = new AgentEventTooLargeError(maxEventSize);
      held.length = 0;
      return;
    }
    eventBytes += rest;
    held.push(chunk.subarray(start));
  };

  /**
   * The held line ends at the chunk's first line break (read once its parts are joined): just
   * after that break, or -1 when the chunk goes on with it (held too) or passes the bound.
   */
  const finishHeldLine = (chunk: Uint8Array, start: number): number => {
    const nextLineFeed = chunk.indexOf(lineFeed, start);
    const before = nextLineFeed === -1 ? chunk : chunk.subarray(0, nextLineFeed);
    const nextCarriageReturn = before.indexOf(carriageReturn, start);
    const lineEnd = nextCarriageReturn === -1 ? nextLineFeed : nextCarriageReturn;
    if (lineEnd === -1) {
      holdRest(chunk, start);
      return -1;
    }
    if (lineEnd - start > maxEventSize - eventBytes) {
      exceeded = new AgentEventTooLargeError(maxEventSize);
      held.length = 0;
      return -1;
    }
    eventBytes += lineEnd - start;
    held.push(chunk.subarray(start, lineEnd));
    // Never empty: a held part has a byte at least.
    const line = concatBytes(held);
    held.length = 0;
    readLine(line, 0, line.length);
    return afterLineBreak(chunk, lineEnd);
  };

  /** The whole lines of `chunk` from `start` to `regionEnd` (just after its last line break), as bytes. */
  const scanLines = (chunk: Uint8Array, start: number, regionEnd: number) => {
    // Searched up to the last line break only: what follows is held, not searched.
    const lines = regionEnd === chunk.length ? chunk : chunk.subarray(0, regionEnd);
    let position = start;
    // The next LF and CR at or after where they were looked for (-1: none left; -2: not yet).
    let nextLineFeed = -2;
    let nextCarriageReturn = -2;
    while (position < regionEnd) {
      const first = chunk[position];
      // A blank line (one in two in a stream of small events) needs no search.
      if (first === lineFeed || first === carriageReturn) {
        eventBytes = 0;
        position = afterLineBreak(chunk, position);
        endFrame();
        if (stopped) return;
        continue;
      }
      if (nextLineFeed !== -1 && nextLineFeed < position) {
        nextLineFeed = lines.indexOf(lineFeed, position);
      }
      if (nextCarriageReturn !== -1 && nextCarriageReturn < position) {
        nextCarriageReturn = lines.indexOf(carriageReturn, position);
      }
      // The lines end with a line break: one is found.
      const lineEnd =
        nextCarriageReturn === -1 || (nextLineFeed !== -1 && nextLineFeed < nextCarriageReturn)
          ? nextLineFeed
          : nextCarriageReturn;
      if (lineEnd - position > maxEventSize - eventBytes) {
        // An event passes the bound: what came before it was dispatched, and no more is read.
        exceeded = new AgentEventTooLargeError(maxEventSize);
        return;
      }
      eventBytes += lineEnd - position;
      readLine(chunk, position, lineEnd);
      position = afterLineBreak(chunk, lineEnd);
      if (stopped) return;
    }
  };

  return {
    get exceeded() {
      return exceeded;
    },
    scan(input) {
      if (exceeded !== undefined || stopped) return;
      const chunk = stripByteOrderMark(input);
      if (chunk === undefined || chunk.length === 0) return;
      let position = 0;
      if (afterCarriageReturn) {
        afterCarriageReturn = false;
        if (chunk[0] === lineFeed) position = 1;
      }
      if (held.length > 0) {
        position = finishHeldLine(chunk, position);
        if (position === -1 || exceeded !== undefined || stopped) return;
      }
      // Found from the chunk's end: the bytes after it (a line that goes on) are looked at once.
      const regionEnd = lastLineBreak(chunk, position) + 1;
      if (regionEnd > position) {
        if (!scanText(chunk, position, regionEnd)) scanLines(chunk, position, regionEnd);
        if (exceeded !== undefined || stopped) return;
        position = regionEnd;
      }
      holdRest(chunk, position);
    },
  };
}

/** The last LF or CR of `bytes` at or after `from` (-1: none), looked for from the end. */
function lastLineBreak(bytes: Uint8Array, from: number): number {
  for (let index = bytes.length - 1; index >= from; index--) {
    const byte = bytes[index];
    if (byte === lineFeed || byte === carriageReturn) return index;
  }
  return -1;
}

// The field names of nearly every event's three lines, and the usual event name, compared a
// character at a time: `startsWith(name, at)` is a builtin call per line, which costs more.
function isDataFieldAt(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 100 &&
    text.charCodeAt(at + 1) === 97 &&
    text.charCodeAt(at + 2) === 116 &&
    text.charCodeAt(at + 3) === 97 &&
    text.charCodeAt(at + 4) === colon
  );
}
function isIdFieldAt(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 105 &&
    text.charCodeAt(at + 1) === 100 &&
    text.charCodeAt(at + 2) === colon
  );
}
function isEventFieldAt(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 101 &&
    text.charCodeAt(at + 1) === 118 &&
    text.charCodeAt(at + 2) === 101 &&
    text.charCodeAt(at + 3) === 110 &&
    text.charCodeAt(at + 4) === 116 &&
    text.charCodeAt(at + 5) === colon
  );
}
function isMessageAt(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 109 &&
    text.charCodeAt(at + 1) === 101 &&
    text.charCodeAt(at + 2) === 115 &&
    text.charCodeAt(at + 3) === 115 &&
    text.charCodeAt(at + 4) === 97 &&
    text.charCodeAt(at + 5) === 103 &&
    text.charCodeAt(at + 6) === 101
  );
}

/** Whether the line from `start` to `end` starts with `name` and a colon. */
function isFieldAt(
  bytes: Uint8Array,
  start: number,
  end: number,
  name: readonly number[],
): boolean {
  if (end - start <= name.length || bytes[start + name.length] !== colon) return false;
  for (let index = 1; index < name.length; index++) {
    if (bytes[start + index] !== name[index]) return false;
  }
  return true;
}

/** Whether the bytes from `start` to `end` are `name`. */
function isName(bytes: Uint8Array, start: number, end: number, name: readonly number[]): boolean {
  if (end - start !== name.length) return false;
  for (let index = 0; index < name.length; index++) {
    if (bytes[start + index] !== name[index]) return false;
  }
  return true;
}

/** Drops one byte order mark at the start of the stream (split across chunks too), and only there. */
function createByteOrderMarkStrip(): (chunk: Uint8Array) => Uint8Array | undefined {
  // The stream's first bytes while they may still be a mark; undefined once decided.
  let pending: Uint8Array | undefined = new Uint8Array(0);
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
