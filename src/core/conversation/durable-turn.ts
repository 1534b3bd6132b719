import type { AgentClient } from '../wire/agent-client.js';
import type { ConversationMessage } from '../storage/conversation-message.js';
import type { DurableRun, DurableRunOptions } from '../durable/durable-run.js';
import {
  initialDurableRunSnapshot,
  settledDurableRunStatuses,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from '../durable/durable-run-snapshot.js';
import type { DurableInteraction, DurableRunDecision } from '../wire/durable-run-schemas.js';
import { AgentError, AgentInputError, AgentNetworkError } from '../wire/errors.js';
import type { RunStatus } from '../stream/run-types.js';
import { ListenerSet } from '../base/subscribable.js';
import type { ConversationApprovalStatus } from './conversation-options.js';
import type * as DurableTurnModuleExports from './conversation-durable-turn.js';
import {
  interruptedMessage,
  lastInFlightRun,
  plainError,
  type TurnDriver,
  type TurnHandle,
  type TurnPhase,
  type TurnRef,
  type TurnRequest,
  type TurnSnapshot,
  type TurnStartOptions,
} from './turn-driver.js';

/** What a durable turn driver needs besides the client. */
export interface DurableTurnDriverOptions {
  agentId: string;
  /** The durable runs' store, poll schedule and environment. */
  durableRun?: Pick<DurableRunOptions, 'store' | 'poll' | 'environment'> | undefined;
}

type DurableTurnModule = typeof DurableTurnModuleExports;

// Loaded once per page, on the first durable turn (or a reload's attach), and kept: a later turn
// starts synchronously, as before. A failed load (a chunk the network lost) is asked again.
let durableTurnModule: DurableTurnModule | undefined;
let durableTurnModuleLoading: Promise<DurableTurnModule> | undefined;

function loadDurableTurnModule(): Promise<DurableTurnModule> {
  return (durableTurnModuleLoading ??= import('./conversation-durable-turn.js').then(
    (module) => (durableTurnModule = module),
    (error: unknown) => {
      durableTurnModuleLoading = undefined;
      throw error;
    },
  ));
}

/**
 * The turns of a conversation as durable runs (polled: they survive a reload, can wait for
 * approvals, and Stop cancels them). The durable run's code is loaded by `import()` on the first
 * turn (or attach), so a conversation that only streams never carries it.
 */
export function createDurableTurnDriver(
  client: AgentClient,
  options: DurableTurnDriverOptions,
): TurnDriver {
  let currentClient = client;
  const createRun = (module: DurableTurnModule): DurableRun =>
    module.createDurableRun(currentClient, { ...options.durableRun, agentId: options.agentId });
  return {
    outlivesPage: true,
    setClient: (next) => {
      currentClient = next;
    },
    preload: () =>
      loadDurableTurnModule().then(
        () => undefined,
        () => undefined,
      ),
    start: (request, startOptions) =>
      new DurableTurn(options.agentId, createRun).start(request, startOptions),
    findTurn: async (messages) => {
      const module = await loadDurableTurnModule().catch(() => undefined);
      // Without the durable run's code, the answer is one a reload cut.
      return module === undefined ? undefined : storedTurn(messages, module, options);
    },
    attach: (ref) => new DurableTurn(options.agentId, createRun).attach(ref),
  };
}

/**
 * The last answer, when a durable run writes it: its run id is in the thread, or in the run
 * store's record the answer names (the 201 came, the save after it did not).
 */
function storedTurn(
  messages: readonly ConversationMessage[],
  module: DurableTurnModule,
  options: DurableTurnDriverOptions,
): TurnRef | undefined {
  const last = messages.at(-1);
  const run = lastInFlightRun(messages);
  if (last === undefined || run === undefined) return undefined;
  if (run.runId !== undefined) return { answerId: last.id, runId: run.runId, saved: true };
  const store = options.durableRun?.store ?? module.defaultRunStore();
  const runId = run.localId === undefined ? undefined : store.get(run.localId)?.runId;
  return runId === undefined ? undefined : { answerId: last.id, runId, saved: false };
}

/** The answer to a batch of approvals: the batch it answered, and how it went. */
interface ApprovalAnswer {
  batchKey: string | undefined;
  status: ConversationApprovalStatus;
  error: AgentError | undefined;
}

const noAnswer: ApprovalAnswer = { batchKey: undefined, status: 'idle', error: undefined };
const noApprovals: readonly DurableInteraction[] = Object.freeze([]);

/** One turn as one durable run. */
class DurableTurn implements TurnHandle {
  readonly #agentId: string;
  readonly #createRun: (module: DurableTurnModule) => DurableRun;
  readonly #listeners = new ListenerSet();
  #run: DurableRun | undefined;
  /** Shown while the durable run's code loads (the page's first durable turn). */
  #loading: DurableRunSnapshot | undefined;
  /** The durable run's code could not be loaded: the turn ends with this, nothing sent. */
  #failed: AgentError | undefined;
  #unfollow: (() => void) | undefined;
  /** The run id came (or was in the thread): saved once. */
  #accepted = false;
  /** The run id of an attached turn. */
  #runId: string | undefined;
  /** Stop was asked before the run id was known: cancel once it is. */
  #cancelWhenAccepted = false;
  /** The owner went away: watched again by resume(). */
  #detached = false;
  /** The thread was cleared: a run whose code still loads is never started. */
  #discarded = false;
  #answer: ApprovalAnswer = noAnswer;
  #snapshot: TurnSnapshot;

  constructor(agentId: string, createRun: (module: DurableTurnModule) => DurableRun) {
    this.#agentId = agentId;
    this.#createRun = createRun;
    this.#snapshot = this.#build();
  }

  start(request: TurnRequest, options: TurnStartOptions = {}): this {
    const module = durableTurnModule;
    if (module !== undefined) {
      this.#begin(module, request, options);
      return this;
    }
    // The first durable turn of the page: the answer waits (`connecting`) while the code loads.
    this.#loading = { ...initialDurableRunSnapshot(this.#agentId), status: 'starting' };
    this.#publish();
    loadDurableTurnModule().then(
      (loaded) => {
        this.#loading = undefined;
        // Cleared meanwhile: nothing is sent.
        if (!this.#discarded) this.#begin(loaded, request, options);
      },
      (error: unknown) => {
        this.#loading = undefined;
        if (this.#discarded) return;
        this.#failed =
          error instanceof AgentError
            ? error
            : new AgentNetworkError('The durable run could not be loaded: nothing was sent.', {
                url: '',
                cause: error,
              });
        this.#publish();
      },
    );
    return this;
  }

  /** Follows the run of a stored answer (its module was loaded by `findTurn`). */
  attach(ref: TurnRef): this {
    if (durableTurnModule === undefined) throw new Error('The durable run’s code is not loaded.');
    this.#runId = ref.runId;
    this.#accepted = ref.saved;
    this.#detached = true;
    this.#follow(this.#createRun(durableTurnModule));
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
    if (this.#failed !== undefined) {
      return { ...message, status: 'error', error: plainError(this.#failed), endedAt: now };
    }
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
    this.#discarded = true;
    this.#unfollow?.();
    this.#unfollow = undefined;
    // Left running at the service; one whose start POST waits for the thread's save is not sent.
    if (!this.#snapshot.ended) this.#run?.detach();
  }

  #begin(module: DurableTurnModule, request: TurnRequest, options: TurnStartOptions) {
    const run = this.#createRun(module);
    this.#follow(run);
    const { beforeSend } = options;
    void run.start(request, beforeSend === undefined ? {} : { beforeSend: () => beforeSend(this) });
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
    const failed = this.#failed;
    const durable = this.#run?.getSnapshot() ?? this.#loading;
    if (failed !== undefined || durable === undefined) {
      return {
        ended: failed !== undefined,
        phase: 'connecting',
        status: failed !== undefined ? 'error' : 'connecting',
        error: failed,
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
