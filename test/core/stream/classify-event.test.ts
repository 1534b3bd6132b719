import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import type { RunEvent } from 'agent-console-kit';
import { classifyEvent } from 'agent-console-kit/core';
import {
  messageEventPayloadCheck,
  messageEventPayloadSchema,
} from '../../../src/core/wire/schemas.js';

const arrival = { sequence: 7, receivedAt: 1_000, attempt: 2, restart: false };
const agentMessage = JSON.stringify({
  messages: [
    { role: 'USER', content: [{ type: 'text', text: 'question' }] },
    { role: 'AGENT', content: [{ type: 'text', text: 'Hel' }, { type: 'image' }] },
    { role: 'AGENT', content: [{ type: 'text', text: 'lo' }] },
  ],
});

describe('classifyEvent', () => {
  it('makes a matching message a message, with its agent text and a typed payload', () => {
    const event = classifyEvent({ id: '3', event: 'message', data: agentMessage }, arrival);

    expect(event).toMatchObject({ ...arrival, id: '3', kind: 'message', text: 'Hello' });
    if (event.kind !== 'message') throw new Error(event.kind);
    expectTypeOf(event.payload.messages).toBeArray();
    expect(event.payload.messages).toHaveLength(3);
  });

  it('makes a plain object: Object.prototype, own enumerable fields in one order for every kind', () => {
    const fields = [
      'sequence',
      'id',
      'lastEventId',
      'event',
      'data',
      'payload',
      'kind',
      'text',
      'receivedAt',
      'attempt',
      'restart',
    ];
    for (const frame of [
      { id: '3', event: 'message', data: agentMessage },
      { event: 'message', data: '{"error":1}' },
      { event: 'tool.call', data: 'not json' },
    ]) {
      const event = classifyEvent(frame, arrival);
      expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
      expect(Object.keys(event)).toEqual(fields);
      expect(event).toStrictEqual({ ...event });
    }
  });

  it('makes a message that does not match invalid, keeping its payload', () => {
    const event = classifyEvent({ event: 'message', data: '{"error":{"message":"crashed"}}' });

    expect(event).toMatchObject({
      kind: 'invalid',
      text: '',
      payload: { error: { message: 'crashed' } },
    });
  });

  it('makes data that is not JSON a parse-error, whatever the name', () => {
    for (const name of ['message', 'run.failed', 'tool.call']) {
      expect(classifyEvent({ event: name, data: '{"messages": [' })).toMatchObject({
        kind: 'parse-error',
        payload: undefined,
        data: '{"messages": [',
      });
    }
  });

  it('makes a run.failed with a problem run-failed, and one without invalid', () => {
    const failed = classifyEvent({
      event: 'run.failed',
      data: '{"error":{"status":503,"detail":"down"}}',
    });
    expect(failed.kind).toBe('run-failed');
    if (failed.kind === 'run-failed') expect(failed.payload.error.status).toBe(503);

    expect(classifyEvent({ event: 'run.failed', data: '{"error":"flat"}' }).kind).toBe('invalid');
  });

  it('keeps any other name unknown with its payload', () => {
    expect(classifyEvent({ event: 'tool.call', data: '{"tool":"search"}' })).toMatchObject({
      kind: 'unknown',
      payload: { tool: 'search' },
    });
  });
});

describe('the RunEvent type', () => {
  it('makes impossible states uncompilable', () => {
    const base = { sequence: 1, id: '1', data: '', receivedAt: 0, attempt: 1, restart: false };
    const messagePayload = { messages: [] };
    const events: RunEvent[] = [
      // @ts-expect-error A message is an event named message.
      {
        ...base,
        event: 'tool.call',
        kind: 'message',
        payload: messagePayload,
        text: '',
      },
      // @ts-expect-error A message's payload matched its schema.
      {
        ...base,
        event: 'message',
        kind: 'message',
        payload: { nope: 1 },
        text: '',
      },
      // @ts-expect-error Only a message adds text.
      {
        ...base,
        event: 'tool.call',
        kind: 'unknown',
        payload: {},
        text: 'x',
      },
      // @ts-expect-error A parse error has no payload.
      {
        ...base,
        event: 'x',
        kind: 'parse-error',
        payload: {},
        text: '',
      },
      // @ts-expect-error An invalid event adds no text.
      {
        ...base,
        event: 'message',
        kind: 'invalid',
        payload: {},
        text: 'x',
      },
    ];
    expect(events).toHaveLength(5);
  });
});

describe('the per-event message check', () => {
  it('answers as the message payload schema does, extra keys included', () => {
    const payloads: unknown[] = [
      JSON.parse(agentMessage),
      { messages: [] },
      { messages: [{ role: 'AGENT', content: [] }], extra: { deep: [1] } },
      { messages: [{ role: 'AGENT', content: [{ type: 'text', text: 'a', more: 1 }], x: 2 }] },
      { messages: [{ role: 'AGENT', content: [{ type: 'image' }] }] },
      { messages: [{ role: 'AGENT', content: [{ type: 'text', text: 3 }] }] },
      { messages: [{ role: 'AGENT', content: [{ text: 'no type' }] }] },
      { messages: [{ role: 7, content: [] }] },
      { messages: [{ content: [] }] },
      { messages: [{ role: 'AGENT' }] },
      { messages: [{ role: 'AGENT', content: {} }] },
      { messages: {} },
      { messages: [null] },
      { error: { message: 'crashed' } },
      JSON.parse('{"__proto__":{"x":1},"messages":[]}'),
      [],
      null,
      'text',
      42,
    ];
    for (const payload of payloads) {
      expect(z.validate(messageEventPayloadCheck, payload)).toBe(
        z.safeParse(messageEventPayloadSchema, payload).success,
      );
    }
  });
});
