import type { AgentClient } from '../wire/agent-client.js';
import {
  parseConversationMessages,
  type ConversationMessage,
  type ConversationMessageError,
  type ConversationMessageStatus,
} from '../storage/conversation-message.js';
import { AgentError, AgentHttpError, AgentInputError, AgentNetworkError } from '../wire/errors.js';
import type {
  DurableRun,
  DurableRunOptions,
  DurableRunSnapshot,
  DurableRunStatus,
} from '../durable/durable-run.js';
import type * as DurableTurnModuleExports from './conversation-durable-turn.js';
import {
  initialDurableRunSnapshot,
  settledDurableRunStatuses,
} from '../durable/durable-run-snapshot.js';
import type { DurableInteraction, DurableRunDecision } from '../wire/durable-run-schemas.js';
import { RunStream, initialRunSnapshot, type RunStreamOptions } from '../stream/run-stream.js';
import {
  ThreadConflictError,
  type StoredThread,
  type ThreadStore,
} from '../storage/thread-store.js';
import type { DurableRunStartRequest } from '../wire/durable-run-wire.js';
import { terminalRunStatuses, type RunSnapshot, type RunStatus } from '../stream/run-types.js';
import type { AgentMessage } from '../wire/schemas.js';
import { ListenerSet } from '../base/subscribable.js';

export {
  parseConversationMessages,
  parseStoredConversationMessages,
  type ConversationMessage,
  type ConversationMessageError,
  type ConversationMessageRun,
  type ConversationMessageStatus,
  type ConversationRole,
} from '../storage/conversation-message.js';

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
  /** The thread, oldest first. */
  messages: readonly ConversationMessage[];
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
  pendingApprovals: readonly DurableInteraction[];
  /** The thread's id in the thread store (`undefined` without a `threadStore`). */
  threadId: string | undefined;
  /** The revision of the thread last loaded or saved (0 before the first save). */
  threadRevision: number;
  /** Why the thread could not be loaded or saved (a conflict, a full storage, a malformed thread). */
  threadError: Error | undefined;
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

/** `send`, `retry` or `edit` while a turn runs: refused, nothing is sent. */
export class AgentConversationBusyError extends AgentInputError {
  override name = 'AgentConversationBusyError';
  constructor() {
    super('A turn is still running: stop it before sending another message. Nothing was sent.');
  }
}

/** The turn being written: its answer's id. */
interface Turn {
  answerId: string;
  /** The durable run writing it (durable mode). */
  durable?: DurableRun;
  /**
   * The durable run's code loads (the page's first durable turn): shown as this `starting`
   * snapshot until it has, then started.
   */
  durableLoading?: DurableRunSnapshot | undefined;
  stopDurable?: () => void;
  /** A durable turn was saved once its run id was known. */
  accepted?: boolean;
  /** The run id to attach (a turn found in flight when the thread loaded). */
  runId?: string;
  /** Stop was asked before the run id was known: cancel once it is. */
  cancelWhenAccepted?: boolean;
  settle?: () => void;
}

interface QueuedSend {
  text: string;
  resolve: (snapshot: ConversationSnapshot) => void;
  reject: (error: unknown) => void;
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
  readonly #listeners = new ListenerSet();
  readonly #generateId: () => string;
  readonly #now: () => number;
  #messages: readonly ConversationMessage[];
  #runs: ReadonlyMap<string, RunSnapshot> = new Map();
  #turn: Turn | undefined;
  #error: AgentError | undefined;
  #snapshot: ConversationSnapshot;
  #client: AgentClient;
  readonly #mode: ConversationExecutionMode;
  readonly #threadId: string | undefined;
  #revision = 0;
  #threadError: Error | undefined;
  /** The thread to read from the thread store once connected (nothing is read on creation). */
  #toLoad: { store: ThreadStore; threadId: string } | undefined;
  #loading: Promise<void> | undefined;
  #queued: QueuedSend | undefined;
  #saves: Promise<void> = Promise.resolve();
  #durableSnapshot: DurableRunSnapshot | undefined;
  /** The last durable turn: its run is followed (for `durableRun`) until the next one starts. */
  #lastDurableTurn: Turn | undefined;
  /** dispose() was called and resume() not since: a turn found on load is attached by resume(). */
  #detached = false;
  /** clear() was called while the thread loaded: the stored messages are not taken. */
  #clearedWhileLoading = false;

