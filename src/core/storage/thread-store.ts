import {
  parseStoredConversationMessages,
  type ConversationMessage,
} from './conversation-message.js';
import { AgentInputError } from '../wire/errors.js';
import { ThreadConflictError } from './thread-store-base.js';
import {
  browserWindow,
  type AgentStorageError,
  createMemoryStorage,
  parseStoredJson,
  storageWriteError,
  type KeyValueStorage,
} from '../base/storage-helpers.js';
import type { ConversationVersions } from './thread-versions.js';
import { checkVersions, withCheckedVersions } from './thread-versions-loader.js';

export { ThreadConflictError, newThreadId } from './thread-store-base.js';

/** A saved conversation: plain JSON, never a token or a header. */
export interface StoredThread {
  v: 1;
  id: string;
  agentId: string;
  title: string;
  /** The messages as the conversation has them (a durable answer keeps its `run`). */
  messages: readonly ConversationMessage[];
  /** The thread's other versions (edits, regenerates); absent when it has one. */
  versions?: ConversationVersions | undefined;
  /** When the thread was first saved, epoch ms. */
  createdAt: number;
  /** When it was saved last, epoch ms. */
  updatedAt: number;
  /** Bumped by every save: a save that expects an older one is refused. */
  revision: number;
}

/** What a thread list shows of a thread. */
export interface ThreadSummary {
  id: string;
  agentId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  revision: number;
  messageCount: number;
}

/** What {@link ThreadStore.save} is given: the store sets `v`, `revision` and the times. */
export interface ThreadSaveInput {
  id: string;
  agentId: string;
  /** @default the stored title, else (untitled) the first USER message's text (at most 80 characters) */
  title?: string | undefined;
  messages: readonly ConversationMessage[];
  /** The thread's other versions (edits, regenerates). @default undefined (one version) */
  versions?: ConversationVersions | undefined;
}

/** A change of a thread: its revision after it, or `undefined` when it was deleted. */
export interface ThreadStoreChange {
  threadId: string;
  revision: number | undefined;
  /** Whether it came from another tab (the `storage` event). */
  external: boolean;
}

/**
 * Where conversations are kept. A whole thread is saved at once (an upsert) with the revision the
 * writer last saw: a save against a newer revision rejects with a {@link ThreadConflictError}.
 * Implement it over a server of your own; the built-ins are
 * {@link createThreadStore} and {@link createMemoryThreadStore}.
 */
export interface ThreadStore {
  /** The threads, the most recently saved first. */
  list(options?: {
    agentId?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  }): Promise<{ threads: ThreadSummary[]; nextCursor?: string | undefined }>;
  /** The thread, or `undefined` when there is none. */
  load(threadId: string): Promise<StoredThread | undefined>;
  /**
   * Saves the whole thread. `expectedRevision`: the revision the writer last saw (0 for a thread
   * it created); another revision stored rejects with a {@link ThreadConflictError} and writes
   * nothing. Without it the save always writes.
   */
  save(
    thread: ThreadSaveInput,
    options?: { expectedRevision?: number | undefined },
  ): Promise<{ revision: number; updatedAt: number }>;
  /** Changes a thread's title (a new revision). */
  rename(threadId: string, title: string): Promise<{ revision: number } | undefined>;
  delete(threadId: string): Promise<void>;
  /** Listens to saves and deletes, this tab's and (localStorage) other tabs'. */
  subscribe?(listener: (change: ThreadStoreChange) => void): () => void;
}

