import { classifyFrame } from './classify-frame.js';
import type { RunEvent, RunEventBase, RunEventFrame } from './run-types.js';

export type { RunEventFrame } from './run-types.js';

/** Where and when an event arrived: what {@link classifyEvent} cannot read from the frame. */
export type RunEventArrival = Pick<RunEventBase, 'sequence' | 'receivedAt' | 'attempt' | 'restart'>;

const noArrival: RunEventArrival = { sequence: 0, receivedAt: 0, attempt: 1, restart: false };

/**
 * What the library makes of one server-sent event, the one rule `RunStream` uses: data that is not
 * JSON is a `parse-error` (whatever the name); a `message` whose payload matches
 * `{ messages: [...] }` is a `message` (with the agent `text` it adds), a `run.failed` whose payload
 * is `{ error: problem }` is a `run-failed`, either one otherwise `invalid`; any other name is
 * `unknown`, its payload kept. It never throws.
 *
 * @example
 * const event = classifyEvent({ event: 'message', data: '{"messages":[]}' }, { sequence: 1, receivedAt: Date.now(), attempt: 1, restart: false });
 * if (event.kind === 'message') console.log(event.payload.messages.length);
 */
export function classifyEvent(
  frame: RunEventFrame,
  arrival: RunEventArrival = noArrival,
): RunEvent {
  return classifyFrame(
    frame,
    arrival.sequence,
    arrival.receivedAt,
    arrival.attempt,
    arrival.restart,
  );
}
