import type { RunEventFrame } from './classify-event.js';
import type { RunEvent, RunEventKind } from './run-types.js';
import * as z from 'zod/mini';
import { messageEventPayloadSchema, runFailedPayloadSchema } from './schemas.js';

/**
 * `classifyEvent` with the arrival spelled out: the engine's path (no arrival object per event).
 * Internal: not in any barrel.
 */
export function classifyFrame(
  frame: RunEventFrame,
  sequence: number,
  receivedAt: number,
  attempt: number,
  restart: boolean,
): RunEvent {
  const { id, event, data } = frame;
  let payload: unknown;
  let kind: RunEventKind = 'unknown';
  let text = '';
  try {
    payload = JSON.parse(data);
  } catch {
    kind = 'parse-error';
  }
  if (kind === 'parse-error') {
    // handled below: no payload
  } else if (event === 'message') {
    // `validate` answers only whether the payload matches (zod builds no result object around its
    // copy); the payload kept is JSON.parse's, the same content (no schema here transforms).
    if (z.validate(messageEventPayloadSchema, payload)) {
      kind = 'message';
      text = agentText(payload.messages);
    } else {
      kind = 'invalid';
    }
  } else if (event === 'run.failed') {
    kind = z.validate(runFailedPayloadSchema, payload) ? 'run-failed' : 'invalid';
  }
  // One shape for every kind (V8 keeps one hidden class); the union holds by the rules above.
  return {
    sequence,
    id,
    // The literal rather than the transport's decoded copy: one string kept, not one per event.
    event: event === 'message' ? 'message' : event,
    data,
    payload,
    kind,
    parseError: kind === 'parse-error',
    invalid: kind === 'invalid',
    text,
    receivedAt,
    attempt,
    restart,
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
