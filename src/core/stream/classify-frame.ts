import type { RunEvent, RunEventFrame, RunEventKind } from './run-types.js';
import { checkMessageEventPayload } from '../wire/message-payload-check.generated.js';
import type { MessageEventPayload } from '../wire/schemas.js';
import { checkRunFailedPayload } from '../wire/wire-checks.generated.js';

/**
 * Whether a `message` payload matches `messageEventPayloadCheck` (schemas.ts): the check zod's
 * compiler wrote at build time (scripts/generate-validators.mjs: what `z.compile` makes with `new
 * Function`, which strict CSPs refuse). Its refusals are definite (zod's compiler says its runtime
 * refuses the same; the generator writes no other), so the sync answer needs no zod up front: zod's
 * runtime for this check alone was 5 kB brotli of a hooks page (docs/decisions/0014-bundle-size.md).
 * Against the runtime: no result object per key, about 1.4 kB less garbage per event, and
 * RunStream's events/s ratio 0.60 → 0.81 (`npm run bench:engine -- --compare=ffc31c7`).
 */
export function isMessageEventPayload(payload: unknown): payload is MessageEventPayload {
  return checkMessageEventPayload(payload) === true;
}

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
  const lastEventId = frame.lastEventId ?? id ?? '';
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
    // The payload kept is JSON.parse's (no schema here transforms).
    if (isMessageEventPayload(payload)) {
      kind = 'message';
      text = agentText(payload.messages);
    } else {
      kind = 'invalid';
    }
  } else if (event === 'run.failed') {
    // Compiled by zod with definite refusals, as the message check (docs/decisions/0014-bundle-size.md).
    kind = checkRunFailedPayload(payload) === true ? 'run-failed' : 'invalid';
  }
  return new EventRecord(
    sequence,
    id,
    lastEventId,
    // The literal rather than the transport's decoded copy: one string kept, not one per event.
    event === 'message' ? 'message' : event,
    data,
    payload,
    kind,
    text,
    receivedAt,
    attempt,
    restart,
  );
}

/**
 * Makes the event record: a plain object like the literal it replaces (its prototype is
 * `Object.prototype`, its fields own and enumerable, in the same order, one shape for every kind),
 * made by `new` rather than by an object literal, because V8 treats the two differently. It keeps
 * statistics per object literal (an allocation site) and, when nearly every object of one outlives a
 * young-generation collection (the kept events do, when `maxEvents` is larger than the events
 * between two collections), allocates that literal's objects straight in the old generation. A
 * record made there keeps its payload and strings, still young, alive until the next full
 * collection, long after the buffer dropped it: `--trace-gc-nvp` showed every scavenge promoting as
 * much as it kept, and a mark-compact every 100,000 events. An object made by `new` has no
 * allocation site, so the records stay young and die young.
 */
const EventRecord = /* @__PURE__ */ (() => {
  function EventRecord(
    this: Record<keyof RunEvent, unknown>,
    sequence: number,
    id: string | undefined,
    lastEventId: string,
    event: string,
    data: string,
    payload: unknown,
    kind: RunEventKind,
    text: string,
    receivedAt: number,
    attempt: number,
    restart: boolean,
  ) {
    this.sequence = sequence;
    this.id = id;
    this.lastEventId = lastEventId;
    this.event = event;
    this.data = data;
    this.payload = payload;
    this.kind = kind;
    this.text = text;
    this.receivedAt = receivedAt;
    this.attempt = attempt;
    this.restart = restart;
  }
  EventRecord.prototype = Object.prototype;
  // The union holds by the rules of classifyFrame.
  return EventRecord as unknown as new (...fields: Parameters<typeof EventRecord>) => RunEvent;
})();

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
