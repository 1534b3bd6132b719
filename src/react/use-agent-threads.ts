import { useMemo } from 'react';
import { ThreadList, type ThreadListOptions } from '../core/storage/thread-list.js';
import type { ThreadStore, ThreadSummary } from '../core/storage/thread-store.js';
import { useEngine } from './use-engine.js';

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
 * const threadStore = createThreadStore();
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
  const [snapshot, list] = useEngine(
    (engineOptions: ThreadListOptions) => new ThreadList(engineOptions),
    options,
  );
  const { select, create, rename, remove, refresh } = list;
  return useMemo(
    () => ({ ...snapshot, select, create, rename, remove, refresh }),
    [snapshot, select, create, rename, remove, refresh],
  );
}
