import type { ConversationMessage } from '../storage/conversation-message.js';
import type { DurableRunOptions, DurableRunSnapshot } from '../durable/durable-run.js';
import type { DurableInteraction } from '../wire/durable-run-schemas.js';
import type { AgentError } from '../wire/errors.js';
import type { RunStreamOptions } from '../stream/run-stream.js';
import type { RunSnapshot, RunStatus } from '../stream/run-types.js';
import type { ThreadStore } from '../storage/thread-store.js';
import type { MessageVersion } from './message-versions.js';

/**
 * Where the answer to a turn's approvals stands: `'idle'` (nothing sent, or it was accepted),
 * `'responding'` (being sent), `'error'` (refused or not delivered: see `approvalError`).
 */
export type ConversationApprovalStatus = 'idle' | 'responding' | 'error';

/**
 * Where the conversation is: a turn's run status while it runs, `idle` between turns, `loading`
 * while its thread is read from the thread store (a send then waits), `waiting` while a durable
 * turn waits for a person's approval.
 */
export type ConversationStatus =
  'idle' | 'loading' | 'connecting' | 'streaming' | 'reconnecting' | 'waiting';

/** How a turn runs: `stream` (one SSE response; gone with the page) or `durable` (polled). */
export type ConversationExecutionMode = 'stream' | 'durable';

/** The state of a conversation: immutable, and the same object until something changes. */
export interface ConversationSnapshot {
  /** The thread, oldest first: the version of it shown (see `versions`). */
  messages: readonly ConversationMessage[];
  /**
   * The messages of `messages` that begin one of several versions (an edit, a regenerate), by id:
   * which one this is (`index`, from 0) of `count`, and the first message of each (`ids`, for
   * `showVersion`). Empty while the thread has one version.
   */
  versions: ReadonlyMap<string, MessageVersion>;
  status: ConversationStatus;
  /** The error the last turn ended with (until the next turn starts or the thread is cleared). */
  error: AgentError | undefined;
  /** The current (or last) turn's run: events, attempts, restarts, `reconnectReason`… */
  run: RunSnapshot;
  /** The run of each answer written in this session, by the answer's id (restored ones have none). */
  runs: ReadonlyMap<string, RunSnapshot>;
  executionMode: ConversationExecutionMode;
  /** The durable run of the current (or last) durable turn. */
  durableRun: DurableRunSnapshot | undefined;
  /** The approvals the current durable turn waits for (answer them with `respond`). */
  pendingInteractions: readonly DurableInteraction[];
  /**
   * Where the answer to `pendingInteractions` stands (an error belongs to the batch it answered):
   * tracked once, by the turn, for every view of the conversation.
   */
  approvalStatus: ConversationApprovalStatus;
  /**
   * Why that answer failed, with `approvalStatus: 'error'`: a 409 (answered or changed elsewhere;
   * not sent again), a 503 or network error after the retries, or a refused batch.
   */
  approvalError: AgentError | undefined;
  /**
   * Where the current (or last) turn stands in a run's words, a durable turn's too: what a status
   * line shows (`aborted` after Stop, `done`, `error`; `idle` before any turn and after a clear).
   */
  turnStatus: RunStatus | 'waiting';
  /** The thread's id in the thread store (`undefined` without a `threadStore`). */
  threadId: string | undefined;
  /** The revision of the thread last loaded or saved (0 before the first save). */
  threadRevision: number;
  /** Why the thread could not be loaded or saved (a conflict, a full storage, a malformed thread). */
  threadError: Error | undefined;
}

/** What an edit or a regenerate asks of a turn under way. */
export interface ConversationChangeOptions {
  /**
   * While a turn runs: stop it (a durable run is cancelled) and go on once it has ended, in one
   * step. Without it, a turn under way refuses the change with an `AgentConversationBusyError`.
   * @default false
   */
  stopRunning?: boolean | undefined;
}

/** Options of {@link createAgentConversation}. */
export interface AgentConversationOptions extends Omit<RunStreamOptions, 'abortWhenUnobserved'> {
  /** The agent that answers (it takes `messages`). */
  agentId: string;
  /**
   * `dispose()` once no listener is subscribed (a microtask after the last one left, unless one
   * came back), and `resume()` when one comes again; a send made while none is, after one was, is
   * disposed of too: the conversation then lives as long as something reads it, as a hook's own
   * conversation does.
   * @default false (a turn goes on until it settles, `stop()` or `dispose()`)
   */
  disposeWhenUnobserved?: boolean | undefined;
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
  /**
   * How each turn runs: `'stream'` (one SSE response, gone with the page) or `'durable'` (a
   * durable run, polled: it survives a reload, can wait for approvals, and Stop cancels it;
   * `api: 'platform'` only).
   * @default 'stream'
   */
  executionMode?: ConversationExecutionMode | undefined;
  /**
   * Where the thread is kept: it is loaded once connected (`connect()`, the first `subscribe`, or
   * a send, which waits meanwhile; never on creation) and saved when a turn settles, before a
   * durable turn's start POST and when it is accepted (never per token or per poll).
   * @default undefined (nothing is saved; see `onMessagesChange`)
   */
  threadStore?: ThreadStore | undefined;
  /**
   * The thread to load from `threadStore` (a new one with this id when there is none).
   * @default a new random id, when there is a `threadStore`
   */
  threadId?: string | undefined;
  /**
   * The durable runs' store, poll schedule and environment (durable mode). Give the same `store`
   * after a reload so the unfinished turn is attached again.
   * @default {} (the page's run store, the default schedule)
   */
  durableRun?: Pick<DurableRunOptions, 'store' | 'poll' | 'environment'> | undefined;
}
