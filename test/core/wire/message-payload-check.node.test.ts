import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { generatedPath, checkModuleSource } from '../../../scripts/generate-validators.mjs';
import {
  checkMessageEventPayload,
  INVALID as GeneratedInvalid,
} from '../../../src/core/wire/message-payload-check.generated.js';
import type * as GeneratedCheck from '../../../src/core/wire/message-payload-check.generated.js';
import {
  messageEventPayloadCheck,
  messageEventPayloadSchema,
} from '../../../src/core/wire/schemas.js';

const valid = {
  messages: [
    { role: 'USER', content: [{ type: 'text', text: 'question' }] },
    { role: 'AGENT', content: [{ type: 'text', text: 'Hel' }, { type: 'image' }] },
  ],
};

/** Valid and invalid payloads, JSON's and others only code can make. */
const payloads: unknown[] = [
  valid,
  { messages: [] },
  { messages: [{ role: 'AGENT', content: [] }], extra: { deep: [1] } },
  { messages: [{ role: 'AGENT', content: [{ type: 'text', text: 'a', more: 1 }], x: 2 }] },
  { messages: [{ role: 'AGENT', content: [{ type: 'text', text: undefined }] }] },
  { messages: [{ role: 'AGENT', content: [{ type: 'text', text: null }] }] },
  { messages: [{ role: 'AGENT', content: [{ type: 'text', text: 3 }] }] },
  { messages: [{ role: 'AGENT', content: [{ text: 'no type' }] }] },
  { messages: [{ role: 'AGENT', content: [['text']] }] },
  { messages: [{ role: 'AGENT', content: new Array(2) }] },
  { messages: [{ role: 7, content: [] }] },
  { messages: [{ content: [] }] },
  { messages: [{ role: 'AGENT' }] },
  { messages: [{ role: 'AGENT', content: {} }] },
  { messages: [{ role: 'AGENT', content: 'text' }] },
  { messages: {} },
  { messages: [null] },
  { messages: [[]] },
  { messages: [valid.messages[0], { role: 'AGENT', content: [{ type: 1 }] }] },
  { error: { message: 'crashed' } },
  JSON.parse('{"__proto__":{"x":1},"messages":[]}'),
  Object.create({ messages: [] }),
  [],
  null,
  undefined,
  'text',
  42,
];

describe('the compiled message payload check', () => {
  it('is what zod compiles from today’s schema (else: npm run generate:validators)', () => {
    expect(readFileSync(generatedPath, 'utf8')).toBe(checkModuleSource(messageEventPayloadCheck));
  });

  it('answers as zod’s runtime does', () => {
    for (const payload of payloads) {
      const runtime = z.safeParse(messageEventPayloadSchema, payload).success;
      expect(checkMessageEventPayload(payload) === true, JSON.stringify(payload)).toBe(runtime);
    }
    expect(payloads.filter((payload) => checkMessageEventPayload(payload) === true)).toHaveLength(
      7,
    );
  });

  it('is what the engine asks, alone: its refusals are definite, so no zod runtime up front', async () => {
    const calls: unknown[] = [];
    let answer: 'compiled' | 'refuse' = 'compiled';
    vi.resetModules();
    vi.doMock(
      '../../../src/core/wire/message-payload-check.generated.js',
      async (importOriginal) => {
        const original = await importOriginal<typeof GeneratedCheck>();
        return {
          checkMessageEventPayload: (payload: unknown) => {
            calls.push(payload);
            return answer === 'compiled' ? original.checkMessageEventPayload(payload) : z.INVALID;
          },
        };
      },
    );
    try {
      const { isMessageEventPayload } = await import('../../../src/core/stream/classify-frame.js');
      for (const mode of ['compiled', 'refuse'] as const) {
        answer = mode;
        calls.length = 0;
        for (const payload of payloads) {
          expect(isMessageEventPayload(payload), `${mode} ${JSON.stringify(payload)}`).toBe(
            mode === 'compiled' && z.safeParse(messageEventPayloadSchema, payload).success,
          );
        }
        expect(calls).toEqual(payloads);
      }
    } finally {
      vi.doUnmock('../src/core/wire/message-payload-check.generated.js');
      vi.resetModules();
    }
  });

  it('returns zod’s INVALID without importing zod (which would put zod up front in esbuild)', () => {
    expect(GeneratedInvalid).toBe(z.INVALID);
    expect(checkMessageEventPayload(null)).toBe(z.INVALID);
    expect(readFileSync(generatedPath, 'utf8')).not.toMatch(/from ['"]zod/);
  });

  it('refuses a schema it cannot write as text', () => {
    const keyed = new Set(['a']);
    expect(() =>
      checkModuleSource(z.object({ kind: z.string().check(z.refine((v) => keyed.has(v))) })),
    ).toThrow(/only INVALID can be written/);
  });
});
