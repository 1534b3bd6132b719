import type { ThreadSummary } from '../core/storage/thread-store.js';
import { createPartContext } from './part-helpers.js';

/** What the parts of an {@link AgentThreadListRoot} share. */
export interface ThreadListContextValue {
  threads: readonly ThreadSummary[];
  selectedThreadId: string | undefined;
  loading: boolean;
  untitled: string;
  onSelect: (threadId: string) => void;
  onCreate: (() => unknown) | undefined;
  onRename: ((threadId: string, title: string) => unknown) | undefined;
  onDelete: ((threadId: string) => unknown) | undefined;
  /** The select buttons by thread id, for the focus after a delete. */
  selectButtons: Map<string, HTMLButtonElement>;
  newButton: { current: HTMLButtonElement | null };
  /** Deletes a thread (after the confirm step) and moves focus to its neighbour. */
  deleteThread: (threadId: string) => Promise<void>;
  /** Says something once in the list's polite live region. */
  announce: (text: string) => void;
}

export const [ThreadListContext, useThreadListContext] =
  /* @__PURE__ */ createPartContext<ThreadListContextValue>('AgentThreadListRoot');

export function titleOf(thread: ThreadSummary | undefined, untitled: string): string {
  return thread === undefined || thread.title.trim() === '' ? untitled : thread.title;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