/** Options of {@link createThreadStore}. */
export interface ThreadStoreOptions {
  /**
   * Where threads are kept: any `getItem`/`setItem`/`removeItem` storage.
   * @default window.localStorage in a browser, memory elsewhere
   */
  storage?: KeyValueStorage | undefined;
  /**
   * The first part of every key.
   * @default 'agent-console-kit:v1'
   */
  namespace?: string | undefined;
  /**
   * The second part of every key: give the signed-in user so that two users of one browser never
   * see each other's threads.
   * @default 'default'
   */
  scope?: string | undefined;
  /**
   * The most threads kept: saving one more removes the least recently saved.
   * @default 50
   */
  maxThreads?: number | undefined;
  /**
   * The clock, in ms since the epoch.
   * @default Date.now
   */
  now?: (() => number) | undefined;
  /**
   * Where the `storage` event of other tabs comes from.
   * @default globalThis.window, when there is one
   */
  eventTarget?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined;
}

const titleLength = 80;

/**
 * A {@link ThreadStore} in `storage`: `localStorage` in a browser, memory elsewhere (one key per
 * thread under `{namespace}:{scope}:thread:{id}`, plus an index), as `createDurableRunStore` keeps
 * durable runs. Only the messages' own fields are written;
 * a full storage rejects the save with an `AgentStorageError`.
 *
 * @example
 * const threadStore = createThreadStore({ scope: `user-${userId}` });
 */
export function createThreadStore(options: ThreadStoreOptions = {}): ThreadStore {
  return createKeyValueThreadStore(options.storage ?? browserStorage(), options);
}

/**
 * A {@link ThreadStore} in memory (tests, server rendering): threads are copied in and out, as
 * the localStorage one does, and are gone with the page.
 */
export function createMemoryThreadStore(
  options: Omit<ThreadStoreOptions, 'storage' | 'eventTarget'> = {},
): ThreadStore {
  return createKeyValueThreadStore(createMemoryStorage(), { ...options, eventTarget: undefined });
}

function createKeyValueThreadStore(
  storage: KeyValueStorage,
  options: ThreadStoreOptions,
): ThreadStore {
  const now = options.now ?? Date.now;
  const listeners = new Set<(change: ThreadStoreChange) => void>();
  const eventTarget = 'eventTarget' in options ? options.eventTarget : browserWindow();
  const notify = (threadId: string, revision: number | undefined, external: boolean) => {
    for (const listener of [...listeners]) listener({ threadId, revision, external });
  };
  const records = createThreadRecords(storage, options, notify);

  const onStorage = (event: Event) => {
    const threadId = records.threadIdOfKey((event as StorageEvent).key);
    if (threadId === undefined) return;
    let revision: number | undefined;
    try {
      revision = records.read(threadId)?.revision;
    } catch {
      revision = undefined;
    }
    notify(threadId, revision, true);
  };

  return {
    list(listOptions = {}) {
      return Promise.resolve(pageOf(records.summaries(listOptions.agentId), listOptions));
    },
    load(threadId) {
      return settle(() => records.read(threadId)).then(
        (stored) =>
          stored && (stored.versions === undefined ? stored : withCheckedVersions(stored)),
      );
    },
    save(input, saveOptions = {}) {
      const write = (versions: ConversationVersions | undefined) =>
        settle(() => {
          const thread = nextSave(input, versions, saveOptions.expectedRevision, records.read, now);
          records.put(thread);
          return { revision: thread.revision, updatedAt: thread.updatedAt };
        });
      if (input.versions === undefined) return write(undefined);
      return settle(() => parseStoredConversationMessages(input.messages))
        .then((messages) => checkVersions(input.versions, messages, ownFields))
        .then(write);
    },
    rename(threadId, title) {
      return settle(() => {
        const stored = records.read(threadId);
        if (stored === undefined) return undefined;
        const thread = {
          ...stored,
          title: title.trim().slice(0, 200),
          updatedAt: now(),
          revision: stored.revision + 1,
        };
        records.put(thread);
        return { revision: thread.revision };
      });
    },
    delete(threadId) {
      return settle(() => {
        records.remove(threadId);
        notify(threadId, undefined, false);
      });
    },
    subscribe(listener) {
      if (listeners.size === 0) eventTarget?.addEventListener('storage', onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) eventTarget?.removeEventListener('storage', onStorage);
      };
    },
  };
}

