import type { AgentClient } from '../wire/agent-client.js';
import type { ConversationMessage } from '../storage/conversation-message.js';
import type { DurableRun, DurableRunOptions } from '../durable/durable-run.js';
import {
  initialDurableRunSnapshot,
  type DurableRunSnapshot,
} from '../durable/durable-run-snapshot.js';
import type { DurableInteraction, DurableRunDecision } from '../wire/durable-run-schemas.js';
import { AgentError, AgentInputError, AgentNetworkError } from '../wire/errors.js';
import { ListenerSet } from '../base/subscribable.js';
import { onDemand } from '../base/on-demand.js';
import type * as DurableTurnModuleExports from './conversation-durable-turn.js';
import {
  lastInFlightRun,
  plainError,
  type TurnDriver,
  type TurnHandle,
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
// starts synchronously, as before.
const durableTurnModule = onDemand(() => import('./conversation-durable-turn.js'));

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
  const turnOf = (module: DurableTurnModule) =>
    new module.DurableTurn((): DurableRun =>
      module.createDurableRun(currentClient, { ...options.durableRun, agentId: options.agentId }),
    );
  return {
    outlivesPage: true,
    setClient: (next) => {
      currentClient = next;
    },
    preload: () =>
      durableTurnModule().then(
        () => undefined,
        () => undefined,
      ),
    start: (request, startOptions) => {
      const module = durableTurnModule.loaded();
      return module === undefined
        ? new LoadingDurableTurn(options.agentId, turnOf, request, startOptions)
        : turnOf(module).start(request, startOptions);
    },
    findTurn: async (messages) => {
      const module = await durableTurnModule().catch(() => undefined);
      // Without the durable run's code, the answer is one a reload cut.
      return module === undefined ? undefined : storedTurn(messages, module, options);
    },
    attach: (ref) => {
      // Its module was loaded by `findTurn`.
      const module = durableTurnModule.loaded();
      if (module === undefined) throw new Error('The durable run’s code is not loaded.');
      return turnOf(module).attach(ref);
    },
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

const noApprovals: readonly DurableInteraction[] = Object.freeze([]);

/**
 * The page's first durable turn while the durable run's code loads: its answer waits
 * (`connecting`), then the turn of the loaded code takes over, told what was asked meanwhile (Stop,
 * detach, resume). A turn cleared meanwhile sends nothing; a failed load ends it, nothing sent.
 */
class LoadingDurableTurn implements TurnHandle {
  readonly #listeners = new ListenerSet();
  #turn: TurnHandle | undefined;
  #failed: AgentError | undefined;
  #stopped = false;
  #detached = false;
  #discarded = false;
  #snapshot: TurnSnapshot;

  constructor(
    agentId: string,
    turnOf: (module: DurableTurnModule) => TurnHandle & { start: TurnDriver['start'] },
    request: TurnRequest,
    options: TurnStartOptions | undefined,
  ) {
    const durableRun: DurableRunSnapshot = {
      ...initialDurableRunSnapshot(agentId),
      status: 'starting',
    };
    this.#snapshot = {
      ended: false,
      phase: 'connecting',
      status: 'connecting',
      error: undefined,
      pendingInteractions: durableRun.pendingInteractions,
      approvalStatus: 'idle',
      approvalError: undefined,
      run: undefined,
      durableRun,
      accepted: false,
    };
    durableTurnModule().then(
      (module) => {
        // Cleared meanwhile: nothing is sent.
        if (this.#discarded) return;
        const turn = turnOf(module);
        this.#turn = turn;
        turn.subscribe(() => this.#listeners.notify());
        turn.start(request, options);
        if (this.#stopped) turn.stop();
        if (this.#detached) turn.detach();
        this.#listeners.notify();
      },
      (error: unknown) => {
        if (this.#discarded) return;
        const failed =
          error instanceof AgentError
            ? error
            : new AgentNetworkError('The durable run could not be loaded: nothing was sent.', {
                url: '',
                cause: error,
              });
        this.#failed = failed;
        this.#snapshot = {
          ...this.#snapshot,
          ended: true,
          status: 'error',
          error: failed,
          pendingInteractions: noApprovals,
          durableRun: undefined,
        };
        this.#listeners.notify();
      },
    );
  }

  subscribe = this.#listeners.subscribe;

  getSnapshot = (): TurnSnapshot => this.#turn?.getSnapshot() ?? this.#snapshot;

  answer(message: ConversationMessage, now: number): ConversationMessage {
    if (this.#turn !== undefined) return this.#turn.answer(message, now);
    const failed = this.#failed;
    return failed === undefined
      ? message
      : { ...message, status: 'error', error: plainError(failed), endedAt: now };
  }

  stop(): void {
    if (this.#turn === undefined) this.#stopped = true;
    else this.#turn.stop();
  }

  respond = (decisions: readonly DurableRunDecision[]): Promise<void> => {
    const respond = this.#turn?.respond;
    return respond === undefined
      ? Promise.reject(new AgentInputError('No durable turn waits for approval.'))
      : respond(decisions);
  };

  detach(): void {
    this.#detached = true;
    this.#turn?.detach();
  }

  resume(): void {
    this.#detached = false;
    this.#turn?.resume();
  }

  discard(): void {
    this.#discarded = true;
    this.#turn?.discard();
  }
}
