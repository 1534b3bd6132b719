import { useCallback, useMemo } from 'react';
import {
  createDurableRunList,
  type DurableRunListOptions,
  type KnownDurableRun,
} from '../core/durable/durable-run-list.js';
import { defaultRunStore } from '../core/storage/durable-run-store.js';
import { useEngine } from './use-engine.js';

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
}

/** What {@link useDurableRuns} returns. */
export interface UseDurableRunsResult {
  /** The runs this browser knows, newest first (the same array until a record changes). */
  runs: readonly KnownDurableRun[];
  /** The runs that may still change (`inProgress`): attach one to follow it. */
  inProgress: readonly KnownDurableRun[];
  /**
   * Removes a run's record (e.g. a dismissed "may have started"): the run itself goes on at the
   * service, never cancelled. Stable identity.
   */
  remove: (localId: string) => void;
}

/**
 * The durable runs this browser knows, from the run store, re-rendered when a record changes in
 * this tab or another one: e.g. "runs in progress" with a link that attaches one again
 * (`useDurableRun({ agentId, runId })`). Reads the store only: nothing is sent to the service.
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
  const [runs] = useEngine(createDurableRunList, { store, agentId: options.agentId });
  const inProgress = useMemo(() => runs.filter((run) => run.inProgress), [runs]);
  const remove = useCallback((localId: string) => store.remove(localId), [store]);
  return { runs, inProgress, remove };
}
