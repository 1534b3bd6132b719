import * as z from 'zod/mini';

/**
 * A saved conversation message (`ConversationMessage`, conversation-message.ts) as zod describes
 * it: what `npm run generate:validators` compiles into conversation-message-check.generated.ts, one
 * check per field. No module imports it at run time: a page checks a saved thread without zod.
 * Loose objects: a key the library does not know is kept.
 */
export const conversationMessageSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  role: z.enum(['USER', 'GLEAN_AI']),
  text: z.string(),
  status: z.enum(['streaming', 'waiting', 'done', 'stopped', 'error']),
  error: z.optional(
    z.looseObject({
      kind: z.enum(['http', 'network', 'validation', 'input', 'run']),
      message: z.string(),
      status: z.optional(z.number()),
      code: z.optional(z.string()),
    }),
  ),
  createdAt: z.number(),
  startedAt: z.optional(z.number()),
  firstEventAt: z.optional(z.number()),
  endedAt: z.optional(z.number()),
  run: z.optional(
    z.looseObject({
      mode: z.literal('durable'),
      localId: z.optional(z.string()),
      runId: z.optional(z.string()),
    }),
  ),
});