/**
 * The threads in a key-value storage: one key per thread and an index of their ids, the most
 * recently saved first, kept to `maxThreads` (a thread pushed out is removed and notified).
 */
function createThreadRecords(
  storage: KeyValueStorage,
  options: ThreadStoreOptions,
  notify: (threadId: string, revision: number | undefined, external: boolean) => void,
) {
  const prefix = `${options.namespace ?? 'agent-console-kit:v1'}:${options.scope ?? 'default'}:`;
  const indexKey = `${prefix}threads`;
  const threadKey = (id: string) => `${prefix}thread:${id}`;
  const maxThreads = Math.max(1, options.maxThreads ?? 50);

  const write = (key: string, value: string | null) => {
    try {
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
    } catch (cause) {
      throw storageError(cause);
    }
  };
  const readIndex = (): string[] => {
    const parsed = parseStoredJson(storage.getItem(indexKey));
    return Array.isArray(parsed)
      ? parsed.filter((item): item is string => typeof item === 'string')
      : [];
  };
  const read = (id: string): StoredThread | undefined => {
    const text = storage.getItem(threadKey(id));
    if (text === null) return undefined;
    return parseStoredThread(parseStoredJson(text), id);
  };
  const readOrSkip = (id: string): StoredThread | undefined => {
    try {
      return read(id);
    } catch {
      return undefined;
    }
  };

  return {
    read,
    remove(id: string) {
      write(threadKey(id), null);
      write(indexKey, JSON.stringify(readIndex().filter((item) => item !== id)));
    },
    put(thread: StoredThread) {
      write(threadKey(thread.id), JSON.stringify(thread));
      const index = [thread.id, ...readIndex().filter((item) => item !== thread.id)];
      for (const old of index.splice(maxThreads)) {
        write(threadKey(old), null);
        notify(old, undefined, false);
      }
      write(indexKey, JSON.stringify(index));
      notify(thread.id, thread.revision, false);
    },
    /** The readable threads (of one agent, if given), the most recently saved first. */
    summaries(agentId: string | undefined): ThreadSummary[] {
      return readIndex()
        .map(readOrSkip)
        .filter((thread): thread is StoredThread => thread !== undefined)
        .filter((thread) => agentId === undefined || thread.agentId === agentId)
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .map(summaryOf);
    },
    /** The thread a storage key holds, or `undefined` when the key is not one of these threads. */
    threadIdOfKey(key: string | null): string | undefined {
      if (typeof key !== 'string' || !key.startsWith(`${prefix}thread:`)) return undefined;
      return key.slice(`${prefix}thread:`.length);
    },
  };
}

/** The thread a save writes: checked against the stored revision, which it follows. */
function nextSave(
  input: ThreadSaveInput,
  versions: ConversationVersions | undefined,
  expected: number | undefined,
  read: (id: string) => StoredThread | undefined,
  now: () => number,
): StoredThread {
  assertId(input.id);
  const messages = parseStoredConversationMessages(input.messages).map(ownFields);
  const stored = read(input.id);
  const storedRevision = stored?.revision ?? 0;
  if (expected !== undefined && expected !== storedRevision) {
    throw new ThreadConflictError(input.id, expected, storedRevision);
  }
  const time = now();
  return {
    v: 1,
    id: input.id,
    agentId: input.agentId,
    // An untitled thread takes its first question as title.
    title: input.title ?? (stored?.title || titleOf(messages)),
    messages,
    ...(versions === undefined ? {} : { versions }),
    createdAt: stored?.createdAt ?? time,
    updatedAt: time,
    revision: storedRevision + 1,
  };
}

function summaryOf(thread: StoredThread): ThreadSummary {
  const { id, agentId, title, createdAt, updatedAt, revision, messages } = thread;
  return { id, agentId, title, createdAt, updatedAt, revision, messageCount: messages.length };
}

