import { useCallback, useMemo } from 'react';
import {
  createDurableRunList,
  type DurableRunListOptions,
  type KnownDurableRun,
} from '../core/durable/durable-run-list.js';
import { defaultRunStore } from '../core/storage/durable-run-store.js';
import type { Subscribable } from '../core/base/subscribable.js';
import type { ServerRunList, ServerRunListSnapshot } from '../core/storage/server-run-list.js';
import { useEngine } from './use-engine.js';
import { useStore } from './use-store.js';

/** Options of {@link useDurableRuns}. */
export interface UseDurableRunsOptions extends DurableRunListOptions {
  /**
   * The run store to list (give the one your durable runs and conversations use).
   * @default the page's run store (the one durable runs given no `store` use)
   */
  store?: DurableRunListOptions['store'];
  /**
   * Only this agent's runs.
   * @default undefined (every agent's)
   */
  agentId?: string | undefined;
  /**
   * The user's runs from the server too, on every device: a list made with
   * `createServerRunList` (through `createAgentProxy({ user, store })`). The runs started on
   * another device join `runs` (`source: 'server'`), and a run this browser knows takes the
   * server's newer state (approved on the phone: ended here too).
   * @default undefined (this browser's runs only: nothing is sent)
   */
  server?: ServerRunList | undefined;
}

/** The server's list behind {@link useDurableRuns}, when it has `server`. */
export interface UseDurableRunsServer {
  /** `loading` until the first list arrives; `error` when the last read failed. */
  status: ServerRunListSnapshot['status'];
  /** Why the last read failed (the runs of the read before stay listed). */
  error: Error | undefined;
  /** Reads the server's list now. Stable identity. */
  refresh: () => Promise<void>;
}

/** What {@link useDurableRuns} returns. */
export interface UseDurableRunsResult {
  /**
   * The runs this browser knows (and, with `server`, the user's runs on every device), newest
   * first (the same array until a record changes).
   */
  runs: readonly KnownDurableRun[];
  /** The runs that may still change (`inProgress`): attach one to follow it. */
  inProgress: readonly KnownDurableRun[];
  /**
   * Removes a run's record (e.g. a dismissed "may have started"): the run itself goes on at the
   * service, never cancelled. Stable identity.
   */
  remove: (localId: string) => void;
  /** The server's list: `undefined` without the `server` option. */
  server: UseDurableRunsServer | undefined;
}

const noServer: Subscribable<undefined> = {
  getSnapshot: () => undefined,
  subscribe: () => () => {},
};
const sameRead = (
  a: readonly [ServerRunListSnapshot['status'] | undefined, Error | undefined],
  b: readonly [ServerRunListSnapshot['status'] | undefined, Error | undefined],
) => a[0] === b[0] && a[1] === b[1];

/**
 * The durable runs this browser knows, from the run store, re-rendered when a record changes in
 * this tab or another one: e.g. "runs in progress" with a link that attaches one again
 * (`useDurableRun({ agentId, runId })`). Reads the store only: nothing is sent to the service.
 * With `server` (a `createServerRunList`), the user's runs on every device are listed too.
 *
 * @example
 * function RunsInProgress() {
 *   const { inProgress } = useDurableRuns({ agentId: 'helpdesk' });
 *   return (
 *     <ul>
 *       {inProgress.map((run) => (
 *         <li key={run.localId}>
 *           {run.request.preview} ({run.status}) <Link to={`/runs/${run.runId}`}>Open</Link>
 *         </li>
 *       ))}
 *     </ul>
 *   );
 * }
 */
export function useDurableRuns(options: UseDurableRunsOptions = {}): UseDurableRunsResult {
  const store = options.store ?? defaultRunStore();
  const { server } = options;
  const [runs] = useEngine(createDurableRunList, { store, agentId: options.agentId, server });
  const inProgress = useMemo(() => runs.filter((run) => run.inProgress), [runs]);
  const remove = useCallback((localId: string) => store.remove(localId), [store]);
  const [status, error] = useStore<
    ServerRunListSnapshot | undefined,
    readonly [ServerRunListSnapshot['status'] | undefined, Error | undefined]
  >(server ?? noServer, (snapshot) => [snapshot?.status, snapshot?.error], sameRead);
  const serverRead = useMemo(
    () =>
      server === undefined || status === undefined
        ? undefined
        : { status, error, refresh: server.refresh },
    [server, status, error],
  );
  return { runs, inProgress, remove, server: serverRead };
}
