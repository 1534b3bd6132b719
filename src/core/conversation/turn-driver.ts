import type { AgentClient } from '../wire/agent-client.js';
import type {
  ConversationMessage,
  ConversationMessageError,
} from '../storage/conversation-message.js';
import type { DurableRunSnapshot } from '../durable/durable-run-snapshot.js';
import type { DurableInteraction, DurableRunDecision } from '../wire/durable-run-schemas.js';
import { AgentHttpError, type AgentError } from '../wire/errors.js';
import type { RunSnapshot, RunStatus } from '../stream/run-types.js';
import type { AgentMessage } from '../wire/schemas.js';
import type { ConversationApprovalStatus } from './conversation-options.js';

/** Where a running turn is, as the conversation's `status` says it. */
export type TurnPhase = 'connecting' | 'streaming' | 'reconnecting' | 'waiting';

/** The state of one turn, as its driver shows it: immutable, the same object until a change. */
export interface TurnSnapshot {
  /** The answer changes no more (done, failed, stopped; a durable start that may have started). */
  ended: boolean;
  /** Where the turn is while it runs. */
  phase: TurnPhase;
  /** Where the turn stands in a run's words (what a status line shows), `waiting` for approval. */
  status: RunStatus | 'waiting';
  /** The error the turn ended with. */
  error: AgentError | undefined;
  /** The approvals the turn waits for. */
  pendingInteractions: readonly DurableInteraction[];
  /** Where the answer to `pendingInteractions` stands. */
  approvalStatus: ConversationApprovalStatus;
  /** Why that answer failed, with `approvalStatus: 'error'`. */
  approvalError: AgentError | undefined;
  /** The streamed run of the turn (a stream turn only). */
  run: RunSnapshot | undefined;
  /** The durable run of the turn (a durable turn only). */
  durableRun: DurableRunSnapshot | undefined;
  /** The service accepted the turn (its run id is known): the thread is worth saving once. */
  accepted: boolean;
}

/** One turn under way (or ended): what the conversation asks of it. */
export interface TurnHandle {
  subscribe(listener: () => void): () => void;
  getSnapshot(): TurnSnapshot;
  /** The answer message as this turn shows it now (`now`: the end time, if it has ended). */
  answer(message: ConversationMessage, now: number): ConversationMessage;
  /** The person stopped it: a stream is aborted, a durable run cancelled. */
  stop(): void;
  /** Answers the approvals the turn waits for (a turn that can wait for them). */
  respond?: ((decisions: readonly DurableRunDecision[]) => Promise<void>) | undefined;
  /** The owner went away: a stream is aborted, a durable run only no longer watched. */
  detach(): void;
  /** The owner is back (after `detach`): a durable run is watched again. */
  resume(): void;
  /** The thread was cleared: a stream forgets its run, a durable run is left running, unwatched. */
  discard(): void;
}

/** What one turn sends: the history in the wire shape, and the run's `metadata`. */
export interface TurnRequest {
  messages: AgentMessage[];
  metadata?: Record<string, unknown>;
}

/** What {@link TurnDriver.start} is given besides the request. */
export interface TurnStartOptions {
  /**
   * Awaited before the request goes out, once the turn can be found again (a thread's save);
   * given the turn, which `start` has not returned yet.
   */
  beforeSend?: ((turn: TurnHandle) => Promise<void>) | undefined;
}

/** A stored answer that a run still writes (found when the thread loaded). */
export interface TurnRef {
  answerId: string;
  runId: string;
  /** The thread holds the run id already (else it is saved once the turn is accepted). */
  saved: boolean;
}

/**
 * How a turn travels: the one seam between a conversation and the network. The conversation
 * never asks whether its turns stream or are durable; it starts a turn, follows its handle, and
 * on a reload asks which stored answer a run still writes.
 */
export interface TurnDriver {
  /** Starts a turn (its request may go out later, e.g. once the durable run's code loaded). */
  start(request: TurnRequest, options?: TurnStartOptions): TurnHandle;
  /**
   * The stored thread's last answer when a run still writes it: loads what following it needs
   * first. Resolves `undefined` when none does (or that code could not load).
   */
  findTurn(messages: readonly ConversationMessage[]): Promise<TurnRef | undefined>;
  /** Follows the run of a found answer (not watched until the handle's `resume()`). */
  attach(ref: TurnRef): TurnHandle;
  /** Loads what a turn will need (resolves when it is there, or failed: the turn says so). */
  preload(): Promise<void>;
  /**
   * A started turn outlives its owner (its request cannot be taken back by a `detach`): a
   * conversation whose owner went away starts none until it is back.
   */
  readonly outlivesPage: boolean;
  /** The client of the next turn. */
  setClient(client: AgentClient): void;
}

/** What a stored answer says when no run writes it any more and its start may have gone out. */
export const interruptedMessage = 'This turn may have started: it was not sent again.';

/** A run may still write the message. */
export function isInFlight(message: ConversationMessage): boolean {
  return message.status === 'streaming' || message.status === 'waiting';
}

/** The durable run of the thread's last answer while one may still write it. */
export function lastInFlightRun(
  messages: readonly ConversationMessage[],
): ConversationMessage['run'] | undefined {
  const last = messages.at(-1);
  if (last === undefined || last.role !== 'GLEAN_AI' || !isInFlight(last)) return undefined;
  return last.run;
}

/** An error as a message keeps it (plain data a thread store can hold). */
export function plainError(error: AgentError): ConversationMessageError {
  if (error instanceof AgentHttpError) {
    return { kind: error.kind, message: error.message, status: error.status, code: error.code };
  }
  return { kind: error.kind, message: error.message };
}
