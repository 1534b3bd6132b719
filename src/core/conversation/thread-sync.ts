import type { ConversationMessage } from '../storage/conversation-message.js';
import { ThreadConflictError } from '../storage/thread-store-base.js';
import type { StoredThread, ThreadSaveInput, ThreadStore } from '../storage/thread-store.js';
import type { ConversationVersions } from '../storage/thread-versions.js';
import { loadMessageVersions } from './message-versions-loader.js';
import { interruptedMessage, isInFlight, type TurnDriver, type TurnRef } from './turn-driver.js';

/** A thread read back: its messages, and the last answer when a run still writes it. */
export interface RestoredThread {
  messages: readonly ConversationMessage[];
  versions: ConversationVersions | undefined;
  turn: TurnRef | undefined;
}

/**
 * A conversation's thread kept in a {@link ThreadStore}, as zustand's `persist` keeps a store:
 * read once when the conversation connects, written when the conversation says the thread is
 * worth keeping (a turn settled or was accepted, a durable start is about to go out, a clear).
 * It holds the thread's id, the revision last read or written, and why the last read or write
 * failed; the conversation shows them and never touches the store itself.
 */
export class ThreadSync {
  readonly threadId: string;
  readonly #store: ThreadStore;
  readonly #agentId: string;
  readonly #onChange: () => void;
  #revision = 0;
  #error: Error | undefined;
  #saves: Promise<void> = Promise.resolve();
  /** The thread is to be read once connected (never on creation). */
  #pending: boolean;
  #loading: Promise<void> | undefined;
  /** The conversation was cleared while the thread loaded: the stored messages are not taken. */
  #clearedWhileLoading = false;

  constructor(
    store: ThreadStore,
    options: { agentId: string; threadId: string; load: boolean; onChange: () => void },
  ) {
    this.#store = store;
    this.#agentId = options.agentId;
    this.threadId = options.threadId;
    this.#pending = options.load;
    this.#onChange = options.onChange;
  }

  /** The thread is still to be read (nothing has connected yet). */
  get pending(): boolean {
    return this.#pending;
  }

  /** Resolves when the read under way is done (`undefined` when none is). */
  get loading(): Promise<void> | undefined {
    return this.#loading;
  }

  /**
   * Starts the thread's read, once. `loaded` is given what was read (`restored`: nothing when
   * there was no thread, or the conversation was cleared meanwhile, which `cleared` says).
   */
  connect(
    driver: Pick<TurnDriver, 'findTurn'>,
    loaded: (outcome: { cleared: boolean; restored: RestoredThread | undefined }) => void,
  ): void {
    if (!this.#pending) return;
    this.#pending = false;
    const done = (restored: RestoredThread | undefined) => {
      const cleared = this.#clearedWhileLoading;
      this.#clearedWhileLoading = false;
      this.#loading = undefined;
      loaded({ cleared, restored: cleared ? undefined : restored });
    };
    this.#loading = this.restore(driver).then(done, () => done(undefined));
  }

  /** A clear while the thread loads: its save waits for the stored revision. `false` otherwise. */
  clearWhenLoaded(): boolean {
    if (this.#loading === undefined) return false;
    this.#clearedWhileLoading = true;
    return true;
  }

  /** The revision of the thread last loaded or saved (0 before the first save). */
  get revision(): number {
    return this.#revision;
  }

  /** Why the thread could not be loaded or saved (a conflict, a full storage, a malformed thread). */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Resolves when the saves asked so far are done. */
  get saved(): Promise<void> {
    return this.#saves;
  }

  /**
   * Reads the stored thread (`undefined` when there is none, or it could not be read). An answer
   * a reload cut, which no run writes any more, is `stopped` (a stream) or "may have started, not
   * sent again" (a durable start with no run id); the driver says which answer a run still
   * writes, once what following it needs has loaded (so the thread shows with it attached).
   */
  async restore(driver: Pick<TurnDriver, 'findTurn'>): Promise<RestoredThread | undefined> {
    const stored = await this.load();
    const turn = await driver.findTurn(stored?.messages ?? []);
    // A thread with versions shows them: the version tree loads with it.
    if (stored?.versions !== undefined) await loadMessageVersions().catch(() => undefined);
    if (stored === undefined) return undefined;
    const messages = stored.messages.map((message) =>
      !isInFlight(message) || message.id === turn?.answerId ? message : interruptedAnswer(message),
    );
    const versions = stored.versions && {
      forks: stored.versions.forks,
      // A version not shown has no run writing it.
      hidden: stored.versions.hidden.map(({ after, message }) => ({
        after,
        message: isInFlight(message) ? interruptedAnswer(message) : message,
      })),
    };
    return { messages: Object.freeze(messages), versions, turn };
  }

  /** Reads the stored thread (`undefined` when there is none, or it could not be read). */
  async load(): Promise<StoredThread | undefined> {
    try {
      const stored = await this.#store.load(this.threadId);
      if (stored !== undefined) this.#revision = stored.revision;
      return stored;
    } catch (error) {
      this.#error = asError(error);
      return undefined;
    }
  }

  /** Saves the thread (after the saves asked before); resolves when this save is done. */
  save(
    messages: readonly ConversationMessage[],
    versions?: ConversationVersions | undefined,
  ): Promise<void> {
    const input: ThreadSaveInput = { id: this.threadId, agentId: this.#agentId, messages };
    if (versions !== undefined) input.versions = versions;
    this.#saves = this.#saves.then(async () => {
      try {
        await this.#write(input);
        this.#error = undefined;
      } catch (error) {
        this.#error = asError(error);
      }
      this.#onChange();
    });
    return this.#saves;
  }

  async #write(input: ThreadSaveInput) {
    const store = this.#store;
    try {
      this.#revision = (await store.save(input, { expectedRevision: this.#revision })).revision;
    } catch (error) {
      if (!(error instanceof ThreadConflictError)) throw error;
      // Renamed elsewhere, or saved by an earlier copy of this thread: when every stored message
      // is still ours, ours is newer.
      const stored = await store.load(input.id);
      const ours = new Set(
        [...input.messages, ...(input.versions?.hidden.map((item) => item.message) ?? [])].map(
          (message) => message.id,
        ),
      );
      if (stored === undefined || !stored.messages.every((message) => ours.has(message.id))) {
        throw error;
      }
      this.#revision = (await store.save(input, { expectedRevision: stored.revision })).revision;
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** A stored answer no run writes any more: a stream cut by the reload, or a durable start. */
function interruptedAnswer(message: ConversationMessage): ConversationMessage {
  return message.run === undefined
    ? { ...message, status: 'stopped' }
    : { ...message, status: 'error', error: { kind: 'network', message: interruptedMessage } };
}
