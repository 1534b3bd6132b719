import * as z from 'zod/mini';

/** The body of a thread's save (`PUT …/threads/{id}`): unknown fields kept. */
export const saveBodySchema = z.looseObject({
  thread: z.looseObject({
    agentId: z.string(),
    title: z.optional(z.string()),
    messages: z.array(z.unknown()),
  }),
  expectedRevision: z.optional(z.number()),
});

/** The body of a thread's rename (`PATCH …/threads/{id}`). */
export const renameBodySchema = z.looseObject({ title: z.string() });