  constructor(client: AgentClient, options: AgentConversationOptions) {
    this.#options = options;
    this.#client = client;
    this.#mode = options.executionMode ?? 'stream';
    this.#messages = Object.freeze(parseConversationMessages(options.initialMessages ?? []));
    this.#generateId = options.generateId ?? createIdGenerator();
    this.#now = options.now ?? Date.now;
    this.#threadId =
      options.threadStore === undefined
        ? undefined
        : (options.threadId ?? `thread-${Math.random().toString(36).slice(2, 10)}`);
    // RunStream reads only its own options (and the callbacks) from the object.
    this.#stream = new RunStream(client, options);
    if (options.threadStore !== undefined && options.threadId !== undefined) {
      // Read by connect(), the first subscribe, send() or `loaded`: a conversation created
      // during a render that is thrown away (StrictMode) reads and sends nothing.
      this.#toLoad = { store: options.threadStore, threadId: options.threadId };
    }
    this.#snapshot = this.#build();
    this.#stream.subscribe(() => this.#onRun());
  }

  /**
   * Resolves when the thread is loaded from the thread store (at once without one); starts the
   * load when nothing has started it yet.
   */
  get loaded(): Promise<void> {
    this.#connectThread();
    if (this.#loading !== undefined) return this.#loading;
    // Durable mode: the durable run's code, which the first turn would wait for.
    return this.#mode === 'durable' ? preloadDurableTurnModule() : Promise.resolve();
  }

  /** Resolves when the saves asked so far are done. */
  get saved(): Promise<void> {
    return this.#saves;
  }

  /** The run stream behind the conversation (its `observe` adds callbacks). */
  get stream(): RunStream {
    return this.#stream;
  }

  /** The client the next turn uses. */
  setClient(client: AgentClient): void {
    this.#client = client;
    this.#stream.setClient(client);
  }

  /** The current snapshot: the same object until a change is published. */
  getSnapshot = (): ConversationSnapshot => this.#snapshot;

  /**
   * Calls `listener` after each published change. The first subscriber starts the thread's load
   * (as `connect()` does), like a query observer that fetches on subscribe.
   */
  subscribe = (listener: () => void): (() => void) => {
    const unsubscribe = this.#listeners.subscribe(listener);
    this.#connectThread();
    return unsubscribe;
  };

  /**
   * Starts the network work an owner wants while it is there: the thread's load from the thread
   * store (once), and watching again a durable turn that `dispose()` detached (see `resume()`).
   * Returns the disconnect, which is `dispose()`. Creating the conversation does none of this.
   *
   * @example
   * useEffect(() => conversation.connect(), [conversation]);
   */
  connect(): () => void {
    this.resume();
    return () => this.dispose();
  }

  /**
   * Sends a USER message and starts the agent's answer (one POST). Throws an
   * {@link AgentConversationBusyError} while a turn runs and an `AgentInputError` for blank text;
   * nothing is sent then. Resolves when the turn settles (never rejects). In durable mode, after
   * `dispose()` and until `resume()`, nothing is sent and the thread is left as it is (it resolves
   * at once); a send waiting for the thread's load is dropped the same way by `dispose()`.
   */
  send(text: string): Promise<ConversationSnapshot> {
    this.#connectThread();
    const trimmed = text.trim();
    if (this.#loading !== undefined) {
      if (this.#queued !== undefined) throw new AgentConversationBusyError();
      if (trimmed === '') throw new AgentInputError('The message is empty: nothing was sent.');
      if (this.#dropsTurns()) return Promise.resolve(this.#snapshot);
      // Sent once the thread is loaded, after its messages.
      return new Promise((resolve, reject) => {
        this.#queued = { text: trimmed, resolve, reject };
      });
    }
    this.#assertIdle();
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
    this.#connectThread();
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
    this.#connectThread();
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

  /**
   * Stops the turn: the socket closes, the partial answer stays, marked `stopped`. In durable mode
   * this cancels the run (cooperatively: it may still finish; asked during the start POST, the
   * cancel is sent once the run id is known).
   */
  stop(): void {
    const turn = this.#turn;
    if (turn?.durableLoading !== undefined) {
      turn.cancelWhenAccepted = true;
      return;
    }
    if (turn?.durable !== undefined) {
      if (turn.durable.getSnapshot().runId === undefined) turn.cancelWhenAccepted = true;
      else void turn.durable.cancel();
      return;
    }
    this.#stream.abort();
  }

  /**
   * Answers the approvals the durable turn waits for: one decision per pending approval (see
   * `DurableRun.respond`). Throws an `AgentInputError` when no turn waits.
   */
  async respond(decisions: readonly DurableRunDecision[]): Promise<ConversationSnapshot> {
    const run = this.#turn?.durable;
    if (run === undefined) throw new AgentInputError('No durable turn waits for approval.');
    await run.respond(decisions);
    return this.#snapshot;
  }

  /**
   * Aborts a running turn and empties the thread (a durable run is left running, not cancelled;
   * one whose start POST waits for the thread's save is not started).
   * During the thread's load, the stored messages are dropped when they come and a send waiting
   * for them is dropped too (its promise resolves, nothing is sent).
   */
  clear(): void {
    this.#connectThread();
    this.#dropQueued();
    this.#endDurable();
    this.#turn = undefined;
    this.#stream.reset();
    this.#messages = Object.freeze([]);
    this.#runs = new Map();
    this.#error = undefined;
    this.#publish();
    this.#options.onMessagesChange?.(this.#messages);
    if (this.#loading !== undefined) {
      // Saved by #load once the stored revision is known.
      this.#clearedWhileLoading = true;
      return;
    }
    this.#save();
  }

  /**
   * Aborts a running turn (the thread keeps it as `stopped`); for an owner going away. A durable
   * turn is only detached (never cancelled): a reload attaches it again. A send waiting for the
   * thread's load is dropped (its promise resolves, nothing is sent).
   */
  dispose(): void {
    this.#detached = true;
    this.#dropQueued();
    const turn = this.#turn;
    // A durable turn whose code loads starts once it has loaded, as one in its start POST goes on.
    if (turn?.durableLoading !== undefined) return;
    if (turn?.durable !== undefined) {
      // A detach during the start POST would drop its run id: followed until it is known.
      if (turn.durable.getSnapshot().status === 'starting') return;
      this.#detachDurable(turn);
      return;
    }
    this.#stream.abort();
  }

  #detachDurable(turn: Turn) {
    turn.stopDurable?.();
    turn.stopDurable = undefined;
    turn.durable?.detach();
  }

  /**
   * Watches again a durable turn that `dispose()` detached (an owner mounted again, e.g. under
   * StrictMode). Does nothing otherwise.
   */
  resume(): void {
    this.#detached = false;
    this.#connectThread();
    const turn = this.#turn;
    const run = turn?.durable;
    if (turn === undefined || run === undefined) return;
    // dispose() stopped following the run: its reads would not reach the messages.
    if (turn.stopDurable === undefined) {
      turn.stopDurable = run.subscribe(() => this.#onDurable(turn));
      this.#onDurable(turn);
    }
    const snapshot = run.getSnapshot();
    const runId = snapshot.runId ?? turn.runId;
    if (runId === undefined || settledDurableRunStatuses.has(snapshot.status)) return;
    if (snapshot.status === 'idle' || snapshot.connection === 'stopped') void run.attach(runId);
  }

  /** The `messages` of the run that answers the last message of `thread`, in the wire shape. */
  #historyOf(thread: readonly ConversationMessage[]): AgentMessage[] {
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

  /** Drops the send waiting for the thread's load: it resolves, nothing is sent. */
  #dropQueued() {
    const queued = this.#queued;
    this.#queued = undefined;
    queued?.resolve(this.#snapshot);
  }

  #assertIdle() {
    if (this.#turn !== undefined || this.#loading !== undefined) {
      throw new AgentConversationBusyError();
    }
  }

  /**
   * A durable start cannot be taken back by the detach that follows a stale send (its POST goes
   * out anyway), so after dispose() no durable turn starts until resume().
   */
  #dropsTurns(): boolean {
    return this.#mode === 'durable' && this.#detached;
  }

  #startTurn(thread: readonly ConversationMessage[]): Promise<ConversationSnapshot> {
    if (this.#dropsTurns()) return Promise.resolve(this.#snapshot);
    const messages = this.#historyOf(thread);
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
    if (this.#mode === 'durable') {
      return this.#startDurableTurn(turn, { messages, ...(metadata ? { metadata } : {}) });
    }
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
    this.#messages = this.#withAnswer(turn.answerId, (message) => ({
      ...message,
      text: run.text,
      status,
      ...(run.status === 'error' && run.error ? { error: plainError(run.error) } : {}),
      startedAt: run.startedAt,
      firstEventAt: run.firstEventAt,
      endedAt: run.endedAt,
    }));
    if (ended) {
      this.#turn = undefined;
      this.#error = run.error;
      const runs = new Map(this.#runs);
      runs.set(turn.answerId, run);
      this.#runs = runs;
    }
    this.#publish();
    if (ended) {
      this.#options.onMessagesChange?.(this.#messages);
      this.#save();
    }
  }