/** One page of the summaries, from `cursor` (an offset), `limit` long. */
function pageOf(
  all: ThreadSummary[],
  listOptions: { limit?: number | undefined; cursor?: string | undefined },
): { threads: ThreadSummary[]; nextCursor?: string } {
  const start = Math.max(0, Number.parseInt(listOptions.cursor ?? '0', 10) || 0);
  const limit = listOptions.limit === undefined ? all.length : Math.max(1, listOptions.limit);
  const threads = all.slice(start, start + limit);
  const next = start + threads.length;
  return next < all.length ? { threads, nextCursor: String(next) } : { threads };
}

/** What `run` returns, as a promise; what it throws, as a rejection (an `Error`). */
function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Only the fields a conversation message has: whatever else rode along is not written (internal:
 * the server's store keeps the same fields).
 */
export function ownFields(message: ConversationMessage): ConversationMessage {
  const kept: ConversationMessage = {
    id: message.id,
    role: message.role,
    text: message.text,
    status: message.status,
    createdAt: message.createdAt,
  };
  if (message.error !== undefined) {
    const { kind, message: text, status, code } = message.error;
    kept.error = {
      kind,
      message: text,
      ...(status === undefined ? {} : { status }),
      ...(code === undefined ? {} : { code }),
    };
  }
  if (message.startedAt !== undefined) kept.startedAt = message.startedAt;
  if (message.firstEventAt !== undefined) kept.firstEventAt = message.firstEventAt;
  if (message.endedAt !== undefined) kept.endedAt = message.endedAt;
  if (message.run !== undefined) {
    kept.run = {
      mode: message.run.mode,
      ...(message.run.localId === undefined ? {} : { localId: message.run.localId }),
      ...(message.run.runId === undefined ? {} : { runId: message.run.runId }),
    };
  }
  return kept;
}

function parseStoredThread(value: unknown, id: string): StoredThread {
  const thread = value as Partial<StoredThread> | undefined;
  if (
    typeof thread !== 'object' ||
    thread === null ||
    thread.v !== 1 ||
    thread.id !== id ||
    typeof thread.agentId !== 'string' ||
    typeof thread.revision !== 'number' ||
    typeof thread.createdAt !== 'number' ||
    typeof thread.updatedAt !== 'number'
  ) {
    throw new AgentInputError(`The stored thread "${id}" is malformed.`);
  }
  const messages = parseStoredConversationMessages(thread.messages);
  // Checked by `load` (the list and a save's revision check do not need them).
  const versions = thread.versions as ConversationVersions | undefined;
  return {
    v: 1,
    id,
    agentId: thread.agentId,
    title: typeof thread.title === 'string' ? thread.title : '',
    messages,
    ...(versions === undefined ? {} : { versions }),
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
    revision: thread.revision,
  };
}

/** An untitled thread's title: its first question (internal: the server's store titles alike). */
export function titleOf(messages: readonly ConversationMessage[]): string {
  const first = messages.find((message) => message.role === 'USER')?.text ?? '';
  const text = first.replace(/\s+/g, ' ').trim();
  return text.length > titleLength ? `${text.slice(0, titleLength - 1)}…` : text;
}

function assertId(id: unknown) {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new AgentInputError('A thread needs a non-empty id.');
  }
}

function storageError(cause: unknown): AgentStorageError {
  return storageWriteError(cause, {
    quota: 'The thread store is full: this thread was not saved.',
    unavailable: 'The thread store refused a write: this thread was not saved.',
  });
}

function browserStorage(): KeyValueStorage {
  try {
    const candidate = (globalThis as { localStorage?: KeyValueStorage }).localStorage;
    if (browserWindow() !== undefined && typeof candidate?.getItem === 'function') return candidate;
  } catch {
    // A sandboxed frame throws on reading localStorage.
  }
  return createMemoryStorage();
}
