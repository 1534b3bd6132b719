import { AgentInputError } from '../wire/errors.js';

// What the code around a thread store uses without the localStorage store itself (a thread's id,
// the conflict a save reports), so that a page which never keeps a thread does not carry that
// store (docs/decisions/0014-bundle-size.md). `thread-store.ts` exports both as well.

/** A new thread's id (internal: `useAgentThreads` and the console make them). */
export function newThreadId(): string {
  return `thread-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A save against a revision that is not the stored one: nothing was written. */
export class ThreadConflictError extends AgentInputError {
  readonly threadId: string;
  readonly expectedRevision: number;
  readonly storedRevision: number;
  override name = 'ThreadConflictError';
  constructor(threadId: string, expectedRevision: number, storedRevision: number) {
    super(
      `The thread "${threadId}" was saved elsewhere (revision ${storedRevision}, expected ${expectedRevision}): nothing was written.`,
    );
    this.threadId = threadId;
    this.expectedRevision = expectedRevision;
    this.storedRevision = storedRevision;
  }
}
