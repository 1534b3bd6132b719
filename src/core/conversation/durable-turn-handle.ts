// A conversation's durable turn once the durable run's code is there: loaded with it, by
// `import()` (conversation-durable-turn.ts), so a conversation that only streams does not carry it
// (docs/decisions/0014-bundle-size.md).
import type { ConversationMessage } from '../storage/conversation-message.js';
import type { DurableRun } from '../durable/durable-run.js';
import {
  settledDurableRunStatuses,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from '../durable/durable-run-snapshot.js';
import type { DurableInteraction, DurableRunDecision } from '../wire/durable-run-schemas.js';
import { AgentError, AgentInputError } from '../wire/errors.js';
import type { RunStatus } from '../stream/run-types.js';
import { ListenerSet } from '../base/subscribable.js';
import type { ConversationApprovalStatus } from './conversation-options.js';
import {
  interruptedMessage,
  plainError,
  type TurnHandle,
  type TurnPhase,
  type TurnRef,
  type TurnRequest,
  type TurnSnapshot,
  type TurnStartOptions,
} from './turn-driver.js';

/** The answer to a batch of approvals: the batch it answered, and how it went. */
interface ApprovalAnswer {
  batchKey: string | undefined;
  status: ConversationApprovalStatus;
  error: AgentError | undefined;
}

const noAnswer: ApprovalAnswer = { batchKey: undefined, status: 'idle', error: undefined };
const noApprovals: readonly DurableInteraction[] = Object.freeze([]);

/**
 * One turn as one durable run, once the durable run's code is there (`durable-turn.ts` shows the
 * first turn of the page while it loads, then hands over to this one).
 */
export class DurableTurn implements TurnHandle {
  readonly #createRun: () => DurableRun;
  readonly #listeners = new ListenerSet();
  #run: DurableRun | undefined;
  #unfollow: (() => void) | undefined;
  /** The run id came (or was in the thread): saved once. */
  #accepted = false;
  /** The run id of an attached turn. */
  #runId: string | undefined;
  /** Stop was asked before the run id was known: cancel once it is. */
  #cancelWhenAccepted = false;
  /** The owner went away: watched again by resume(). */
  #detached = false;
  #answer: ApprovalAnswer = noAnswer;
  #snapshot: TurnSnapshot;

  constructor(createRun: () => DurableRun) {
    this.#createRun = createRun;
    this.#snapshot = this.#build();
  }

  start(request: TurnRequest, options: TurnStartOptions = {}): this {
    const run = this.#createRun();
    this.#follow(run);
    const { beforeSend } = options;
    void run.start(request, beforeSend === undefined ? {} : { beforeSend: () => beforeSend(this) });
    return this;
  }

  /** Follows the run of a stored answer. */
  attach(ref: TurnRef): this {
    this.#runId = ref.runId;
    this.#accepted = ref.saved;
    this.#detached = true;
    this.#follow(this.#createRun());
    return this;
  }

  subscribe = this.#listeners.subscribe;

  getSnapshot = (): TurnSnapshot => {
    // A run no longer followed (detached) still shows its last facts, as a live read would.
    const durable = this.#run?.getSnapshot();
    if (durable !== undefined && durable !== this.#snapshot.durableRun) {
      this.#snapshot = this.#build();
    }
    return this.#snapshot;
  };

  answer(message: ConversationMessage, now: number): ConversationMessage {
    const durable = this.#run?.getSnapshot();
    if (durable === undefined) return message;
    if (isReading(durable)) return { ...message, status: 'streaming' };
    return answerOfDurable(message, durable, this.#snapshot.ended ? now : undefined);
  }

  stop(): void {
    const run = this.#run;
    if (run === undefined || run.getSnapshot().runId === undefined) {
      this.#cancelWhenAccepted = true;
      return;
    }
    void run.cancel();
  }

  respond = async (decisions: readonly DurableRunDecision[]): Promise<void> => {
    const run = this.#run;
    if (run === undefined || this.#snapshot.ended) {
      throw new AgentInputError('No durable turn waits for approval.');
    }
    // One answer at a time: another one is not sent while this one is.
    if (this.#snapshot.approvalStatus === 'responding') return;
    const batchKey = run.getSnapshot().batchKey;
    const answer: ApprovalAnswer = { batchKey, status: 'responding', error: undefined };
    this.#setAnswer(answer);
    let outcome: ApprovalAnswer = noAnswer;
    try {
      const durable = await run.respond(decisions);
      // The durable run keeps a refused answer's error while it waits on the same batch.
      if (durable.status === 'requires-input' && durable.error instanceof AgentError) {
        outcome = { batchKey, status: 'error', error: durable.error };
      }
    } catch (error) {
      const agentError =
        error instanceof AgentError
          ? error
          : new AgentInputError(error instanceof Error ? error.message : String(error));
      if (this.#answer === answer)
        this.#setAnswer({ batchKey, status: 'error', error: agentError });
      throw error;
    }
    if (this.#answer === answer) this.#setAnswer(outcome);
  };

  detach(): void {
    this.#detached = true;
    // A turn whose code loads starts once it has loaded, as one in its start POST goes on: a
    // detach during the POST would drop its run id, so it is followed until that is known.
    const run = this.#run;
    if (run === undefined || run.getSnapshot().status === 'starting') return;
    this.#stopWatching();
  }

  resume(): void {
    this.#detached = false;
    const run = this.#run;
    if (run === undefined) return;
    // detach() stopped following the run: its reads would not reach the answer.
    if (this.#unfollow === undefined) this.#follow(run);
    const durable = run.getSnapshot();
    const runId = durable.runId ?? this.#runId;
    if (runId === undefined || settledDurableRunStatuses.has(durable.status)) return;
    if (durable.status === 'idle' || durable.connection === 'stopped') void run.attach(runId);
  }

  discard(): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
    // Left running at the service; one whose start POST waits for the thread's save is not sent.
    if (!this.#snapshot.ended) this.#run?.detach();
  }

  #follow(run: DurableRun) {
    this.#run = run;
    this.#unfollow = run.subscribe(() => this.#onRun());
    this.#onRun();
  }

  #stopWatching() {
    this.#unfollow?.();
    this.#unfollow = undefined;
    this.#run?.detach();
  }

  #onRun() {
    const run = this.#run;
    if (run === undefined) return;
    const durable = run.getSnapshot();
    const ended = endsTurn(durable);
    if (!this.#accepted && durable.runId !== undefined && !ended) {
      this.#accepted = true;
      if (this.#cancelWhenAccepted) void run.cancel();
    }
    this.#publish();
    if (this.#detached && !ended && durable.status !== 'starting' && durable.status !== 'idle') {
      // Detached during the start POST: detached once start() has finished with the run.
      queueMicrotask(() => {
        if (this.#detached && !this.#snapshot.ended && this.#unfollow !== undefined) {
          this.#stopWatching();
        }
      });
    }
  }

  #setAnswer(answer: ApprovalAnswer) {
    this.#answer = answer;
    this.#publish();
  }

  #publish() {
    this.#snapshot = this.#build();
    this.#listeners.notify();
  }

  #build(): TurnSnapshot {
    const durable = this.#run?.getSnapshot();
    if (durable === undefined) {
      return {
        ended: false,
        phase: 'connecting',
        status: 'connecting',
        error: undefined,
        pendingInteractions: noApprovals,
        approvalStatus: 'idle',
        approvalError: undefined,
        run: undefined,
        durableRun: undefined,
        accepted: this.#accepted,
      };
    }
    const ended = endsTurn(durable);
    const pendingInteractions = ended ? noApprovals : durable.pendingInteractions;
    const answer = this.#answer;
    const approvalStatus: ConversationApprovalStatus =
      answer.status === 'responding' || durable.status === 'responding'
        ? 'responding'
        : answer.status === 'error' &&
            pendingInteractions.length > 0 &&
            answer.batchKey === durable.batchKey
          ? 'error'
          : 'idle';
    return {
      ended,
      phase: phaseOf(durable),
      status: runStatusOf(durable),
      error: ended && durable.error instanceof AgentError ? durable.error : undefined,
      pendingInteractions,
      approvalStatus,
      approvalError: approvalStatus === 'error' ? answer.error : undefined,
      run: undefined,
      durableRun: durable,
      accepted: this.#accepted,
    };
  }
}

/**
 * A run attached again whose record says it settled, before its first read came: it is being
 * read (its snapshot says `succeeded` with no text yet).
 */
function isReading(durable: DurableRunSnapshot): boolean {
  return (
    durable.resumed &&
    settledDurableRunStatuses.has(durable.status) &&
    (durable.polls === 0 || durable.connection === 'polling')
  );
}

function endsTurn(durable: DurableRunSnapshot): boolean {
  if (isReading(durable)) return false;
  return settledDurableRunStatuses.has(durable.status) || durable.status === 'start-unknown';
}

function phaseOf(durable: DurableRunSnapshot): TurnPhase {
  if (durable.status === 'starting' || isReading(durable)) return 'connecting';
  if (durable.status === 'requires-input') return 'waiting';
  return 'streaming';
}

/** A durable run's status in a streamed run's words: a status line says both alike. */
function runStatusOf(durable: DurableRunSnapshot): RunStatus | 'waiting' {
  if (isReading(durable)) return 'connecting';
  const statuses: Record<DurableRunStatus, RunStatus | 'waiting'> = {
    idle: 'idle',
    starting: 'connecting',
    'start-unknown': 'error',
    queued: 'streaming',
    running: 'streaming',
    'requires-input': 'waiting',
    responding: 'streaming',
    cancelling: 'streaming',
    succeeded: 'done',
    failed: 'error',
    cancelled: 'aborted',
    expired: 'error',
    lost: 'error',
    unknown: 'streaming',
  };
  return statuses[durable.status];
}

/** The answer as a durable run's snapshot shows it (`endedAt` when the run has ended). */
function answerOfDurable(
  message: ConversationMessage,
  durable: DurableRunSnapshot,
  endedAt: number | undefined,
): ConversationMessage {
  const status = messageStatusOf(durable.status);
  const localId = durable.localId ?? message.run?.localId;
  const runId = durable.runId ?? message.run?.runId;
  const next: ConversationMessage = {
    ...message,
    text: durable.output.text === '' ? message.text : durable.output.text,
    status,
    run: {
      mode: 'durable',
      ...(localId === undefined ? {} : { localId }),
      ...(runId === undefined ? {} : { runId }),
    },
  };
  const error = messageErrorOf(durable);
  if (status === 'error' && error !== undefined) next.error = error;
  else delete next.error;
  if (endedAt !== undefined) next.endedAt = message.endedAt ?? endedAt;
  return next;
}

function messageStatusOf(status: DurableRunStatus): ConversationMessage['status'] {
  switch (status) {
    case 'requires-input':
      return 'waiting';
    case 'succeeded':
      return 'done';
    case 'cancelled':
      return 'stopped';
    case 'failed':
    case 'expired':
    case 'lost':
    case 'start-unknown':
      return 'error';
    default:
      return 'streaming';
  }
}

function messageErrorOf(durable: DurableRunSnapshot): ConversationMessage['error'] {
  const error = durable.error;
  if (durable.status === 'start-unknown') return { kind: 'network', message: interruptedMessage };
  if (error === undefined) return undefined;
  if (error instanceof AgentError) return plainError(error);
  return { kind: 'run', message: error.message, ...(error.code ? { code: error.code } : {}) };
}
