import { useState } from 'react';
import { newThreadId } from '../core/storage/thread-store-base.js';
import type { ThreadStore } from '../core/storage/thread-store.js';

/** The console's thread: the one it shows, and how its thread list chooses another. */
export interface ConsoleThreads {
  /** The thread the conversation loads (`undefined` without a store: the option as given). */
  threadId: string | undefined;
  /** Shows another thread (the thread list's choice, a new one, the next after a delete). */
  select: (threadId: string) => void;
}

/**
 * The thread the console shows: the given `threadId` first (else a new id), then the one its
 * thread list chose. The list itself (`ConsoleThreadList`) loads with the thread list part.
 * Internal to `AgentConsole`.
 */
export function useConsoleThreads(
  threadStore: ThreadStore | undefined,
  givenThreadId: string | undefined,
): ConsoleThreads {
  const [threadId, select] = useState(() => givenThreadId ?? newThreadId());
  return { threadId: threadStore === undefined ? givenThreadId : threadId, select };
}
