/**
 * The scanner against a reference reading of the SSE standard, written here over the whole stream
 * decoded at once: random streams (ASCII and not, every line ending, comments, fields without a
 * colon, ids, `retry:`), each cut into random chunks, so that a chunk read as text, one read as
 * bytes and a line held across chunks all meet. Seeded: the same streams on every run.
 */
import { describe, expect, it } from 'vitest';
import { AgentEventTooLargeError } from 'agent-console-kit/core';
import type { SseMessage } from '../../../src/core/wire/sse-types.js';
import { createEventStreamScanner } from '../../../src/core/wire/sse-scanner.js';

interface Output {
  messages: SseMessage[];
  ids: string[];
  retries: number[];
}

/** The standard's reading of a whole stream, in the transport's contract (no empty data). */
function reference(bytes: Uint8Array, startId = ''): Output {
  // One byte order mark at the start is dropped by the decoder; the standard decodes the stream.
  const text = new TextDecoder('utf-8').decode(bytes);
  const output: Output = { messages: [], ids: [], retries: [] };
  // The text after the last line break is a line that never ended: never read.
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop();
  let data: string | undefined;
  let type = '';
  let frameId: string | undefined;
  let lastEventId = startId;
  for (const line of lines) {
    if (line === '') {
      const value = data === undefined ? '' : data.slice(0, -1);
      if (data !== undefined && value !== '') {
        output.messages.push({
          id: frameId === '' ? undefined : frameId,
          event: type === '' ? 'message' : type,
          data: value,
          lastEventId,
        });
      } else if (frameId !== undefined && frameId !== '') {
        output.ids.push(frameId);
      }
      data = undefined;
      type = '';
      frameId = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') data = `${data ?? ''}${value}\n`;
    else if (name === 'event') type = value;
    else if (name === 'id' && !value.includes('\0')) {
      frameId = value;
      lastEventId = value;
    } else if (name === 'retry' && /^[0-9]+$/.test(value)) output.retries.push(Number(value));
  }
  return output;
}

function scanned(chunks: readonly Uint8Array[], maxEventSize = 1 << 20, startId = '') {
  const output: Output = { messages: [], ids: [], retries: [] };
  const scanner = createEventStreamScanner({
    maxEventSize,
    lastEventId: startId,
    onMessage: (message) => output.messages.push({ ...message }),
    onId: (id) => output.ids.push(id),
    onRetry: (retryMs) => output.retries.push(retryMs),
  });
  for (const chunk of chunks) scanner.scan(chunk);
  return { output, exceeded: scanner.exceeded };
}

/** A small seeded generator (mulberry32): the same numbers on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const encoder = new TextEncoder();
const pieces = [
  'data: {"messages":[]}',
  'data: plain text that runs on a little',
  'data: Grüße 👋🏽 東京',
  'data:',
  'data',
  'data:  two spaces',
  'event: message',
  'event: tool.call',
  'event:message',
  'event:  message',
  'event: messages',
  'event',
  'id: 7',
  'id: 東京',
  'id:',
  'id: 8\0',
  'retry: 1500',
  'retry: 12x',
  ': a comment',
  ':',
  'unknown: field',
  'DATA: not a field',
  '\uFEFFdata: a mark that starts a name',
];
const lineEnds = ['\n', '\r\n', '\r'];

function randomStream(next: () => number): Uint8Array {
  const pick = <Value>(values: readonly Value[]): Value =>
    values[Math.floor(next() * values.length)] as Value;
  let text = next() < 0.2 ? '\uFEFF' : '';
  const lines = 5 + Math.floor(next() * 40);
  for (let index = 0; index < lines; index++) {
    text += (next() < 0.3 ? '' : pick(pieces)) + pick(lineEnds);
  }
  if (next() < 0.5) text += pick(pieces);
  const bytes = encoder.encode(text);
  if (next() < 0.1) {
    // A byte that is no UTF-8 at all, inside a value.
    const at = text.indexOf('plain');
    if (at !== -1) bytes[at] = 0xff;
  }
  return bytes;
}

function randomChunks(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    const size = next() < 0.3 ? 1 + Math.floor(next() * 3) : 1 + Math.floor(next() * 80);
    chunks.push(bytes.slice(start, start + size));
    start += size;
  }
  return chunks;
}

describe('given random streams cut into random chunks', () => {
  it('reads each as the standard does, however it is cut', () => {
    const next = random(26);
    for (let stream = 0; stream < 400; stream++) {
      const bytes = randomStream(next);
      const expected = reference(bytes, stream % 3 === 0 ? '5' : '');
      const startId = stream % 3 === 0 ? '5' : '';
      const text = new TextDecoder().decode(bytes);
      expect(scanned([bytes], undefined, startId).output, `whole: ${JSON.stringify(text)}`).toEqual(
        expected,
      );
      expect(
        scanned(randomChunks(bytes, next), undefined, startId).output,
        `cut: ${JSON.stringify(text)}`,
      ).toEqual(expected);
    }
  });
});

describe('given an event at the bound', () => {
  it.each([
    ['ASCII, read as text', 'x', 1],
    ['not ASCII, read as bytes', 'é', 2],
  ])('%s: passes at the bound exactly, and fails one byte past it', (_name, character, size) => {
    const bound = 1_000;
    const atBound = `data: ${character.repeat((bound - 'data: '.length) / size)}\n\n`;
    const pastBound = `data: ${character.repeat((bound - 'data: '.length) / size)}y\n\n`;
    for (const cut of [1, 7, 64, 4096]) {
      const chunksOf = (text: string) => {
        const bytes = encoder.encode(text);
        const chunks: Uint8Array[] = [];
        for (let start = 0; start < bytes.length; start += cut) {
          chunks.push(bytes.slice(start, start + cut));
        }
        return chunks;
      };

      const within = scanned(chunksOf(`${atBound}${atBound}`), bound);
      const past = scanned(chunksOf(`${atBound}${pastBound}${atBound}`), bound);

      expect(within.exceeded, `cut ${cut}`).toBeUndefined();
      expect(within.output.messages).toHaveLength(2);
      expect(past.exceeded, `cut ${cut}`).toBeInstanceOf(AgentEventTooLargeError);
      expect(past.output.messages).toHaveLength(1);
    }
  });
});

describe('given a signal aborted while a chunk is read', () => {
  it('dispatches nothing more, not even the rest of that chunk', () => {
    const controller = new AbortController();
    const data: string[] = [];
    const scanner = createEventStreamScanner({
      maxEventSize: 1 << 20,
      signal: controller.signal,
      onMessage: (message) => {
        data.push(message.data);
        if (message.data === '2') controller.abort();
      },
    });

    scanner.scan(encoder.encode('data: 1\n\ndata: 2\n\ndata: 3\n\n'));
    scanner.scan(encoder.encode('data: 4\n\n'));

    expect(data).toEqual(['1', '2']);
  });
});
