/**
 * A {@link ThreadStore} over the proxy's thread routes: the signed-in user's threads in the
 * server's store, so that every device of the user lists and opens the same threads. The console's
 * thread list and `useAgentConversation({ threadStore })` work on it unchanged.
 */
import * as z from 'zod/mini';
import { parseStoredConversationMessages } from './conversation-message.js';
import { withCheckedVersions } from './thread-versions-loader.js';
import {
  ThreadConflictError,
  type StoredThread,
  type ThreadStore,
  type ThreadStoreChange,
  type ThreadSummary,
} from './thread-store.js';
import { browserWindow } from '../base/storage-helpers.js';
import { AgentHttpError, AgentInputError } from '../wire/errors.js';
import { parseWith } from '../wire/zod-issues.js';
import { serverStoreRequest, type ServerStoreOptions } from './server-store-request.js';

/** Options of {@link createServerThreadStore}. */
export interface ServerThreadStoreOptions extends ServerStoreOptions {
  /**
   * List again when the page comes back into view (another device may have saved meanwhile) and
   * tell the subscribers of each thread that changed (`external: true`).
   * @default true
   */
  refreshOnFocus?: boolean | undefined;
}

/**
 * A save refused because another device saved first: nothing was written. `current` is the thread
 * as the server has it (`undefined`: deleted), for the app to show or merge.
 */
export class ServerThreadConflictError extends ThreadConflictError {
  readonly current: StoredThread | undefined;
  override name = 'ServerThreadConflictError';
  constructor(threadId: string, expected: number, current: StoredThread | undefined) {
    super(threadId, expected, current?.revision ?? 0);
    this.current = current;
  }
}

const summarySchema = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  revision: z.number(),
  messageCount: z.number(),
});
const listSchema = z.looseObject({
  threads: z.array(summarySchema),
  nextCursor: z.optional(z.nullable(z.string())),
});
const threadSchema = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  title: z.string(),
  messages: z.array(z.unknown()),
  createdAt: z.number(),
  updatedAt: z.number(),
  revision: z.number(),
});
const savedSchema = z.looseObject({ revision: z.number(), updatedAt: z.number() });
const conflictSchema = z.looseObject({ current: z.optional(z.nullable(threadSchema)) });

function toThread(value: z.infer<typeof threadSchema>): StoredThread {
  const messages = parseStoredConversationMessages(value.messages);
  // Checked by `withCheckedVersions` where the thread is read.
  const versions = value['versions'] as StoredThread['versions'];
  return {
    v: 1,
    id: value.id,
    agentId: value.agentId,
    title: value.title,
    messages,
    ...(versions === undefined ? {} : { versions }),
    createdAt: value.createdAt,
    updatedAt: value.updatedAt,
    revision: value.revision,
  };
}

function toSummary(value: z.infer<typeof summarySchema>): ThreadSummary {
  const { id, agentId, title, createdAt, updatedAt, revision, messageCount } = value;
  return { id, agentId, title, createdAt, updatedAt, revision, messageCount };
}

const threadPath = (threadId: string) => {
  if (typeof threadId !== 'string' || threadId.trim() === '') {
    throw new AgentInputError('A thread needs a non-empty id.');
  }
  return `/threads/${encodeURIComponent(threadId)}`;
};

/**
 * A {@link ThreadStore} over the proxy's thread routes (`createAgentProxy({ user, store })`): the
 * signed-in user's threads, on every device of theirs. A save from two devices at once: one wins,
 * the other rejects with a {@link ServerThreadConflictError} carrying the thread as stored.
 *
 * @example
 * const threadStore = createServerThreadStore({ baseUrl: '/api/agent-service' });
 * <AgentConsole threadStore={threadStore} … />
 */
