import { useEffect, useState, type ComponentType } from 'react';
import { newThreadId } from '../core/storage/thread-store-base.js';
import type { ThreadStore } from '../core/storage/thread-store.js';
import { ThreadList } from '../core/storage/thread-list.js';
import { useStore } from '../react/use-store.js';
import type { AgentThreadListProps } from './agent-thread-list.js';

/** Props of {@link ConsoleThreadList}. */
export type ConsoleThreadListProps = Omit<
  AgentThreadListProps,
  'threads' | 'loading' | 'selectedThreadId' | 'onSelect' | 'onCreate' | 'onRename' | 'onDelete'
> & {
  threadStore: ThreadStore;
  agentId: string | undefined;
  /** The thread the console shows. */
  threadId: string | undefined;
  /** Shows another thread. */
  onThreadChange: (threadId: string) => void;
  /** The thread list part (the default one, or the app's). */
  ThreadList: ComponentType<AgentThreadListProps>;
};

/**
 * The console's thread list: the store's threads (`useAgentThreads`) in its thread list part, the
 * shown one selected; another one chosen, created or (after the shown one is deleted) the next in
 * the list, else a new id, is shown. Loaded with the console's thread list, only with a
 * `threadStore`. Internal to `AgentConsole`.
 */
export function ConsoleThreadList({
  threadStore,
  agentId,
  threadId,
  onThreadChange,
  ThreadList: List,
  ...rest
}: ConsoleThreadListProps) {
  // `useAgentThreads` without its callbacks' plumbing (none here): the list lists on its first
  // subscriber and again on the store's changes, until the last one has left.
  const [list] = useState(() => new ThreadList({ threadStore, agentId }));
  useEffect(() => list.setOptions({ threadStore, agentId }), [list, threadStore, agentId]);
  const threads = useStore(list);
  const { remove, rename, create } = list;
  return (
    <List
      {...rest}
      threads={threads.threads}
      loading={threads.status === 'loading'}
      selectedThreadId={threadId}
      onSelect={onThreadChange}
      onCreate={async () => onThreadChange(await create())}
      onRename={rename}
      onDelete={async (deleted: string) => {
        const index = threads.threads.findIndex((thread) => thread.id === deleted);
        const next = (threads.threads[index + 1] ?? threads.threads[index - 1])?.id;
        await remove(deleted);
        if (deleted === threadId) onThreadChange(next ?? newThreadId());
      }}
    />
  );
}
