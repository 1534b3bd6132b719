import type { RunEvent } from '../core/run-types.js';

const previewLength = 160;

/**
 * The log as NDJSON: one JSON object per line per event (`sequence`, `id`, `event`, `attempt`,
 * `restart`, `receivedAt` as ISO time, `parseError`, `invalid`, and `payload`, or `data` for a
 * payload that was not JSON), each line ending with `\n`.
 *
 * @example
 * const blob = new Blob([eventsToNdjson(run.events)], { type: 'application/x-ndjson' });
 */
export function eventsToNdjson(events: readonly RunEvent[]): string {
  let text = '';
  for (const event of events) {
    text += `${JSON.stringify({
      sequence: event.sequence,
      id: event.id ?? null,
      event: event.event,
      attempt: event.attempt,
      restart: event.restart,
      receivedAt: new Date(event.receivedAt).toISOString(),
      parseError: event.parseError,
      invalid: event.invalid,
      ...(event.parseError ? { data: event.data } : { payload: event.payload }),
    })}\n`;
  }
  return text;
}

/** A one-line preview of an event's payload (its data text, whitespace collapsed, cut short). */
export function previewOf(event: RunEvent): string {
  const head = event.data
    .slice(0, previewLength * 2)
    .replace(/\s+/g, ' ')
    .trim();
  if (head.length > previewLength) return `${head.slice(0, previewLength)}…`;
  return event.data.length > previewLength * 2 ? `${head}…` : head;
}

/** The full payload as text: pretty-printed JSON, or the data as received when it was not JSON. */
export function prettyPayload(event: RunEvent): string {
  if (event.parseError) return event.data;
  return JSON.stringify(event.payload, null, 2) ?? event.data;
}

/** Time since the run started: `+1.234 s`. */
export function formatElapsed(milliseconds: number): string {
  const sign = milliseconds < 0 ? '-' : '+';
  return `${sign}${(Math.abs(milliseconds) / 1000).toFixed(3)} s`;
}

const numberFormat = /* @__PURE__ */ new Intl.NumberFormat('en');

/** A count with digit grouping: `100,000`. */
export function formatCount(count: number): string {
  return numberFormat.format(count);
}

/** `1 event`, `2 events`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
