/**
 * The signed-in user's durable runs as the proxy recorded them (`{baseUrl}/runs`): every run the
 * user started, on any device, through `createAgentProxy({ user, store })`. The list behind an
 * approvals inbox ("waiting for your approval") and `useAgentInbox`.
 */
import * as z from 'zod/mini';
import { ListenerSet, type Subscribable } from '../base/subscribable.js';
import { browserWindow } from '../base/storage-helpers.js';
import { parseWith } from '../wire/zod-issues.js';
import { serverStoreRequest, type ServerStoreOptions } from './server-store-request.js';

/** Where a run is, for an inbox. */
export type ServerRunGroup = 'waiting' | 'running' | 'ended';

/** A durable run of the user, as the server's store keeps it. */
export interface ServerRunSummary {
  agentId: string;
  runId: string;
  /** The service's state last seen by the proxy, as sent (`REQUIRES_INPUT`, `RUNNING`, …). */
  state: string;
  /** `waiting` (for the user's approval), `running` or `ended`. */
  group: ServerRunGroup;
  /** What was asked (its first 200 characters): untrusted text, render it as text. */
  title: string;
  /** When it started, epoch ms. */
  createdAt: number;
  /** When its state last changed, epoch ms. */
  updatedAt: number;
}

/** Options of {@link createServerRunList}. */
export interface ServerRunListOptions extends ServerStoreOptions {
  /**
   * Only the runs of this group.
   * @default undefined (every run)
   */
  group?: ServerRunGroup | undefined;
  /**
   * Only this agent's runs.
   * @default undefined (every agent)
   */
  agentId?: string | undefined;
  /**
   * The most runs listed (the newest starts).
   * @default 50
   */
  limit?: number | undefined;
  /**
   * How often the list is read again while someone subscribes and the page is visible, in ms (a
   * run started or approved on another device shows without a reload). `0`: never by itself.
   * @default 10_000
   */
  pollIntervalMs?: number | undefined;
}

/** What a {@link ServerRunList} holds. */
export interface ServerRunListSnapshot {
  /** `loading` until the first list arrives; `error` when the last read failed. */
  status: 'loading' | 'ready' | 'error';
  runs: readonly ServerRunSummary[];
  /** Why the last read failed (the runs of the read before stay). */
  error: Error | undefined;
}

/** The user's runs from the server, read when subscribed, on focus and every `pollIntervalMs`. */
export interface ServerRunList extends Subscribable<ServerRunListSnapshot> {
  /** Reads the list now. */
  refresh(): Promise<void>;
}

const runSchema = z.looseObject({
  agentId: z.string(),
  runId: z.string(),
  state: z.string(),
  group: z.enum(['waiting', 'running', 'ended']),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
const listSchema = z.looseObject({ runs: z.array(runSchema) });

/**
 * A {@link ServerRunList}: the runs are read when the first listener subscribes, when the page
 * comes back into view, every `pollIntervalMs` while subscribed, and on `refresh()`.
 *
 * @example
 * const waiting = createServerRunList({ group: 'waiting' });
 * waiting.subscribe(() => render(waiting.getSnapshot().runs));
 */
export function createServerRunList(options: ServerRunListOptions = {}): ServerRunList {
  const request = serverStoreRequest(options);
  const listeners = new ListenerSet();
  const pollMs = options.pollIntervalMs ?? 10_000;
  let snapshot: ServerRunListSnapshot = { status: 'loading', runs: [], error: undefined };
  let subscribers = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading: Promise<void> | undefined;

  const query = new URLSearchParams();
  if (options.group !== undefined) query.set('group', options.group);
  if (options.agentId !== undefined) query.set('agentId', options.agentId);
  query.set('limit', String(options.limit ?? 50));

  const publish = (next: ServerRunListSnapshot) => {
    snapshot = next;
    listeners.notify((error) =>
      console.error('agent-console-kit: a ServerRunList listener threw', error),
    );
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    if (subscribers === 0 || pollMs <= 0) return;
    timer = setTimeout(() => {
      // A hidden page is not read: it reads again when it comes back into view (onFocus).
      if (page()?.visibilityState === 'hidden') {
        schedule();
      } else void refresh();
    }, pollMs);
  };
  const read = async () => {
    try {
      const answer = parseWith(listSchema, await request('GET', `/runs?${query}`), 'The run list');
      const runs = answer.runs.map(
        ({ agentId, runId, state, group, title, createdAt, updatedAt }) => ({
          agentId,
          runId,
          state,
          group,
          title,
          createdAt,
          updatedAt,
        }),
      );
      publish({
        status: 'ready',
        runs: sameRuns(snapshot.runs, runs) ? snapshot.runs : runs,
        error: undefined,
      });
    } catch (error) {
      publish({
        status: 'error',
        runs: snapshot.runs,
        error: error instanceof Error ? error : new Error(String(error)),
      });
    }
  };
  const refresh = (): Promise<void> => {
    // One read at a time: a refresh asked during one waits for it.
    reading ??= read().finally(() => {
      reading = undefined;
      schedule();
    });
    return reading;
  };
  const page = () => (globalThis as { document?: Document }).document;
  const onFocus = () => {
    if (page()?.visibilityState !== 'hidden') void refresh();
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      const unsubscribe = listeners.subscribe(listener);
      subscribers += 1;
      if (subscribers === 1) {
        browserWindow()?.addEventListener('focus', onFocus);
        page()?.addEventListener('visibilitychange', onFocus);
        void refresh();
      }
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        unsubscribe();
        subscribers -= 1;
        if (subscribers === 0) {
          browserWindow()?.removeEventListener('focus', onFocus);
          page()?.removeEventListener('visibilitychange', onFocus);
          clearTimeout(timer);
          timer = undefined;
        }
      };
    },
    refresh,
  };
}

function sameRuns(a: readonly ServerRunSummary[], b: readonly ServerRunSummary[]): boolean {
  return (
    a.length === b.length &&
    a.every((run, index) => {
      const other = b[index];
      return (
        other !== undefined &&
        run.runId === other.runId &&
        run.state === other.state &&
        run.title === other.title &&
        run.updatedAt === other.updatedAt
      );
    })
  );
}
