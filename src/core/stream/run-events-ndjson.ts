import { stringifyJson } from '../base/json-text.js';
import type { RunEvent } from './run-types.js';

/**
 * The log as NDJSON: one JSON object per line per event (`sequence`, `id`, `event`, `attempt`,
 * `restart`, `receivedAt` as ISO time, `kind`, and `payload`, or `data` for a
 * payload that was not JSON), each line ending with `\n`. A payload of any depth `JSON.parse`
 * accepts is written whole (`JSON.stringify` would overflow the stack on one thousands of levels
 * deep), so each line parses back to the event.
 *
 * @example
 * const blob = new Blob([eventsToNdjson(run.events)], { type: 'application/x-ndjson' });
 */
export function eventsToNdjson(events: readonly RunEvent[]): string {
  let text = '';
  for (const event of events) text += `${ndjsonLine(event)}\n`;
  return text;
}

function ndjsonLine(event: RunEvent): string {
  const head = {
    sequence: event.sequence,
    id: event.id ?? null,
    event: event.event,
    attempt: event.attempt,
    restart: event.restart,
    receivedAt: new Date(event.receivedAt).toISOString(),
    kind: event.kind,
  };
  if (event.kind === 'parse-error') return JSON.stringify({ ...head, data: event.data });
  try {
    return JSON.stringify({ ...head, payload: event.payload });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  // Too deep for JSON.stringify's recursion: the payload is written without it.
  const payload = stringifyJson(event.payload)?.text;
  const line = JSON.stringify(head);
  return payload === undefined ? line : `${line.slice(0, -1)},"payload":${payload}}`;
}
