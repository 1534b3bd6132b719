import type { AgentClient } from '../wire/agent-client.js';
import {
  parseConversationMessages,
  type ConversationMessage,
} from '../storage/conversation-message.js';
import { AgentInputError, type AgentError } from '../wire/errors.js';
import type { DurableRunDecision } from '../wire/durable-run-schemas.js';
import { RunStream } from '../stream/run-stream.js';
import { ListenerSet } from '../base/subscribable.js';
import type {
  AgentConversationOptions,
  ConversationChangeOptions,
  ConversationExecutionMode,
  ConversationSnapshot,
} from './conversation-options.js';
import { editedThread, historyOf } from './thread-edits.js';
import {
  ConversationThread,
  conversationSnapshot,
  type TurnThread,
} from './conversation-thread.js';
import {
  loadedVersionTree as treeLoaded,
  loadMessageVersions as loadTree,
} from './message-versions-loader.js';
import { ThreadSync } from './thread-sync.js';
import type { TurnDriver, TurnHandle, TurnRef, TurnSnapshot } from './turn-driver.js';
import { createTurnDriver } from './turn-drivers.js';

export {
  parseConversationMessages,
  parseStoredConversationMessages,
  type ConversationMessage,
  type ConversationMessageError,
  type ConversationMessageRun,
  type ConversationMessageStatus,
  type ConversationRole,
} from '../storage/conversation-message.js';
export type { MessageVersion } from './message-versions.js';
export type {
  ConversationFork,
  ConversationVersions,
  HiddenConversationMessage,
} from '../storage/thread-versions.js';
export type {
  AgentConversationOptions,
  ConversationChangeOptions,
  ConversationApprovalStatus,
  ConversationExecutionMode,
  ConversationSnapshot,
  ConversationStatus,
} from './conversation-options.js';

/** `send`, `retry`, `edit` or `showVersion` while a turn runs: refused, nothing is sent. */
export class AgentConversationBusyError extends AgentInputError {
  override name = 'AgentConversationBusyError';
  constructor() {
    super('A turn is still running: stop it before sending another message. Nothing was sent.');
  }
}

/** An edit, a regenerate or a retry: the turn it starts. */
type Change = () => Promise<ConversationSnapshot>;

/** A turn of the conversation: its answer's id and the driver's handle writing it. */
interface Turn {
  answerId: string;
  handle: TurnHandle | undefined;
  /** The last handle snapshot taken into the thread. */
  seen: TurnSnapshot | undefined;
  unsubscribe?: (() => void) | undefined;
  /** The thread was saved once the turn was accepted (or already held its run id). */
  acceptSaved: boolean;
  /** Resolves the promise of the send that started it. */
  settle?: (() => void) | undefined;
  /** Resolves when the turn has ended (or was dropped by a clear). */
  ended: Promise<void>;
  end: () => void;
}

interface QueuedSend {
  text: string;
  resolve: (snapshot: ConversationSnapshot) => void;
  reject: (error: unknown) => void;
}

/**
 * A multi-turn conversation with an agent that takes `messages`, with no framework: each `send`
 * starts one turn whose `messages` are the history the service should see, then the new USER
 * message. How a turn travels is its driver's business (a streamed run, or a durable run with
 * `executionMode: 'durable'`); the conversation keeps the thread. Subscribe with `subscribe` and
 * read `getSnapshot()` (the same object until something changes, at most one notification per
 * frame while an answer streams): it fits `useSyncExternalStore`. Create it with
 * {@link createAgentConversation}.
 */
