import { ListenerSet } from '../base/subscribable.js';
import { newThreadId } from './thread-store-base.js';
import type { ThreadStore, ThreadSummary } from './thread-store.js';

/** Options of a {@link ThreadList}. */
export interface ThreadListOptions {
  /** Where the threads are (the same store the conversation saves to). */
  threadStore: ThreadStore;
  /**
   * Only this agent's threads are listed, and `create()` makes threads of it.
   * @default undefined (every thread; `create` then needs an `agentId`)
   */
  agentId?: string | undefined;
  /**
   * The thread selected at first (read once, when the list is created).
   * @default undefined
   */
  defaultThreadId?: string | undefined;
  /**
   * The most threads listed.
   * @default undefined (all)
   */
  limit?: number | undefined;
}

/** What a {@link ThreadList} shows. */
export interface ThreadListSnapshot {
  /** The threads, the most recently saved first. */
  threads: readonly ThreadSummary[];
  /** `loading` until the first list arrives. */
  status: 'loading' | 'ready';
  /** Why the last list or change failed. */
  error: Error | undefined;
  /** The selected thread's id. */
  selectedThreadId: string | undefined;
}

/**
 * The threads of a {@link ThreadStore} with a selection: listed on the first subscriber and again
 * whenever the store says it changed, until the last subscriber has left. Fits
 * `useSyncExternalStore`.
 */
export class ThreadList {
  #options: ThreadListOptions;
  #snapshot: ThreadListSnapshot;
  readonly #listeners = new ListenerSet({
    onFirst: () => this.#connect(),
    onLast: () => this.#disconnect(),
  });
  #stopStore: (() => void) | undefined;
  #connected = false;
  // A later list wins over an earlier one that answers late.
  #generation = 0;

  constructor(options: ThreadListOptions) {
    this.#options = options;
    this.#snapshot = {
      threads: [],
      status: 'loading',
      error: undefined,
      selectedThreadId: options.defaultThreadId,
    };
  }

  getSnapshot = (): ThreadListSnapshot => this.#snapshot;

  subscribe = this.#listeners.subscribe;

  /** Another store, agent or limit lists again (while subscribed). */
  setOptions(options: ThreadListOptions): void {
    const previous = this.#options;
    this.#options = options;
    const changed =
      options.threadStore !== previous.threadStore ||
      options.agentId !== previous.agentId ||
      options.limit !== previous.limit;
    if (changed && this.#connected) {
      this.#disconnect();
      this.#connect();
    }
  }

  /** Lists again (a store without `subscribe` needs it after changes made elsewhere). */
  refresh = async (): Promise<void> => {
    const generation = ++this.#generation;
    const { threadStore, agentId, limit } = this.#options;
    try {
      const listed = await threadStore.list({ agentId, limit });
      if (generation !== this.#generation) return;
      this.#set({ threads: listed.threads, error: undefined, status: 'ready' });
    } catch (cause) {
      if (generation !== this.#generation) return;
      this.#set({ error: asError(cause), status: 'ready' });
    }
  };

  /** Selects a thread (or none). */
  select = (threadId: string | undefined): void => {
    this.#set({ selectedThreadId: threadId });
  };

  /** Saves a new empty thread, selects it and resolves with its id. */
  create = async (options: { title?: string; agentId?: string } = {}): Promise<string> => {
    const owner = options.agentId ?? this.#options.agentId;
    if (owner === undefined) {
      throw new Error('useAgentThreads: create() needs an agentId (option or argument).');
    }
    const id = newThreadId();
    const { threadStore } = this.#options;
    await this.#change(() =>
      threadStore.save(
        { id, agentId: owner, title: options.title, messages: [] },
        { expectedRevision: 0 },
      ),
    );
    this.select(id);
    await this.#listAgainUnlessHeard(threadStore);
    return id;
  };

  /** Changes a thread's title. */
  rename = async (threadId: string, title: string): Promise<void> => {
    const { threadStore } = this.#options;
    await this.#change(() => threadStore.rename(threadId, title));
    await this.#listAgainUnlessHeard(threadStore);
  };

  /** Deletes a thread (the selection is cleared when it was selected). */
  remove = async (threadId: string): Promise<void> => {
    const { threadStore } = this.#options;
    await this.#change(() => threadStore.delete(threadId));
    if (this.#snapshot.selectedThreadId === threadId) this.select(undefined);
    await this.#listAgainUnlessHeard(threadStore);
  };

  #connect() {
    this.#connected = true;
    const { threadStore } = this.#options;
    void this.refresh();
    this.#stopStore = threadStore.subscribe?.(() => void this.refresh());
  }

  #disconnect() {
    this.#connected = false;
    this.#stopStore?.();
    this.#stopStore = undefined;
  }

  async #change(change: () => Promise<unknown>): Promise<void> {
    try {
      await change();
    } catch (cause) {
      const failure = asError(cause);
      this.#set({ error: failure });
      throw failure;
    }
  }

  async #listAgainUnlessHeard(threadStore: ThreadStore) {
    if (threadStore.subscribe === undefined) await this.refresh();
  }

  #set(patch: Partial<ThreadListSnapshot>) {
    const next = { ...this.#snapshot, ...patch };
    const same = (Object.keys(patch) as (keyof ThreadListSnapshot)[]).every((key) =>
      Object.is(next[key], this.#snapshot[key]),
    );
    if (same) return;
    this.#snapshot = next;
    this.#listeners.notify();
  }
}

function asError(cause: unknown): Error {
  return cause instanceof Error ? cause : new Error(String(cause));
}
