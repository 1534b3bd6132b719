import { useCallback, useEffect, useRef, useState } from 'react';
import { newThreadId, type ThreadStore, type ThreadSummary } from '../core/storage/thread-store.js';

/** Options of {@link useAgentThreads}. */
export interface UseAgentThreadsOptions {
  /** Where the threads are (the same store the conversation saves to). */
  threadStore: ThreadStore;
  /**
   * Only this agent's threads are listed, and `create()` makes threads of it.
   * @default undefined (every thread; `create` then needs an `agentId`)
   */
  agentId?: string | undefined;
  /**
   * The thread selected on mount.
   * @default undefined
   */
  defaultThreadId?: string | undefined;
  /**
   * The most threads listed.
   * @default undefined (all)
   */
  limit?: number | undefined;
}

/** What {@link useAgentThreads} returns. */
export interface UseAgentThreadsResult {
  /** The threads, the most recently saved first. */
  threads: readonly ThreadSummary[];
  /** `loading` until the first list arrives. */
  status: 'loading' | 'ready';
  /** Why the last list or change failed. */
  error: Error | undefined;
  /** The selected thread's id (give it to `useAgentConversation({ threadId })`, with a `key`). */
  selectedThreadId: string | undefined;
  /** Selects a thread (or none). Stable identity. */
  select: (threadId: string | undefined) => void;
  /** Saves a new empty thread, selects it and resolves with its id. Stable identity. */
  create: (options?: { title?: string; agentId?: string }) => Promise<string>;
  /** Changes a thread's title. Stable identity. */
  rename: (threadId: string, title: string) => Promise<void>;
  /** Deletes a thread (the selection is cleared when it was selected). Stable identity. */
  remove: (threadId: string) => Promise<void>;
  /** Lists again (a store without `subscribe` needs it after changes made elsewhere). */
  refresh: () => Promise<void>;
}

/**
 * The threads of a {@link ThreadStore}, listed again whenever the store says it changed (this
 * tab's saves, and other tabs' with the localStorage store), with new, select, rename and delete.
 *
 * @example
 * const threadStore = createLocalStorageThreadStore();
 * function Threads() {
 *   const list = useAgentThreads({ threadStore, agentId: 'helpdesk' });
 *   return (
 *     <>
 *       <button onClick={() => void list.create()}>New</button>
 *       {list.threads.map((thread) => (
 *         <button key={thread.id} onClick={() => list.select(thread.id)}>{thread.title || 'New thread'}</button>
 *       ))}
 *       {list.selectedThreadId && (
 *         <Chat key={list.selectedThreadId} threadStore={threadStore} threadId={list.selectedThreadId} />
 *       )}
 *     </>
 *   );
 * }
 */
export function useAgentThreads(options: UseAgentThreadsOptions): UseAgentThreadsResult {
  const { threadStore, agentId, limit } = options;
  const [threads, setThreads] = useState<readonly ThreadSummary[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready'>('loading');
  const [error, setError] = useState<Error | undefined>(undefined);
  const [selectedThreadId, setSelected] = useState<string | undefined>(options.defaultThreadId);
  // A later list wins over an earlier one that answers late.
  const listGeneration = useRef(0);
  const mounted = useRef(false);

  const refresh = useCallback(async () => {
    const generation = ++listGeneration.current;
    try {
      const listed = await threadStore.list({ agentId, limit });
      if (!mounted.current || generation !== listGeneration.current) return;
      setThreads(listed.threads);
      setError(undefined);
    } catch (cause) {
      if (!mounted.current || generation !== listGeneration.current) return;
      setError(cause instanceof Error ? cause : new Error(String(cause)));
    }
    setStatus('ready');
  }, [threadStore, agentId, limit]);

  useEffect(() => {
    mounted.current = true;
    void refresh();
    const unsubscribe = threadStore.subscribe?.(() => void refresh());
    return () => {
      mounted.current = false;
      unsubscribe?.();
    };
  }, [threadStore, refresh]);

  const run = useCallback(async (change: () => Promise<unknown>) => {
    try {
      await change();
    } catch (cause) {
      const failure = cause instanceof Error ? cause : new Error(String(cause));
      if (mounted.current) setError(failure);
      throw failure;
    }
  }, []);

  const create = useCallback(
    async (createOptions: { title?: string; agentId?: string } = {}) => {
      const owner = createOptions.agentId ?? agentId;
      if (owner === undefined) {
        throw new Error('useAgentThreads: create() needs an agentId (option or argument).');
      }
      const id = newThreadId();
      await run(() =>
        threadStore.save(
          { id, agentId: owner, title: createOptions.title, messages: [] },
          { expectedRevision: 0 },
        ),
      );
      if (mounted.current) setSelected(id);
      if (threadStore.subscribe === undefined) await refresh();
      return id;
    },
    [threadStore, agentId, run, refresh],
  );
  const rename = useCallback(
    async (threadId: string, title: string) => {
      await run(() => threadStore.rename(threadId, title));
      if (threadStore.subscribe === undefined) await refresh();
    },
    [threadStore, run, refresh],
  );
  const remove = useCallback(
    async (threadId: string) => {
      await run(() => threadStore.delete(threadId));
      if (mounted.current) setSelected((current) => (current === threadId ? undefined : current));
      if (threadStore.subscribe === undefined) await refresh();
    },
    [threadStore, run, refresh],
  );
  const select = useCallback((threadId: string | undefined) => setSelected(threadId), []);

  return { threads, status, error, selectedThreadId, select, create, rename, remove, refresh };
}
