import { stringifyJson } from '../core/base/json-text.js';
import type { RunEvent } from '../core/stream/run-types.js';

const previewLength = 160;

/** A one-line preview of an event's payload (its data text, whitespace collapsed, cut short). */
export function previewOf(event: RunEvent): string {
  const head = event.data
    .slice(0, previewLength * 2)
    .replace(/\s+/g, ' ')
    .trim();
  if (head.length > previewLength) return `${head.slice(0, previewLength)}…`;
  return event.data.length > previewLength * 2 ? `${head}…` : head;
}

/** The deepest level of a payload the expanded row indents; deeper ones are on one line. */
export const payloadIndentDepth = 32;

/**
 * The full payload as text: JSON indented by 2 for {@link payloadIndentDepth} levels, every
 * deeper level on one line (`flattened` then says so: an n-deep payload indented throughout would
 * be O(n²) characters long), or the data as received when it was not JSON. Any depth: no recursion.
 */
export function prettyPayload(event: RunEvent): { text: string; flattened: boolean } {
  if (event.kind === 'parse-error') return { text: event.data, flattened: false };
  const json = stringifyJson(event.payload, { indent: 2, maxIndentDepth: payloadIndentDepth });
  if (json === undefined) return { text: event.data, flattened: false };
  return { text: json.text, flattened: json.depth > payloadIndentDepth };
}

/** Time since the run started: `+1.234 s`. */
export function formatElapsed(milliseconds: number): string {
  const sign = milliseconds < 0 ? '-' : '+';
  return `${sign}${(Math.abs(milliseconds) / 1000).toFixed(3)} s`;
}

/**
 * The event names seen in a list of events, with a count each, kept up to date in O(changed) for
 * a list that grows at its end and may drop its head (the bounded buffer of `RunStream`).
 */
export interface EventNameIndex {
  /** The list this index describes. */
  readonly events: readonly RunEvent[];
  /** How many events of `events` carry each name. */
  readonly counts: ReadonlyMap<string, number>;
  /** The names, sorted; the same array until a name comes or goes. */
  readonly names: readonly string[];
}

function sortedNames(counts: ReadonlyMap<string, number>): string[] {
  return [...counts.keys()].sort();
}

function countAll(events: readonly RunEvent[]): EventNameIndex {
  const counts = new Map<string, number>();
  for (const event of events) counts.set(event.event, (counts.get(event.event) ?? 0) + 1);
  return { events, counts, names: sortedNames(counts) };
}

/** The index of the first event of `events` (ordered by sequence) with `sequence` or later. */
function lowerBound(events: readonly RunEvent[], sequence: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((events[middle]?.sequence ?? 0) < sequence) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the event with `sequence` in `events` (ordered by sequence), or -1. */
export function indexOfSequence(events: readonly RunEvent[], sequence: number): number {
  const index = lowerBound(events, sequence);
  return events[index]?.sequence === sequence ? index : -1;
}

/**
 * The {@link EventNameIndex} of `events`, updated from `previous` when `events` is `previous.events`
 * with some of its head dropped and new events appended (checked by identity at both ends of what
 * the two lists share); counted from scratch otherwise. `previous` is not changed.
 */
export function indexEventNames(
  previous: EventNameIndex | undefined,
  events: readonly RunEvent[],
): EventNameIndex {
  if (previous === undefined) return countAll(events);
  if (previous.events === events) return previous;
  const before = previous.events;
  const first = events[0];
  if (first === undefined || before.length === 0) return countAll(events);
  // The events dropped from the head: the earlier ones in the previous list.
  const dropped = lowerBound(before, first.sequence);
  const kept = before.length - dropped;
  if (
    kept === 0 ||
    kept > events.length ||
    before[dropped] !== first ||
    before[before.length - 1] !== events[kept - 1] ||
    // Touching more than half the list: counting it all is as cheap.
    dropped + (events.length - kept) > events.length / 2
  ) {
    return countAll(events);
  }
  const counts = new Map(previous.counts);
  let namesChanged = false;
  for (let index = 0; index < dropped; index += 1) {
    const name = (before[index] as RunEvent).event;
    const left = (counts.get(name) ?? 0) - 1;
    if (left > 0) counts.set(name, left);
    else {
      counts.delete(name);
      namesChanged = true;
    }
  }
  for (let index = kept; index < events.length; index += 1) {
    const name = (events[index] as RunEvent).event;
    const count = counts.get(name);
    if (count === undefined) namesChanged = true;
    counts.set(name, (count ?? 0) + 1);
  }
  return { events, counts, names: namesChanged ? sortedNames(counts) : previous.names };
}
