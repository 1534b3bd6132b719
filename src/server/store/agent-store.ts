/**
 * The server's store of each user's threads and durable runs: the shapes it takes and gives, its
 * errors, and how a run's state sorts into the inbox. The SQL behind it is sql-agent-store.ts.
 */
import { isDurableRunState, terminalDurableRunStates } from '../../core/wire/durable-run-states.js';
import {
  ThreadConflictError,
  type StoredThread,
  type ThreadSaveInput,
  type ThreadSummary,
} from '../../core/storage/thread-store.js';

export type { StoredThread, ThreadSaveInput, ThreadSummary };

/** Where a durable run is, for an inbox: waiting for the user's approval, running, or ended. */
export type StoredRunGroup = 'waiting' | 'running' | 'ended';

/** A durable run the proxy forwarded the start of, as the store keeps it. */
export interface StoredRun {
  /** The signed-in user who started it (the app's `user(request)`, never a header). */
  userId: string;
  agentId: string;
  /** The service's run id. */
  runId: string;
  /** The service's last state seen, as sent (`REQUIRES_INPUT`, `RUNNING`, …; the list is open). */
  state: string;
  /** The inbox group of `state`. */
  group: StoredRunGroup;
  /** What the inbox shows: e.g. the first 200 characters of what was asked. */
  title: string;
  /** When the start was recorded, epoch ms. */
  createdAt: number;
  /** When the state or the title last changed, epoch ms. */
  updatedAt: number;
}

/** What {@link AgentStore.recordRun} is given. */
export interface StoredRunStart {
  userId: string;
  agentId: string;
  runId: string;
  /** The state of the start's answer (201). */
  state: string;
  /** @default '' */
  title?: string | undefined;
  /** @default the store's clock */
  createdAt?: number | undefined;
}

/** A page of a list: `nextCursor` (opaque) asks for the next one, absent on the last page. */
export interface StorePage {
  /**
   * The most items on a page.
   * @default 50 (at most 200)
   */
  limit?: number | undefined;
  /** The `nextCursor` of the page before; absent for the first page. */
  cursor?: string | undefined;
}

/**
 * A user's threads and durable runs, in a database. Every method takes the user id the app's
 * session gives (never one the browser sends) and reaches only that user's rows: a thread or run
 * of another user answers as absent. Threads are whole-thread upserts with a revision, as the
 * browser's `ThreadStore` does: a save that expects an older revision is refused with an
 * {@link AgentStoreConflictError} carrying the thread as stored, and writes nothing.
 *
 * Made by `createPgliteStore` (embedded) or `createPostgresStore` (a PostgreSQL server).
 */
export interface AgentStore {
  /** The user's threads (of one agent, if given), the most recently saved first. */
  listThreads(
    userId: string,
    options?: StorePage & { agentId?: string | undefined },
  ): Promise<{ threads: ThreadSummary[]; nextCursor?: string | undefined }>;
  /** The thread, or `undefined` when this user has none with that id. */
  loadThread(userId: string, threadId: string): Promise<StoredThread | undefined>;
  /**
   * Saves the whole thread (the store sets `v`, `revision` and the times; the messages keep only
   * their own fields). `expectedRevision`: the revision the writer last saw, 0 for a thread it
   * creates; another one stored rejects with an {@link AgentStoreConflictError} and writes
   * nothing. Without it the save always writes (a new revision after the stored one).
   */
  saveThread(
    userId: string,
    thread: ThreadSaveInput,
    options?: { expectedRevision?: number | undefined },
  ): Promise<{ revision: number; updatedAt: number }>;
  /** Changes a thread's title (a new revision); `undefined` when there is no such thread. */
  renameThread(
    userId: string,
    threadId: string,
    title: string,
  ): Promise<{ revision: number; updatedAt: number } | undefined>;
  /** Deletes the thread: `false` when this user had none with that id. */
  deleteThread(userId: string, threadId: string): Promise<boolean>;

  /**
   * Records a durable run's start. Recording it again (a retried start) keeps it and takes the
   * new state; a run id already recorded for ANOTHER user is not recorded: `undefined`.
   */
  recordRun(start: StoredRunStart): Promise<StoredRun | undefined>;
  /**
   * Takes a state (from a read, a response or a cancel) or a title. An ended run keeps its end
   * state (a late answer of an earlier read does not bring it back). `undefined` when the run is
   * not recorded for this user.
   */
  updateRun(
    userId: string,
    runId: string,
    change: { state?: string | undefined; title?: string | undefined },
  ): Promise<StoredRun | undefined>;
  /** The run when it is recorded for this user (the ownership check), else `undefined`. */
  getRun(userId: string, runId: string): Promise<StoredRun | undefined>;
  /** The user's runs, newest start first: of one inbox group and one agent, if given. */
  listRuns(
    userId: string,
    options?: StorePage & {
      group?: StoredRunGroup | undefined;
      agentId?: string | undefined;
    },
  ): Promise<{ runs: StoredRun[]; nextCursor?: string | undefined }>;

  /** Removes every thread and run of the user; how many of each were removed. */
  deleteUser(userId: string): Promise<{ threads: number; runs: number }>;
  /**
   * Applies the migrations not applied yet (the store's factory already did): each once, under a
   * lock, so that several processes starting at once apply each once. The versions applied now.
   */
  migrate(): Promise<number[]>;
  /** Closes the database (the pool, or the embedded database the store opened). */
  close(): Promise<void>;
}

/**
 * A save against a revision that is not the stored one: nothing was written. `current` is the
 * thread as stored when the save was refused (`undefined`: deleted), for the app to merge or show.
 */
export class AgentStoreConflictError extends ThreadConflictError {
  readonly current: StoredThread | undefined;
  override name = 'AgentStoreConflictError';
  constructor(threadId: string, expectedRevision: number, current: StoredThread | undefined) {
    super(threadId, expectedRevision, current?.revision ?? 0);
    this.current = current;
  }
}

/** An optional peer the app did not install: the error names it and the install line. */
export class AgentStorePackageError extends Error {
  readonly packageName: string;
  constructor(packageName: string, factory: string, cause: unknown) {
    super(
      `${factory} needs the package "${packageName}", which is not installed: npm install ${packageName}`,
      { cause },
    );
    this.name = 'AgentStorePackageError';
    this.packageName = packageName;
  }
}

/** The inbox group of a service state: an unknown state is not an end, so it counts as running. */
export function runGroupOf(state: string): StoredRunGroup {
  const known = state.toUpperCase();
  if (known === 'REQUIRES_INPUT') return 'waiting';
  if (isDurableRunState(known) && terminalDurableRunStates.has(known)) return 'ended';
  return 'running';
}
