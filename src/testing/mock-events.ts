/**
 * Building blocks of a scripted run stream: the items a mock run sends, helpers that make them,
 * and the encoder that turns an item into server-sent-event bytes.
 *
 * Framework-free and browser-safe: no Node built-ins, no React.
 */

import type { AgentApi } from '../core/wire/agent-client.js';
import { completeProblem } from './mock-problems.js';

interface MockItemBase {
  /**
   * Send this item only on one API generation (e.g. a `run.failed` only on `platform`).
   * @default undefined (sent on both)
   */
  api?: AgentApi;
}

/** A message delta: sent as `event: message` with `{"messages":[{"role":"GLEAN_AI",...}]}`. */
export interface MockTextItem extends MockItemBase {
  /** The new text fragment (a delta, not the text so far). */
  text: string;
}

/** Any event. */
export interface MockEventItem extends MockItemBase {
  /**
   * The `event:` name.
   * @default 'message'
   */
  event?: string;
  /**
   * The payload. Objects (and every non-string) are JSON-stringified; a string is sent as given,
   * so malformed JSON can be scripted. A string holding line breaks becomes several `data:` lines.
   */
  data: unknown;
  /**
   * The `id:` value. `null` sends no `id:` line.
   * @default the event's position in the run (1, 2, 3 ...)
   */
  id?: number | null;
}

/** A `: comment` line (a heartbeat). Not an event: it takes no id and counts for no limit. */
export interface MockCommentItem extends MockItemBase {
  /** The comment text, sent as `: <comment>`. */
  comment: string;
}

/** Bytes sent verbatim (no line-ending conversion). Not an event: it takes no id. */
export interface MockRawItem extends MockItemBase {
  /** The text sent as is. */
  raw: string;
}

/** One step of a scripted run stream. */
export type MockStreamItem = MockTextItem | MockEventItem | MockCommentItem | MockRawItem;

/** A problem detail (RFC 9457) as the platform API sends it. Unknown keys are kept. */
export interface MockProblem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: { pointer?: string; detail?: string; code?: string }[];
  [key: string]: unknown;
}

/** The documented `message` event payload: one GLEAN_AI message holding one text block. */
export function messagePayload(text: string): {
  messages: { role: 'GLEAN_AI'; content: { text: string; type: 'text' }[] }[];
} {
  return { messages: [{ role: 'GLEAN_AI', content: [{ text, type: 'text' }] }] };
}

/** Options of {@link textEvents}. */
export interface TextEventsOptions {
  /**
   * Split the text into this many deltas of (nearly) equal length, counted in code points so a
   * surrogate pair is never split. Wins over `words`.
   * @default undefined
   */
  chunks?: number;
  /**
   * Words per delta. Each delta keeps the whitespace that follows its words, so the deltas
   * concatenate back to the exact text.
   * @default 1
   */
  words?: number;
}

/** Split a text into message deltas that concatenate back to exactly `text`. */
export function textEvents(text: string, options: TextEventsOptions = {}): MockTextItem[] {
  if (text === '') return [];
  if (options.chunks !== undefined) {
    const codePoints = Array.from(text);
    const count = Math.max(1, Math.min(Math.floor(options.chunks), codePoints.length));
    const items: MockTextItem[] = [];
    for (let index = 0; index < count; index++) {
      const start = Math.floor((index * codePoints.length) / count);
      const end = Math.floor(((index + 1) * codePoints.length) / count);
      items.push({ text: codePoints.slice(start, end).join('') });
    }
    return items;
  }
  const wordsPerDelta = Math.max(1, Math.floor(options.words ?? 1));
  // A word and the whitespace after it; leading whitespace sticks to the first word.
  const words = text.match(/^\s*\S+\s*|\S+\s*/g) ?? [text];
  const items: MockTextItem[] = [];
  for (let index = 0; index < words.length; index += wordsPerDelta) {
    items.push({ text: words.slice(index, index + wordsPerDelta).join('') });
  }
  return items;
}

/**
 * A platform `event: run.failed` carrying `{"error": <problem>}`: `code` defaults to the status's
 * (`internal_error` when neither is given), and `type`, `title`, `status` and `detail` to the
 * code's (the service's title for the code, e.g. 'Internal Error'). The mock server adds a fresh
 * `request_id` to each run's.
 */
export function runFailedEvent(problem: MockProblem = {}): MockEventItem {
  return {
    event: 'run.failed',
    data: { error: completeProblem(problem) },
  };
}

/** Options of {@link manyEvents}. */
export interface ManyEventsOptions {
  /**
   * The delta text of event `index` (0-based).
   * @default (index) => `${index + 1} `
   */
  text?: (index: number) => string;
}

/** `count` message deltas, cheap to make: "1 ", "2 ", "3 " ... by default. */
export function manyEvents(count: number, options: ManyEventsOptions = {}): MockTextItem[] {
  const text = options.text ?? ((index: number) => `${index + 1} `);
  const items: MockTextItem[] = new Array<MockTextItem>(count);
  for (let index = 0; index < count; index++) items[index] = { text: text(index) };
  return items;
}

/** True when the item is an event (it takes an id and counts for `dropAfter`/`halfOpenAfter`). */
export function isEventItem(item: MockStreamItem): item is MockTextItem | MockEventItem {
  return !('raw' in item) && !('comment' in item);
}

/**
 * The wire text of one item. `id` is the event's position in the run (ignored for comments and
 * raw items); `lineEnding` separates lines (raw items are never converted).
 */
export function encodeStreamItem(
  item: MockStreamItem,
  id: number,
  lineEnding: '\n' | '\r\n' = '\n',
): string {
  if ('raw' in item) return item.raw;
  if ('comment' in item) return `: ${item.comment}${lineEnding}`;
  const lines: string[] = [];
  if ('data' in item) {
    const eventId = item.id === undefined ? id : item.id;
    if (eventId !== null) lines.push(`id: ${eventId}`);
    lines.push(`event: ${item.event ?? 'message'}`);
    const data = typeof item.data === 'string' ? item.data : JSON.stringify(item.data);
    for (const line of (data ?? 'null').split(/\r\n|\r|\n/)) lines.push(`data: ${line}`);
  } else {
    lines.push(`id: ${id}`, 'event: message', `data: ${JSON.stringify(messagePayload(item.text))}`);
  }
  return lines.join(lineEnding) + lineEnding + lineEnding;
}