export function createServerThreadStore(options: ServerThreadStoreOptions = {}): ThreadStore {
  const request = serverStoreRequest(options);
  const listeners = new Set<(change: ThreadStoreChange) => void>();
  /** The revisions last seen of each thread, to tell what another device changed. */
  const known = new Map<string, number>();
  const notify = (change: ThreadStoreChange) => {
    if (change.revision === undefined) known.delete(change.threadId);
    else known.set(change.threadId, change.revision);
    for (const listener of [...listeners]) listener(change);
  };

  const list: ThreadStore['list'] = async (listOptions = {}) => {
    const query = new URLSearchParams();
    if (listOptions.agentId !== undefined) query.set('agentId', listOptions.agentId);
    if (listOptions.limit !== undefined) query.set('limit', String(listOptions.limit));
    if (listOptions.cursor !== undefined) query.set('cursor', listOptions.cursor);
    const text = query.toString();
    const answer = parseWith(
      listSchema,
      await request('GET', `/threads${text === '' ? '' : `?${text}`}`),
      'The thread list',
    );
    const threads = answer.threads.map(toSummary);
    for (const thread of threads) known.set(thread.id, thread.revision);
    return answer.nextCursor == null ? { threads } : { threads, nextCursor: answer.nextCursor };
  };

  /** The first page again: each thread whose revision differs from the one seen is notified. */
  const refresh = async () => {
    const before = new Map(known);
    let threads: ThreadSummary[];
    let complete: boolean;
    try {
      const page = await list();
      threads = page.threads;
      complete = page.nextCursor === undefined;
    } catch {
      return; // The list itself shows the error when it lists again.
    }
    const seen = new Set<string>();
    for (const thread of threads) {
      seen.add(thread.id);
      if (before.get(thread.id) !== thread.revision) {
        notify({ threadId: thread.id, revision: thread.revision, external: true });
      }
    }
    // With every thread on one page, one that is gone was deleted elsewhere.
    for (const threadId of before.keys()) {
      if (!seen.has(threadId) && complete) {
        notify({ threadId, revision: undefined, external: true });
      }
    }
  };
  const page = () => (globalThis as { document?: Document }).document;
  const onFocus = () => {
    if (page()?.visibilityState !== 'hidden') void refresh();
  };

  return {
    list,
    async load(threadId) {
      try {
        const answer = parseWith(
          z.looseObject({ thread: z.nullable(threadSchema) }),
          await request('GET', threadPath(threadId)),
          'The thread',
        );
        return answer.thread === null
          ? undefined
          : await withCheckedVersions(toThread(answer.thread));
      } catch (error) {
        if (error instanceof AgentHttpError && error.status === 404) return undefined;
        throw error;
      }
    },
    async save(thread, saveOptions = {}) {
      const path = threadPath(thread.id);
      let answer: unknown;
      try {
        answer = await request('PUT', path, {
          thread: {
            agentId: thread.agentId,
            title: thread.title,
            messages: thread.messages,
            versions: thread.versions,
          },
          expectedRevision: saveOptions.expectedRevision,
        });
      } catch (error) {
        if (!(error instanceof AgentHttpError) || error.status !== 409) throw error;
        const problem = conflictSchema.safeParse(error.body);
        const current =
          problem.success && problem.data.current != null
            ? await withCheckedVersions(toThread(problem.data.current))
            : undefined;
        throw new ServerThreadConflictError(thread.id, saveOptions.expectedRevision ?? 0, current);
      }
      const saved = parseWith(savedSchema, answer, 'The saved thread');
      notify({ threadId: thread.id, revision: saved.revision, external: false });
      return { revision: saved.revision, updatedAt: saved.updatedAt };
    },
    async rename(threadId, title) {
      try {
        const answer = parseWith(
          savedSchema,
          await request('PATCH', threadPath(threadId), { title }),
          'The renamed thread',
        );
        notify({ threadId, revision: answer.revision, external: false });
        return { revision: answer.revision };
      } catch (error) {
        if (error instanceof AgentHttpError && error.status === 404) return undefined;
        throw error;
      }
    },
    async delete(threadId) {
      try {
        await request('DELETE', threadPath(threadId));
      } catch (error) {
        // Deleted already (elsewhere): the same outcome.
        if (!(error instanceof AgentHttpError) || error.status !== 404) throw error;
      }
      notify({ threadId, revision: undefined, external: false });
    },
    subscribe(listener) {
      const target = options.refreshOnFocus === false ? undefined : browserWindow();
      if (listeners.size === 0 && target !== undefined) {
        target.addEventListener('focus', onFocus);
        page()?.addEventListener('visibilitychange', onFocus);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && target !== undefined) {
          target.removeEventListener('focus', onFocus);
          page()?.removeEventListener('visibilitychange', onFocus);
        }
      };
    },
  };
}