export class AgentConversation {
  #options: AgentConversationOptions;
  readonly #stream: RunStream;
  readonly #driver: TurnDriver;
  readonly #mode: ConversationExecutionMode;
  readonly #sync: ThreadSync | undefined;
  readonly #listeners = new ListenerSet({
    onFirst: () => {
      if (this.#options.disposeWhenUnobserved === true) this.resume();
    },
    onLast: () => {
      if (this.#options.disposeWhenUnobserved === true) this.dispose();
    },
  });
  readonly #generateId: () => string;
  readonly #now: () => number;
  readonly #thread: ConversationThread;
  /** The turn under way. */
  #active: Turn | undefined;
  /** The current or last turn: followed (its run's last facts) until the next one starts. */
  #last: Turn | undefined;
  #error: AgentError | undefined;
  #snapshot: ConversationSnapshot;
  #queued: QueuedSend | undefined;
  /** dispose() was called and resume() not since: a turn found on load is attached by resume(). */
  #detached = false;
  /**
   * A turn that outlives its page cannot be taken back by the detach that follows a stale send
   * (its POST goes out anyway), so after dispose() no such turn starts until resume().
   */
  get #dropsTurns(): boolean {
    const leaving = this.#options.disposeWhenUnobserved === true && this.#listeners.unobserved;
    return this.#driver.outlivesPage && (this.#detached || leaving);
  }

  constructor(client: AgentClient, options: AgentConversationOptions) {
    this.#options = options;
    this.#thread = new ConversationThread(parseConversationMessages(options.initialMessages ?? []));
    this.#generateId = options.generateId ?? createIdGenerator();
    this.#now = options.now ?? Date.now;
    // RunStream reads only its own options (and the callbacks) from the object.
    this.#stream = new RunStream(client, options);
    this.#mode = options.executionMode ?? 'stream';
    this.#driver = createTurnDriver(client, this.#stream, options);
    const { threadStore } = options;
    if (threadStore !== undefined) {
      this.#sync = new ThreadSync(threadStore, {
        agentId: options.agentId,
        threadId: options.threadId ?? `thread-${Math.random().toString(36).slice(2, 10)}`,
        // Read by connect(), the first subscribe, send() or `loaded`: a conversation created
        // during a render that is thrown away (StrictMode) reads and sends nothing.
        load: options.threadId !== undefined,
        onChange: () => this.#publish(),
      });
    }
    this.#snapshot = this.#build();
  }

  /**
   * Resolves when the thread is loaded from the thread store (at once without one); starts the
   * load when nothing has started it yet.
   */
  get loaded(): Promise<void> {
    this.#connectThread();
    // Without a thread to load: what the first turn would wait for (the durable run's code).
    return this.#sync?.loading ?? this.#driver.preload();
  }

  /** Resolves when the saves asked so far are done. */
  get saved(): Promise<void> {
    return this.#sync?.saved ?? Promise.resolve();
  }

  /** The run stream behind the conversation (its `observe` adds callbacks). */
  get stream(): RunStream {
    return this.#stream;
  }

  /**
   * Replaces the options that apply at once: `onMessagesChange` and `disposeWhenUnobserved`; the
   * others are those it was created with (a new thread is a new conversation).
   */
  setOptions(options: AgentConversationOptions): void {
    this.#options = {
      ...this.#options,
      onMessagesChange: options.onMessagesChange,
      disposeWhenUnobserved: options.disposeWhenUnobserved,
    };
  }

  /** The client the next turn uses. */
  setClient(client: AgentClient): void {
    this.#stream.setClient(client);
    this.#driver.setClient(client);
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
    this.#disposeUnlessObserved();
    const trimmed = text.trim();
    if (this.#sync?.loading !== undefined) {
      if (this.#queued !== undefined) throw new AgentConversationBusyError();
      if (trimmed === '') throw new AgentInputError('The message is empty: nothing was sent.');
      if (this.#dropsTurns) return Promise.resolve(this.#snapshot);
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
    return this.#startTurn({ thread: [...this.#thread.messages, question] });
  }

  /**
   * Runs the last USER message again; its answer is kept as a version (one with no text is
   * replaced). Throws an {@link AgentConversationBusyError} while a turn runs; does nothing
   * (resolves with the snapshot) when the thread has no USER message.
   */
  retry(): Promise<ConversationSnapshot> {
    return this.#change({}, () => this.#startTurn(this.#thread.retried()));
  }

  /**
   * Writes an answer (default: the last) again; it is kept as a version, with the turns after it.
   * Throws an `AgentInputError` for an unknown id or a USER message, an
   * {@link AgentConversationBusyError} while a turn runs (unless `stopRunning`).
   */
  regenerate(
    answerId?: string,
    options: ConversationChangeOptions = {},
  ): Promise<ConversationSnapshot> {
    const { id } = this.#thread.regenerated(answerId);
    return this.#change(options, () => this.#startTurn(this.#thread.regenerated(id)));
  }

  /**
   * Replaces a USER message's text (it keeps its id) and sends the history up to it; what it said,
   * with the turns after it, is kept as a version. Throws an `AgentInputError` for an unknown id,
   * an agent message or blank text, an {@link AgentConversationBusyError} while a turn runs
   * (unless `stopRunning`: the turn is stopped, and the edit sent once it has ended).
   */
  edit(
    messageId: string,
    text: string,
    options: ConversationChangeOptions = {},
  ): Promise<ConversationSnapshot> {
    editedThread(this.#thread.messages, messageId, text, this.#now());
    return this.#change(options, () =>
      this.#startTurn(this.#thread.edited(messageId, text, this.#now(), this.#generateId())),
    );
  }

  /**
   * Shows (and saves as shown) the version that begins with `messageId` (of `versions`' `ids`),
   * with its later turns. Throws an `AgentInputError` when no version shown has that id, an
   * {@link AgentConversationBusyError} while a turn runs.
   */
  showVersion(messageId: string): ConversationSnapshot {
    this.#connectThread();
    this.#assertIdle();
    if (!this.#thread.show(messageId)) return this.#snapshot;
    this.#unfollowLast(false);
    this.#error = undefined;
    this.#publish();
    this.#options.onMessagesChange?.(this.#thread.messages);
    this.#save();
    return this.#snapshot;
  }

  /** Runs `change` once the turn under way stopped (`stopRunning`) and the version tree loaded. */
  #change(options: ConversationChangeOptions, change: Change): ReturnType<Change> {
    this.#connectThread();
    this.#disposeUnlessObserved();
    const active = this.#active;
    if (options.stopRunning === true && (active !== undefined || this.#sync?.loading)) {
      active?.handle?.stop();
      // A stream ends at once; a durable run once its cancel took (or it finished).
      if (active !== undefined) this.#onTurn(active);
      const wait = this.#active?.ended ?? this.#sync?.loading;
      if (wait !== undefined) return wait.then(() => this.#change({}, change));
    }
    this.#assertIdle();
    return treeLoaded() ? change() : loadTree().then(() => this.#change({}, change));
  }

  /**
   * Stops the turn: the socket closes, the partial answer stays, marked `stopped`. In durable mode
   * this cancels the run (cooperatively: it may still finish; asked during the start POST, the
   * cancel is sent once the run id is known).
   */
  stop(): void {
    this.#active?.handle?.stop();
  }

  /**
   * Answers the approvals the turn waits for: one decision per pending approval (see
   * `DurableRun.respond`); how it went is also `approvalStatus` and `approvalError`. Throws an
   * `AgentInputError` when no turn waits; sends nothing while an answer is being sent.
   */
  async respond(decisions: readonly DurableRunDecision[]): Promise<ConversationSnapshot> {
    const respond = this.#active?.handle?.respond;
    if (respond === undefined) throw new AgentInputError('No durable turn waits for approval.');
    await respond(decisions);
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
    const active = this.#active;
    this.#active = undefined;
    this.#unfollowLast(true);
    this.#thread.clear();
    this.#error = undefined;
    this.#publish();
    active?.settle?.();
    active?.end();
    this.#options.onMessagesChange?.(this.#thread.messages);
    // During the load: saved once the stored revision is known.
    if (this.#sync?.clearWhenLoaded() !== true) this.#save();
  }

  /**
   * Aborts a running turn (the thread keeps it as `stopped`); for an owner going away. A durable
   * turn is only detached (never cancelled): a reload attaches it again. A send waiting for the
   * thread's load is dropped (its promise resolves, nothing is sent).
   */
  dispose(): void {
    this.#detached = true;
    this.#dropQueued();
    this.#active?.handle?.detach();
  }

  /**
   * Watches again a durable turn that `dispose()` detached (an owner mounted again, e.g. under
   * StrictMode). Does nothing otherwise.
   */
  resume(): void {
    this.#detached = false;
    this.#connectThread();
    this.#active?.handle?.resume();
  }

  /** A send from a stale closure after the last reader left is stopped before its POST. */
  #disposeUnlessObserved() {
    if (this.#options.disposeWhenUnobserved === true) this.#listeners.stopUnlessObserved();
  }

  /** Drops the send waiting for the thread's load: it resolves, nothing is sent. */
  #dropQueued() {
    const queued = this.#queued;
    this.#queued = undefined;
    queued?.resolve(this.#snapshot);
  }

  #assertIdle() {
    if (this.#active !== undefined || this.#sync?.loading !== undefined) {
      throw new AgentConversationBusyError();
    }
  }

  /** Starts the turn that answers the last message of `turn.thread` (see `ConversationThread`). */
  #startTurn(turn: TurnThread | undefined): Promise<ConversationSnapshot> {
    if (turn === undefined || this.#dropsTurns) return Promise.resolve(this.#snapshot);
    const messages = historyOf(turn.thread, this.#options);
    const answer: ConversationMessage = {
      id: this.#generateId(),
      role: 'GLEAN_AI',
      text: '',
      status: 'streaming',
      createdAt: this.#now(),
    };
    this.#thread.answer(turn, answer);
    this.#error = undefined;
    const started = this.#newTurn(answer.id, false);
    const settled = new Promise<ConversationSnapshot>((resolve) => {
      started.settle = () => resolve(this.#snapshot);
    });
    const { metadata } = this.#options;
    const sync = this.#sync;
    const handle = this.#driver.start(
      { messages, ...(metadata ? { metadata } : {}) },
      sync === undefined
        ? {}
        : {
            // The turn can be found again (a durable run's record): the answer names it, and the
            // thread is saved before the request goes out.
            beforeSend: (early) => {
              this.#follow(started, early);
              return sync.save(this.#thread.messages, this.#thread.stored);
            },
          },
    );
    this.#follow(started, handle);
    return settled;
  }

  #newTurn(answerId: string, acceptSaved: boolean): Turn {
    this.#unfollowLast(false);
    const [ended, end] = settlement();
    const turn: Turn = { answerId, acceptSaved, handle: undefined, seen: undefined, ended, end };
    this.#active = turn;
    this.#last = turn;
    return turn;
  }

  /** Follows the turn's handle (once) and takes what it shows now. */
  #follow(turn: Turn, handle: TurnHandle) {
    if (turn.handle === undefined) {
      turn.handle = handle;
      turn.unsubscribe = handle.subscribe(() => this.#onTurn(turn));
    }
    this.#onTurn(turn);
  }

  /** Stops following the last turn; `discard`: the thread it wrote is gone (a clear). */
  #unfollowLast(discard: boolean) {
    const last = this.#last;
    this.#last = undefined;
    last?.unsubscribe?.();
    if (discard) last?.handle?.discard();
  }

  /** A change of a turn: its answer takes what the turn shows. */
  #onTurn(turn: Turn) {
    const handle = turn.handle;
    const shown = handle?.getSnapshot();
    if (handle === undefined || shown === undefined || shown === turn.seen) return;
    turn.seen = shown;
    if (this.#active !== turn) {
      // The turn settled: only its run's last facts (its connection) still change.
      if (this.#last === turn) this.#publish();
      return;
    }
    this.#thread.write(turn.answerId, (message) => handle.answer(message, this.#now()));
    const accepted = shown.accepted && !turn.acceptSaved && !shown.ended;
    if (accepted) turn.acceptSaved = true;
    if (shown.ended) {
      this.#active = undefined;
      this.#error = shown.error;
      if (shown.run !== undefined) this.#thread.keepRun(turn.answerId, shown.run);
    }
    this.#publish();
    if (accepted) this.#save();
    if (!shown.ended) return;
    this.#options.onMessagesChange?.(this.#thread.messages);
    this.#save();
    turn.settle?.();
    turn.end();
  }

  // ---- the thread store ----

  /** Starts the thread's load once (see `connect`). */
  #connectThread() {
    void this.#driver.preload();
    this.#sync?.connect(this.#driver, ({ cleared, restored }) => {
      if (restored !== undefined) this.#thread.set(restored.messages, restored.versions);
      if (cleared) this.#save();
      else if (restored?.turn !== undefined) this.#attachTurn(restored.turn);
      this.#publish();
      this.#sendQueued();
    });
  }

  /** Follows the run of the stored answer (the saved answer is the one it writes). */
  #attachTurn(ref: TurnRef) {
    const turn = this.#newTurn(ref.answerId, ref.saved);
    this.#follow(turn, this.#driver.attach(ref));
    if (!this.#detached) turn.handle?.resume();
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
    void this.#sync?.save(this.#thread.messages, this.#thread.stored);
  }

  #publish() {
    this.#snapshot = this.#build();
    this.#listeners.notify((error) =>
      console.error('agent-console-kit: an AgentConversation listener threw', error),
    );
  }

  #build(): ConversationSnapshot {
    const [active, error, run] = [this.#active, this.#error, this.#stream.getSnapshot()];
    const [running, shown] = [active?.handle?.getSnapshot(), this.#last?.handle?.getSnapshot()];
    const turns = { active: !!active, running, shown, error, run, executionMode: this.#mode };
    return conversationSnapshot(this.#thread, this.#sync, turns);
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

function createIdGenerator(): () => string {
  const prefix = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  return () => `msg-${prefix}-${(++counter).toString(36)}`;
}

/** A promise and what resolves it. */
function settlement(): [Promise<void>, () => void] {
  let end = () => {};
  return [new Promise<void>((resolve) => (end = resolve)), () => end()];
}
