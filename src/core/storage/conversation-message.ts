import { conversationMessageFields, INVALID } from './conversation-message-check.generated.js';
import { AgentInputError, type AgentErrorKind } from '../wire/errors.js';

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

const knownKeys = conversationMessageFields.map(([key]) => key);

/** An object as a loose object takes it: not null, not an array. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `value` as zod's parse of a loose object makes it: the known keys it has, then the rest. */
function looseCopy(value: Record<string, unknown>, known: readonly string[]) {
  const copy: Record<string, unknown> = {};
  for (const key of known) if (key in value) copy[key] = value[key];
  for (const key in value) {
    if (key !== '__proto__' && !known.includes(key)) copy[key] = value[key];
  }
  return copy;
}

/**
 * `entry` checked field by field with the checks zod's compiler wrote from
 * `conversationMessageSchema` (conversation-message-schema.ts; no zod on the page), and copied as
 * zod's parse copies it. Throws an {@link AgentInputError} naming the first malformed field.
 */
function messageAt(entry: unknown, index: number): ConversationMessage {
  const malformed = (where: string) =>
    new AgentInputError(`initialMessages[${index}]${where} is malformed: nothing was sent.`);
  if (!isObject(entry)) throw malformed('');
  // Read once, as zod's parse reads: the checks see what is kept.
  const message = looseCopy(entry, knownKeys);
  for (const [key, check, keys] of conversationMessageFields) {
    const read = message[key];
    const value = keys !== undefined && isObject(read) ? looseCopy(read, keys) : read;
    if (check(value) === INVALID) throw malformed(`.${key}`);
    if (key in message) message[key] = value;
  }
  return message as unknown as ConversationMessage;
}

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
    const message = messageAt(entry, index);
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