  /** The thread with one message changed. */
  #withAnswer(
    answerId: string,
    change: (message: ConversationMessage) => ConversationMessage,
  ): readonly ConversationMessage[] {
    return Object.freeze(
      this.#messages.map((message) => (message.id === answerId ? change(message) : message)),
    );
  }

  // ---- durable turns ----

  /**
   * Starts a durable turn. With a thread store the thread (the question, and the answer naming
   * its run record) is saved before the start POST goes out: a reload during the POST finds the
   * question, and the answer as "may have started, not sent again".
   */
  #startDurableTurn(turn: Turn, request: DurableRunStartRequest): Promise<ConversationSnapshot> {
    const settled = new Promise<ConversationSnapshot>((resolve) => {
      turn.settle = () => resolve(this.#snapshot);
    });
    const loaded = durableTurnModule;
    if (loaded !== undefined) {
      this.#runDurableTurn(turn, request, loaded);
      return settled;
    }
    // The first durable turn of the page: the answer waits (`connecting`) while the code loads.
    turn.durableLoading = {
      ...initialDurableRunSnapshot(this.#options.agentId),
      status: 'starting',
    };
    this.#publish();
    loadDurableTurnModule().then(
      (module) => {
        turn.durableLoading = undefined;
        // Cleared (or replaced) meanwhile: nothing is sent.
        if (this.#turn === turn) this.#runDurableTurn(turn, request, module);
      },
      (error: unknown) => {
        turn.durableLoading = undefined;
        if (this.#turn === turn) this.#failTurn(turn, error);
      },
    );
    return settled;
  }

  #runDurableTurn(turn: Turn, request: DurableRunStartRequest, module: DurableTurnModule) {
    this.#followDurable(turn, module);
    const saveFirst =
      this.#options.threadStore === undefined
        ? {}
        : {
            // start() has written the run's record and published `starting`: the answer names it.
            beforeSend: () => {
              this.#save();
              return this.#saves;
            },
          };
    void (turn.durable as DurableRun).start(request, saveFirst);
  }

  /** The durable turn's code could not be loaded: the turn ends with the error, nothing sent. */
  #failTurn(turn: Turn, thrown: unknown) {
    const error =
      thrown instanceof AgentError
        ? thrown
        : new AgentNetworkError('The durable run could not be loaded: nothing was sent.', {
            url: '',
            cause: thrown,
          });
    this.#messages = this.#withAnswer(turn.answerId, (message) => ({
      ...message,
      status: 'error',
      error: plainError(error),
      endedAt: this.#now(),
    }));
    this.#turn = undefined;
    this.#error = error;
    this.#publish();
    this.#settleTurn(turn);
  }

  /** Creates the turn's durable run and follows it. */
  #followDurable(turn: Turn, module: DurableTurnModule) {
    const run = module.createDurableRun(this.#client, {
      ...this.#options.durableRun,
      agentId: this.#options.agentId,
    });
    turn.durable = run;
    this.#lastDurableTurn?.stopDurable?.();
    this.#lastDurableTurn = turn;
    turn.stopDurable = run.subscribe(() => this.#onDurable(turn));
  }

  /** A change of a durable turn's run: the answer takes its text and status. */
  #onDurable(turn: Turn) {
    const durable = turn.durable?.getSnapshot();
    if (durable === undefined || durable === this.#durableSnapshot) return;
    if (this.#turn !== turn) {
      // The turn settled: only the run's last facts (its connection) still change.
      if (this.#lastDurableTurn === turn) {
        this.#durableSnapshot = durable;
        this.#publish();
      }
      return;
    }
    this.#durableSnapshot = durable;
    const ended =
      settledDurableRunStatuses.has(durable.status) || durable.status === 'start-unknown';
    this.#messages = this.#withAnswer(turn.answerId, (message) =>
      answerOfDurable(message, durable, ended ? this.#now() : undefined),
    );
    const accepted = this.#accept(turn, durable, ended);
    if (ended) {
      this.#turn = undefined;
      this.#error = durable.error instanceof AgentError ? durable.error : undefined;
    }
    this.#publish();
    if (accepted) this.#save();
    if (this.#detached && !ended && durable.status !== 'starting') {
      // Disposed during the start POST: detached once start() has finished with the run.
      queueMicrotask(() => {
        if (this.#detached && this.#turn === turn) this.#detachDurable(turn);
      });
    }
    if (ended) this.#settleTurn(turn);
  }

  /** The run id came (once per turn): the thread is saved with it, a Stop asked before is sent. */
  #accept(turn: Turn, durable: DurableRunSnapshot, ended: boolean): boolean {
    if (turn.accepted === true || durable.runId === undefined || ended) return false;
    turn.accepted = true;
    if (turn.cancelWhenAccepted === true) void turn.durable?.cancel();
    return true;
  }

  #settleTurn(turn: Turn) {
    this.#options.onMessagesChange?.(this.#messages);
    this.#save();
    turn.settle?.();
  }

  #endDurable() {
    this.#lastDurableTurn?.stopDurable?.();
    this.#lastDurableTurn = undefined;
    this.#durableSnapshot = undefined;
    const turn = this.#turn;
    // A stream turn has no settle of its own (its run's promise resolves).
    turn?.durable?.detach();
    turn?.settle?.();
  }

  // ---- the thread store ----

  /** Starts the thread's load once (see `connect`). */
  #connectThread() {
    if (this.#mode === 'durable') void preloadDurableTurnModule();
    const toLoad = this.#toLoad;
    if (toLoad === undefined) return;
    this.#toLoad = undefined;
    this.#loading = this.#load(toLoad.store, toLoad.threadId);
  }

  async #load(store: ThreadStore, threadId: string): Promise<void> {
    let attach: TurnToAttach | undefined;
    try {
      const stored = await store.load(threadId);
      if (stored !== undefined) this.#revision = stored.revision;
      // The durable run's code, when a durable run may still write the last answer (a reload
      // during a durable turn, whatever the mode) or the turns are durable: the thread shows once
      // it is there, so the answer is attached as before.
      const module =
        this.#mode === 'durable' || (stored !== undefined && lastInFlightRun(stored.messages))
          ? await loadDurableTurnModule().catch(() => undefined)
          : undefined;
      if (stored !== undefined && !this.#clearedWhileLoading) {
        attach = this.#restore(stored, module);
      }
    } catch (error) {
      this.#threadError = error instanceof Error ? error : new Error(String(error));
    }
    this.#loading = undefined;
    const cleared = this.#clearedWhileLoading;
    this.#clearedWhileLoading = false;
    if (cleared) this.#save();
    else if (attach !== undefined) this.#attachTurn(attach);
    this.#publish();
    this.#sendQueued();
  }

  /**
   * Takes the stored messages. An answer a reload cut is `stopped` (a stream) or "may have
   * started, not sent again" (a durable start with no run id); returns the last answer when a
   * durable run still writes it.
   */
  #restore(stored: StoredThread, module: DurableTurnModule | undefined): TurnToAttach | undefined {
    // Without the durable run's code (its load failed), the answer is one a reload cut.
    const attach = module === undefined ? undefined : this.#turnToAttach(stored.messages, module);
    this.#messages = Object.freeze(
      stored.messages.map((message) =>
        !isInFlight(message) || message.id === attach?.answerId
          ? message
          : interruptedAnswer(message),
      ),
    );
    return attach;
  }

  /**
   * The last answer, when a durable run writes it: its run id is in the thread, or in the run
   * store's record the answer names (the 201 came, the save after it did not).
   */
  #turnToAttach(
    messages: readonly ConversationMessage[],
    module: DurableTurnModule,
  ): TurnToAttach | undefined {
    const last = messages.at(-1);
    const run = lastInFlightRun(messages);
    if (last === undefined || run === undefined) return undefined;
    if (run.runId !== undefined) {
      return { answerId: last.id, runId: run.runId, saved: true, module };
    }
    const store = this.#options.durableRun?.store ?? module.defaultRunStore();
    const runId = run.localId === undefined ? undefined : store.get(run.localId)?.runId;
    return runId === undefined ? undefined : { answerId: last.id, runId, saved: false, module };
  }

  /** Follows the durable run of the stored answer (the saved answer is the one it writes). */
  #attachTurn(attach: TurnToAttach) {
    const turn: Turn = { answerId: attach.answerId, accepted: attach.saved, runId: attach.runId };
    this.#turn = turn;
    this.#followDurable(turn, attach.module);
    if (!this.#detached) void (turn.durable as DurableRun).attach(attach.runId);
  }

  /** The send that waited for the load goes out now. */
  #sendQueued() {
    const queued = this.#queued;
    this.#queued = undefined;
    if (queued === undefined) return;
    try {
      this.send(queued.text).then(queued.resolve, queued.reject);
    } catch (error) {
      queued.reject(error);
    }
  }

  /** Saves the thread as it is now (after the saves asked before). */
  #save() {
    const store = this.#options.threadStore;
    const threadId = this.#threadId;
    if (store === undefined || threadId === undefined) return;
    const input = { id: threadId, agentId: this.#options.agentId, messages: this.#messages };
    this.#saves = this.#saves.then(async () => {
      try {
        try {
          this.#revision = (await store.save(input, { expectedRevision: this.#revision })).revision;
        } catch (error) {
          if (!(error instanceof ThreadConflictError)) throw error;
          // Renamed elsewhere, or saved by an earlier copy of this thread: when every stored
          // message is still ours, ours is newer.
          const stored = await store.load(threadId);
          const ours = new Set(input.messages.map((message) => message.id));
          if (stored === undefined || !stored.messages.every((message) => ours.has(message.id))) {
            throw error;
          }
          this.#revision = (
            await store.save(input, { expectedRevision: stored.revision })
          ).revision;
        }
        this.#threadError = undefined;
      } catch (error) {
        this.#threadError = error instanceof Error ? error : new Error(String(error));
      }
      this.#publish();
    });
  }

  #publish() {
    this.#snapshot = this.#build();
    this.#listeners.notify((error) =>
      console.error('agent-console-kit: an AgentConversation listener threw', error),
    );
  }

  #build(): ConversationSnapshot {
    const run = this.#stream.getSnapshot();
    const turn = this.#turn;
    const durable = turn?.durable?.getSnapshot() ?? turn?.durableLoading ?? this.#durableSnapshot;
    const status: ConversationStatus =
      this.#loading !== undefined || this.#toLoad !== undefined
        ? 'loading'
        : turn === undefined
          ? 'idle'
          : durable !== undefined && (turn.durable ?? turn.durableLoading) !== undefined
            ? conversationStatusOfDurable(durable.status)
            : conversationStatusOf(run.status);
    return {
      messages: this.#messages,
      status,
      error: this.#error,
      run,
      runs: this.#runs,
      executionMode: this.#mode,
      durableRun: durable,
      pendingApprovals:
        turn?.durable !== undefined && durable !== undefined
          ? durable.pendingInteractions
          : noApprovals,
      threadId: this.#threadId,
      threadRevision: this.#revision,
      threadError: this.#threadError,
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

const noApprovals: readonly DurableInteraction[] = Object.freeze([]);

/** A stored answer a durable run still writes. */
interface TurnToAttach {
  answerId: string;
  runId: string;
  /** Whether the thread already holds the run id (else it is saved once the run is read). */
  saved: boolean;
  /** The durable run's code (loaded before the thread is shown). */
  module: DurableTurnModule;
}

/** The durable run of the thread's last answer while one may still write it. */
function lastInFlightRun(
  messages: readonly ConversationMessage[],
): ConversationMessage['run'] | undefined {
  const last = messages.at(-1);
  if (last === undefined || last.role !== 'GLEAN_AI' || !isInFlight(last)) return undefined;
  return last.run;
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

/** Starts loading the durable run's code; resolves when it is there (or failed: the turn says). */
function preloadDurableTurnModule(): Promise<void> {
  return loadDurableTurnModule().then(
    () => undefined,
    () => undefined,
  );
}

const interruptedMessage = 'This turn may have started: it was not sent again.';

function isInFlight(message: ConversationMessage): boolean {
  return message.status === 'streaming' || message.status === 'waiting';
}

/** A stored answer no run writes any more: a stream cut by the reload, or a durable start. */
function interruptedAnswer(message: ConversationMessage): ConversationMessage {
  return message.run === undefined
    ? { ...message, status: 'stopped' }
    : { ...message, status: 'error', error: { kind: 'network', message: interruptedMessage } };
}

/** The answer as a durable run's snapshot shows it (`endedAt` when the run has ended). */
function answerOfDurable(
  message: ConversationMessage,
  durable: DurableRunSnapshot,
  endedAt: number | undefined,
): ConversationMessage {
  const status = messageStatusOfDurable(durable.status);
  const error = messageErrorOfDurable(durable);
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
  if (status === 'error' && error !== undefined) next.error = error;
  else delete next.error;
  if (endedAt !== undefined) next.endedAt = message.endedAt ?? endedAt;
  return next;
}

function messageStatusOfDurable(status: DurableRunStatus): ConversationMessageStatus {
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

function conversationStatusOfDurable(status: DurableRunStatus): ConversationStatus {
  if (status === 'starting') return 'connecting';
  if (status === 'requires-input') return 'waiting';
  return 'streaming';
}

function messageErrorOfDurable(durable: DurableRunSnapshot): ConversationMessageError | undefined {
  const error = durable.error;
  if (durable.status === 'start-unknown') return { kind: 'network', message: interruptedMessage };
  if (error === undefined) return undefined;
  if (error instanceof AgentError) return plainError(error);
  return { kind: 'run', message: error.message, ...(error.code ? { code: error.code } : {}) };
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
