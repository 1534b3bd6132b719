import * as z from 'zod/mini';
import type { AgentClient } from './agent-client.js';
import { AgentHttpError, AgentInputError, type AgentError, type AgentErrorKind } from './errors.js';
import { RunStream, initialRunSnapshot, type RunStreamOptions } from './run-stream.js';
import { terminalRunStatuses, type RunSnapshot, type RunStatus } from './run-types.js';
import type { AgentMessage } from './schemas.js';

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
  kind: AgentErrorKind;
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

/** Where the conversation is: a turn's run status while it runs, `idle` between turns. */
export type ConversationStatus = 'idle' | 'connecting' | 'streaming' | 'reconnecting';

/** The state of a conversation: immutable, and the same object until something changes. */
export interface ConversationSnapshot {
  /** The thread, oldest first. */
  messages: readonly ConversationMessage[];
  status: ConversationStatus;
  /** The error the last turn ended with (until the next turn starts or the thread is cleared). */
  error: AgentError | undefined;
  /** The current (or last) turn's run: events, attempts, restarts, `reconnectReason`… */
  run: RunSnapshot;
  /** The run of each answer written in this session, by the answer's id (restored ones have none). */
  runs: ReadonlyMap<string, RunSnapshot>;
}

/** Options of {@link createAgentConversation}. */
export interface AgentConversationOptions extends RunStreamOptions {
  /** The agent that answers (it takes `messages`). */
  agentId: string;
  /**
   * A thread to restore (e.g. saved from `onMessagesChange`). Validated: a malformed entry makes
   * `createAgentConversation` throw an `AgentInputError`, and nothing is sent. A message saved as
   * `streaming` is restored as `stopped`.
   * @default []
   */
  initialMessages?: readonly ConversationMessage[] | undefined;
  /**
   * Called with the thread when a turn settles (done, failed or stopped) and when it is cleared:
   * the moment to save it.
   * @default undefined
   */
  onMessagesChange?: ((messages: readonly ConversationMessage[]) => void) | undefined;
  /**
   * Send a stopped answer's partial text as history in later turns.
   * @default true
   */
  sendStoppedAnswers?: boolean | undefined;
  /**
   * Send a failed answer's partial text as history in later turns (it is shown either way).
   * @default false
   */
  sendFailedAnswers?: boolean | undefined;
  /**
   * The most messages one run sends (the newest, the new USER message included); older ones stay
   * in the thread but are not sent.
   * @default undefined (the whole history)
   */
  maxHistoryMessages?: number | undefined;
  /**
   * `metadata` sent with every run.
   * @default undefined
   */
  metadata?: Record<string, unknown> | undefined;
  /**
   * Makes the id of a new message.
   * @default a random prefix and a counter
   */
  generateId?: (() => string) | undefined;
}

/** `send`, `retry` or `edit` while a turn runs: refused, nothing is sent. */
export class AgentConversationBusyError extends AgentInputError {
  constructor() {
    super('A turn is still running: stop it before sending another message. Nothing was sent.');
    this.name = 'AgentConversationBusyError';
  }
}

const conversationMessageSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  role: z.enum(['USER', 'GLEAN_AI']),
  text: z.string(),
  status: z.enum(['streaming', 'waiting', 'done', 'stopped', 'error']),
  error: z.optional(
    z.looseObject({
      kind: z.enum(['http', 'network', 'validation', 'input']),
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

/** The turn being written: its answer's id. */
interface Turn {
  answerId: string;
}

/**
 * A multi-turn conversation with an agent that takes `messages`, with no framework: each `send`
 * starts one run (one POST, through a {@link RunStream}) whose `messages` are the history the
 * service should see, then the new USER message. Subscribe with `subscribe` and read
 * `getSnapshot()` (the same object until something changes, at most one notification per frame
 * while an answer streams): it fits `useSyncExternalStore`. Create it with
 * {@link createAgentConversation}.
 */
export class AgentConversation {
  readonly #options: AgentConversationOptions;
  readonly #stream: RunStream;
  readonly #listeners = new Set<() => void>();
  readonly #generateId: () => string;
  readonly #now: () => number;
  #messages: readonly ConversationMessage[];
  #runs: ReadonlyMap<string, RunSnapshot> = new Map();
  #turn: Turn | undefined;
  #error: AgentError | undefined;
  #snapshot: ConversationSnapshot;

  constructor(client: AgentClient, options: AgentConversationOptions) {
    this.#options = options;
    this.#messages = Object.freeze(parseConversationMessages(options.initialMessages ?? []));
    this.#generateId = options.generateId ?? createIdGenerator();
    this.#now = options.now ?? Date.now;
    // RunStream reads only its own options (and the callbacks) from the object.
    this.#stream = new RunStream(client, options);
    this.#snapshot = this.#build();
    this.#stream.subscribe(() => this.#onRun());
  }

  /** The run stream behind the conversation (its `observe` adds callbacks). */
  get stream(): RunStream {
    return this.#stream;
  }

  /** The client the next turn uses. */
  setClient(client: AgentClient): void {
    this.#stream.setClient(client);
  }

  /** The current snapshot: the same object until a change is published. */
  getSnapshot = (): ConversationSnapshot => this.#snapshot;

  /** Calls `listener` after each published change. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * Sends a USER message and starts the agent's answer (one POST). Throws an
   * {@link AgentConversationBusyError} while a turn runs and an `AgentInputError` for blank text;
   * nothing is sent then. Resolves when the turn settles (never rejects).
   */
  send(text: string): Promise<ConversationSnapshot> {
    this.#assertIdle();
    const trimmed = text.trim();
    if (trimmed === '') throw new AgentInputError('The message is empty: nothing was sent.');
    const question: ConversationMessage = {
      id: this.#generateId(),
      role: 'USER',
      text: trimmed,
      status: 'done',
      createdAt: this.#now(),
    };
    return this.#startTurn([...this.#messages, question]);
  }

  /**
   * Runs the last USER message again, replacing the answer after it (failed, stopped or done).
   * Throws an {@link AgentConversationBusyError} while a turn runs; does nothing (resolves with the
   * snapshot) when the thread has no USER message.
   */
  retry(): Promise<ConversationSnapshot> {
    this.#assertIdle();
    const lastUser = findLastIndex(this.#messages, (message) => message.role === 'USER');
    if (lastUser === -1) return Promise.resolve(this.#snapshot);
    return this.#startTurn(this.#messages.slice(0, lastUser + 1));
  }

  /**
   * Replaces the text of a USER message, drops every message after it and sends the edited
   * history (one POST). Throws an `AgentInputError` for an unknown id, an agent message or blank
   * text, an {@link AgentConversationBusyError} while a turn runs.
   */
  edit(messageId: string, text: string): Promise<ConversationSnapshot> {
    this.#assertIdle();
    const index = this.#messages.findIndex((message) => message.id === messageId);
    const message = this.#messages[index];
    if (message === undefined) {
      throw new AgentInputError(`No message has the id "${messageId}": nothing was sent.`);
    }
    if (message.role !== 'USER') {
      throw new AgentInputError('Only a USER message can be edited: nothing was sent.');
    }
    const trimmed = text.trim();
    if (trimmed === '') throw new AgentInputError('The message is empty: nothing was sent.');
    const edited: ConversationMessage = { ...message, text: trimmed, createdAt: this.#now() };
    return this.#startTurn([...this.#messages.slice(0, index), edited]);
  }

  /** Stops the turn: the socket closes, the partial answer stays, marked `stopped`. */
  stop(): void {
    this.#stream.abort();
  }

  /** Aborts a running turn and empties the thread. */
  clear(): void {
    this.#turn = undefined;
    this.#stream.reset();
    this.#messages = Object.freeze([]);
    this.#runs = new Map();
    this.#error = undefined;
    this.#publish();
    this.#options.onMessagesChange?.(this.#messages);
  }

  /** Aborts a running turn (the thread keeps it as `stopped`); for an owner going away. */
  dispose(): void {
    this.#stream.abort();
  }

  /** The `messages` of the run that answers the last message of `thread`, in the wire shape. */
  historyOf(thread: readonly ConversationMessage[]): AgentMessage[] {
    const {
      sendStoppedAnswers = true,
      sendFailedAnswers = false,
      maxHistoryMessages,
    } = this.#options;
    const sent = thread.filter((message) => {
      if (message.role === 'USER') return true;
      if (message.text === '') return false;
      if (message.status === 'done') return true;
      if (message.status === 'stopped') return sendStoppedAnswers;
      if (message.status === 'error') return sendFailedAnswers;
      return false;
    });
    const limited =
      maxHistoryMessages !== undefined && maxHistoryMessages > 0
        ? sent.slice(-Math.floor(maxHistoryMessages))
        : sent;
    return limited.map((message) => ({
      role: message.role,
      content: [{ type: 'text', text: message.text }],
    }));
  }

  #assertIdle() {
    if (this.#turn !== undefined) throw new AgentConversationBusyError();
  }

  #startTurn(thread: readonly ConversationMessage[]): Promise<ConversationSnapshot> {
    const messages = this.historyOf(thread);
    const answer: ConversationMessage = {
      id: this.#generateId(),
      role: 'GLEAN_AI',
      text: '',
      status: 'streaming',
      createdAt: this.#now(),
    };
    const runs = new Map(this.#runs);
    for (const id of runs.keys()) {
      if (!thread.some((message) => message.id === id)) runs.delete(id);
    }
    this.#runs = runs;
    this.#messages = Object.freeze([...thread, answer]);
    this.#error = undefined;
    const turn: Turn = { answerId: answer.id };
    this.#turn = turn;
    const { agentId, metadata } = this.#options;
    // The stream publishes `connecting` synchronously: #onRun builds the snapshot.
    const done = this.#stream.start({ agentId, messages, ...(metadata ? { metadata } : {}) });
    return done.then(() => this.#snapshot);
  }

  #onRun() {
    const turn = this.#turn;
    if (turn === undefined) return;
    const run = this.#stream.getSnapshot();
    if (run === initialRunSnapshot) return;
    const ended = terminalRunStatuses.has(run.status);
    const status: ConversationMessageStatus = !ended
      ? 'streaming'
      : run.status === 'done'
        ? 'done'
        : run.status === 'error'
          ? 'error'
          : 'stopped';
    this.#messages = Object.freeze(
      this.#messages.map((message) =>
        message.id === turn.answerId
          ? {
              ...message,
              text: run.text,
              status,
              ...(run.status === 'error' && run.error ? { error: plainError(run.error) } : {}),
              startedAt: run.startedAt,
              firstEventAt: run.firstEventAt,
              endedAt: run.endedAt,
            }
          : message,
      ),
    );
    if (ended) {
      this.#turn = undefined;
      this.#error = run.error;
      const runs = new Map(this.#runs);
      runs.set(turn.answerId, run);
      this.#runs = runs;
    }
    this.#publish();
    if (ended) this.#options.onMessagesChange?.(this.#messages);
  }

  #publish() {
    this.#snapshot = this.#build();
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        console.error('agent-console-kit: an AgentConversation listener threw', error);
      }
    }
  }

  #build(): ConversationSnapshot {
    const run = this.#stream.getSnapshot();
    return {
      messages: this.#messages,
      status: this.#turn === undefined ? 'idle' : conversationStatusOf(run.status),
      error: this.#error,
      run,
      runs: this.#runs,
    };
  }
}

/**
 * Creates an {@link AgentConversation}. Throws an `AgentInputError` when `initialMessages` is
 * malformed.
 *
 * @example
 * const conversation = createAgentConversation(client, {
 *   agentId: 'helpdesk',
 *   initialMessages: saved,
 *   onMessagesChange: (messages) => localStorage.setItem('thread', JSON.stringify(messages)),
 * });
 * conversation.subscribe(() => render(conversation.getSnapshot()));
 * await conversation.send('Where is my laptop order?');
 */
export function createAgentConversation(
  client: AgentClient,
  options: AgentConversationOptions,
): AgentConversation {
  return new AgentConversation(client, options);
}

function conversationStatusOf(status: RunStatus): ConversationStatus {
  return status === 'connecting' || status === 'streaming' || status === 'reconnecting'
    ? status
    : 'idle';
}

function plainError(error: AgentError): ConversationMessageError {
  if (error instanceof AgentHttpError) {
    return { kind: error.kind, message: error.message, status: error.status, code: error.code };
  }
  return { kind: error.kind, message: error.message };
}

function createIdGenerator(): () => string {
  const prefix = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  return () => `msg-${prefix}-${(++counter).toString(36)}`;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item !== undefined && predicate(item)) return index;
  }
  return -1;
}
