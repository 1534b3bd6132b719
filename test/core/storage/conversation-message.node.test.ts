import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { AgentInputError, createAgentClient, type ConversationMessage } from 'agent-console-kit';
import { createAgentConversation } from 'agent-console-kit/core';
import { textEvents } from 'agent-console-kit/testing';
import {
  conversationMessageCheckPath,
  conversationMessageModuleSource,
} from '../../../scripts/generate-validators.mjs';
import { conversationMessageSchema } from '../../../src/core/storage/conversation-message-schema.js';
import { parseStoredConversationMessages } from '../../../src/core/storage/conversation-message.js';
import { serveChat } from '../../support/mock-server.js';

const message = { id: 'm1', role: 'USER', text: 'Hi', status: 'done', createdAt: 1 };
const answer = {
  id: 'm2',
  role: 'GLEAN_AI',
  text: 'Cut',
  status: 'error',
  createdAt: 2,
  startedAt: 2,
  firstEventAt: 3,
  endedAt: 4,
  error: { kind: 'run', message: 'crashed', status: 500, code: 'E' },
  run: { mode: 'durable', localId: 'l', runId: 'r' },
};

/** Saved messages zod's runtime takes or refuses: JSON's, and others only code can make. */
const entries: unknown[] = [
  message,
  answer,
  { ...message, extra: { kept: [1] }, another: null },
  { ...answer, error: { ...answer.error, detail: 'kept' }, run: { ...answer.run, more: 1 } },
  { ...message, error: undefined, run: undefined, startedAt: undefined },
  { ...message, id: '\u{1F600}' },
  { ...message, id: '' },
  { ...message, id: 1 },
  { role: 'USER', text: 'Hi', status: 'done', createdAt: 1 },
  { ...message, role: 'SYSTEM' },
  { ...message, text: undefined },
  { ...message, status: 'sent' },
  { ...message, createdAt: '1' },
  { ...message, createdAt: Number.NaN },
  { ...message, endedAt: Number.POSITIVE_INFINITY },
  { ...answer, error: { kind: 'teapot', message: 'x' } },
  { ...answer, error: { kind: 'http' } },
  { ...answer, error: { kind: 'http', message: 'x', status: '500' } },
  { ...answer, error: null },
  { ...answer, error: [] },
  { ...answer, run: { mode: 'stream' } },
  { ...answer, run: { mode: 'durable', runId: 7 } },
  { ...answer, run: 'durable' },
  JSON.parse(
    '{"__proto__":{"x":1},"id":"p","role":"USER","text":"a","status":"done","createdAt":1}',
  ),
  Object.create(message),
  Object.assign(Object.create({ inherited: 'kept?' }), message),
  { ...answer, error: Object.assign(Object.create({ hidden: 1 }), answer.error) },
  [],
  null,
  undefined,
  'text',
  42,
];

describe('a saved conversation message', () => {
  it('is checked by what zod compiles from today’s schema (else: npm run generate:validators)', () => {
    const source = readFileSync(conversationMessageCheckPath, 'utf8');
    expect(source).toBe(conversationMessageModuleSource(conversationMessageSchema));
    expect(source).not.toMatch(/from ['"]zod/);
  });

  it('is taken or refused as zod’s runtime does, and kept as zod’s parse keeps it', () => {
    let accepted = 0;
    for (const entry of entries) {
      const runtime = z.safeParse(conversationMessageSchema, entry);
      const label = JSON.stringify(entry) ?? String(entry);
      if (runtime.success) {
        accepted += 1;
        expect(parseStoredConversationMessages([entry]), label).toStrictEqual([runtime.data]);
      } else {
        expect(() => parseStoredConversationMessages([entry]), label).toThrow(AgentInputError);
      }
    }
    expect(accepted).toBeGreaterThan(4);
  });

  it.each([
    ['a status it does not know', { ...message, status: 'sent' }, '.status'],
    ['no id', { role: 'USER', text: 'Hi', status: 'done', createdAt: 1 }, '.id'],
    ['an empty id', { ...message, id: '' }, '.id'],
    [
      'an error of a kind it does not know',
      { ...answer, error: { kind: 'x', message: 'm' } },
      '.error',
    ],
    ['a run that is not durable', { ...answer, run: { mode: 'stream' } }, '.run'],
    ['no createdAt', { id: 'x', role: 'USER', text: 'Hi', status: 'done' }, '.createdAt'],
    ['null', null, ''],
    ['an array', [message], ''],
    ['a string', 'Hi', ''],
  ])(
    'refuses %s, naming the entry and its field, and sends nothing',
    async (_name, malformed, where) => {
      const mock = await serveChat({ events: textEvents('unused') });
      const client = createAgentClient({ baseUrl: mock.url, api: 'platform', token: 'tok-1234' });
      // A saved thread as the app read it: not checked yet.
      const initialMessages = [message, answer, malformed] as unknown as ConversationMessage[];

      let refusal: unknown;
      try {
        createAgentConversation(client, { agentId: 'chat', initialMessages });
      } catch (error) {
        refusal = error;
      }

      expect(refusal).toBeInstanceOf(AgentInputError);
      expect((refusal as Error).message).toBe(
        `initialMessages[2]${where} is malformed: nothing was sent.`,
      );
      expect(mock.postCount()).toBe(0);
    },
  );

  it('keeps the keys it does not know, on the message and in its error and run', () => {
    const extra = {
      ...answer,
      reaction: '👍',
      error: { ...answer.error, retryAfter: 3 },
      run: { ...answer.run, attempt: 2 },
    };
    const [kept] = parseStoredConversationMessages([extra]);

    expect(kept).toEqual(extra);
    expect(kept?.error).not.toBe(extra.error);
    expect(kept?.run).not.toBe(extra.run);
  });

  it('is checked without zod: nothing conversation-message.ts loads imports zod', async () => {
    const { metafile } = await build({
      entryPoints: [
        fileURLToPath(
          new URL('../../../src/core/storage/conversation-message.ts', import.meta.url),
        ),
      ],
      bundle: true,
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const loaded = Object.keys(metafile.inputs);

    expect(loaded.some((path) => path.endsWith('conversation-message-check.generated.ts'))).toBe(
      true,
    );
    expect(loaded.filter((path) => path.includes('node_modules/zod/'))).toEqual([]);
  });

  it('refuses to write a schema it cannot check field by field', () => {
    const shape = conversationMessageSchema._zod.def.shape;
    const refused = [
      z.object(shape),
      z.looseObject({ ...shape, tags: z.optional(z.array(z.string())) }),
      z.looseObject({ ...shape, run: z.optional(z.looseObject({ at: z.looseObject({}) })) }),
      z.looseObject({ ...shape, note: z.unknown() }),
      z.looseObject({ ...shape, text: z.string().check(z.refine((text) => text !== '')) }),
    ];
    for (const schema of refused) {
      expect(() => conversationMessageModuleSource(schema)).toThrow(/generate-validators/);
    }
  });
});
