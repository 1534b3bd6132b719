import type { RunEvent, RunEventBase, RunEventKind } from './run-types.js';
import { messageEventPayloadSchema, runFailedPayloadSchema } from './schemas.js';

/** Where and when an event arrived: what {@link classifyEvent} cannot read from the frame. */
export type RunEventArrival = Pick<RunEventBase, 'sequence' | 'receivedAt' | 'attempt' | 'restart'>;

/** The frame of one server-sent event: its `id:`, `event:` and `data:` fields. */
export interface RunEventFrame {
  id?: string | undefined;
  /** The event name; `message` when the frame named none. */
  event: string;
  data: string;
}

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
  let payload: unknown;
  try {
    payload = JSON.parse(frame.data);
  } catch {
    return record(frame, arrival, 'parse-error', undefined, '');
  }
  if (frame.event === 'message') {
    const parsed = messageEventPayloadSchema.safeParse(payload);
    return parsed.success
      ? record(frame, arrival, 'message', parsed.data, agentText(parsed.data.messages))
      : record(frame, arrival, 'invalid', payload, '');
  }
  if (frame.event === 'run.failed') {
    const parsed = runFailedPayloadSchema.safeParse(payload);
    return parsed.success
      ? record(frame, arrival, 'run-failed', parsed.data, '')
      : record(frame, arrival, 'invalid', payload, '');
  }
  return record(frame, arrival, 'unknown', payload, '');
}

/** One shape for every kind (V8 keeps one hidden class); the union is guaranteed by the caller. */
function record(
  frame: RunEventFrame,
  arrival: RunEventArrival,
  kind: RunEventKind,
  payload: unknown,
  text: string,
): RunEvent {
  return {
    sequence: arrival.sequence,
    id: frame.id,
    event: frame.event,
    data: frame.data,
    payload,
    kind,
    parseError: kind === 'parse-error',
    invalid: kind === 'invalid',
    text,
    receivedAt: arrival.receivedAt,
    attempt: arrival.attempt,
    restart: arrival.restart,
  } as RunEvent;
}

/** The text blocks of every message not from the user, in order. */
function agentText(
  messages: readonly {
    role: string;
    content: readonly { type: string; text?: string | undefined }[];
  }[],
): string {
  let text = '';
  for (const message of messages) {
    if (message.role === 'USER') continue;
    for (const block of message.content) {
      if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    }
  }
  return text;
}
