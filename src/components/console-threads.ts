import { useState } from 'react';
import { newThreadId } from '../core/storage/thread-store-base.js';
import type { ThreadStore } from '../core/storage/thread-store.js';
import { useAgentThreads } from '../react/use-agent-threads.js';
import type { AgentThreadListRootProps } from './agent-thread-list.js';

/** The console's use of a thread list: which thread it shows, and the list's props. */
export interface ConsoleThreads {
  /** The thread the conversation loads (`undefined` without a store: the option as given). */
  threadId: string | undefined;
  /** The list's props, or `undefined` without a store. */
  list: AgentThreadListRootProps | undefined;
}

/** A store with no thread: `useAgentThreads` needs one when the console was given none. */
const noThreadStore: ThreadStore = {
  list: () => Promise.resolve({ threads: [] }),
  load: () => Promise.resolve(undefined),
  save: () => Promise.reject(new Error('No thread store.')),
  rename: () => Promise.resolve(undefined),
  delete: () => Promise.resolve(),
};

/**
 * The thread the console shows and its thread list: the given `threadId` first (else a new id),
 * another one chosen, created or (after the shown one is deleted) the next in the list, else a
 * new id. Internal to `AgentConsole`.
 */
export function useConsoleThreads(
  threadStore: ThreadStore | undefined,
  agentId: string | undefined,
  givenThreadId: string | undefined,
): ConsoleThreads {
  const threads = useAgentThreads({ threadStore: threadStore ?? noThreadStore, agentId });
  const [threadId, setThreadId] = useState(() => givenThreadId ?? newThreadId());
  if (threadStore === undefined) return { threadId: givenThreadId, list: undefined };
  const { remove, rename, create } = threads;
  return {
    threadId,
    list: {
      threads: threads.threads,
      loading: threads.status === 'loading',
      selectedThreadId: threadId,
      onSelect: setThreadId,
      onCreate: async () => setThreadId(await create()),
      onRename: rename,
      onDelete: async (deleted: string) => {
        const index = threads.threads.findIndex((thread) => thread.id === deleted);
        const next = (threads.threads[index + 1] ?? threads.threads[index - 1])?.id;
        await remove(deleted);
        if (deleted === threadId) setThreadId(next ?? newThreadId());
      },
    },
  };
}
