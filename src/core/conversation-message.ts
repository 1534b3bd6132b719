import * as z from 'zod/mini';
import { AgentInputError, type AgentErrorKind } from './errors.js';

/** Who wrote a message: the person (`USER`) or the agent (`GLEAN_AI`), as on the wire. */
export type ConversationRole = 'USER' | 'GLEAN_AI';

/**
 * Where a message is: `streaming` while the agent writes it, `waiting` (a durable turn paused
 * until a person approves or rejects a tool call), `done`, `stopped` (the turn was
 * stopped: the partial answer stays) or `error` (the turn failed). A USER message is always `done`.
 */
export type ConversationMessageStatus = 'streaming' | 'waiting' | 'done' | 'stopped' | 'error';

/** The run behind an answer written as a durable run: what a reload attaches again. */
export interface ConversationMessageRun {
  mode: 'durable';
  /** The run store's id of the run, known before the start POST. */
  localId?: string | undefined;
  /** The service's run id, from the 201. */
  runId?: string | undefined;
}

/** Why an answer failed, as plain JSON (the typed error of the last turn is `snapshot.error`). */
export interface ConversationMessageError {
  /** The error's kind; `run` for a failure the service reported for a durable run. */
  kind: AgentErrorKind | 'run';
  message: string;
  /** The HTTP status, for an HTTP error. */
  status?: number | undefined;
  /** The problem detail's `code`, when the service sent one. */
  code?: string | undefined;
}

/** One message of a conversation: plain JSON, so it can be saved and restored as it is. */
export interface ConversationMessage {
  id: string;
  role: ConversationRole;
  text: string;
  status: ConversationMessageStatus;
  /** Why the answer failed (status `error`). */
  error?: ConversationMessageError | undefined;
  /** When the message was written (a USER message) or its run started (an answer), epoch ms. */
  createdAt: number;
  /** An answer's run: when it started, when its first event came, when it ended (epoch ms). */
  startedAt?: number | undefined;
  firstEventAt?: number | undefined;
  endedAt?: number | undefined;
  /** The durable run that writes this answer (durable mode only). */
  run?: ConversationMessageRun | undefined;
}

const conversationMessageSchema = z.looseObject({
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

/**
 * Checks a saved thread (e.g. parsed from `localStorage`) and returns it as conversation messages.
 * Throws an {@link AgentInputError} naming the first malformed entry. A `streaming` message comes
 * back `stopped` (no run is writing it any more).
 *
 * @example
 * const saved = parseConversationMessages(JSON.parse(localStorage.getItem('thread') ?? '[]'));
 */
export function parseConversationMessages(value: unknown): ConversationMessage[] {
  return parseStoredConversationMessages(value).map((message) =>
    message.status === 'streaming' || message.status === 'waiting'
      ? { ...message, status: 'stopped' }
      : message,
  );
}

/**
 * Like {@link parseConversationMessages}, but keeps every status as stored (a thread store's
 * durable answer is attached again rather than stopped).
 */
export function parseStoredConversationMessages(value: unknown): ConversationMessage[] {
  if (!Array.isArray(value)) {
    throw new AgentInputError('initialMessages must be an array of conversation messages.');
  }
  const ids = new Set<string>();
  return value.map((entry: unknown, index) => {
    const parsed = conversationMessageSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `.${issue.path.map(String).join('.')}` : '';
      throw new AgentInputError(
        `initialMessages[${index}]${where} is malformed (${issue?.message ?? 'invalid'}): nothing was sent.`,
      );
    }
    const message = parsed.data as ConversationMessage;
    if (ids.has(message.id)) {
      throw new AgentInputError(`initialMessages[${index}].id "${message.id}" is used twice.`);
    }
    ids.add(message.id);
    if (message.role === 'USER' && message.text.trim() === '') {
      throw new AgentInputError(`initialMessages[${index}] is a USER message without text.`);
    }
    return message;
  });
}
