import { useCallback, useEffect, useRef } from 'react';
import type { AgentClient } from '../core/wire/agent-client.js';
import type { DurableRunDecision } from '../core/wire/durable-run-schemas.js';
import type { DurableRunStartRequest } from '../core/wire/durable-run-wire.js';
import {
  DurableRun,
  type DurableRunClient,
  type DurableRunOptions,
  type DurableRunSnapshot,
} from '../core/durable/durable-run.js';
import { useOptionalAgentClient } from './agent-client-provider.js';
import { useEngine } from './use-engine.js';

/** Options of {@link useDurableRun}. */
export interface UseDurableRunOptions extends Omit<
  DurableRunOptions,
  'agentId' | 'detachWhenUnobserved'
> {
  /** The agent whose runs the hook starts and watches (read on first render). */
  agentId: string;
  /**
   * The client (`api: 'platform'`).
   * @default the client of the nearest AgentClientProvider
   */
  client?: AgentClient | DurableRunClient;
  /**
   * A run to watch (a link, a thread's turn): attached on mount and whenever it changes.
   * @default undefined
   */
  runId?: string;
  /**
   * On mount without `runId`: show this agent's newest stored run again (in flight, waiting for
   * approval, settled within retention, or a start whose outcome is unknown).
   * @default true
   */
  resume?: boolean;
}

/** What {@link useDurableRun} returns: the snapshot, and stable actions. */
export interface UseDurableRunResult extends DurableRunSnapshot {
  /** Starts a run: one POST, never sent again. Stable identity. */
  start: (request: DurableRunStartRequest) => Promise<DurableRunSnapshot>;
  /** Watches an existing run. Stable identity. */
  attach: (runId: string) => Promise<DurableRunSnapshot>;
  /** Answers the whole batch of approvals shown. Stable identity. */
  respond: (decisions: readonly DurableRunDecision[]) => Promise<DurableRunSnapshot>;
  /** Asks the service to cancel the run (cooperative). Stable identity. */
  cancel: () => Promise<DurableRunSnapshot>;
  /** Reads the run now. Stable identity. */
  refresh: () => Promise<DurableRunSnapshot>;
  /** Stops watching; never cancels. Stable identity. */
  detach: () => void;
  /** Detaches and removes the stored record; back to idle. Stable identity. */
  forget: () => void;
  /** The run behind the hook. */
  run: DurableRun;
}

/**
 * A durable run of an agent that survives a reload: on mount the hook shows this agent's stored run
 * again (or attaches `runId`), and it re-renders as reads come in. One POST per `start()`, also
 * under `<StrictMode>` (whose extra unmount and mount neither detach nor read twice). Unmounting
 * detaches (the run goes on at the service; never a cancel): the run is detached once nothing
 * reads it (`detachWhenUnobserved`). Callbacks are read at call time.
 *
 * @example
 * function Report() {
 *   const run = useDurableRun({ agentId: 'approval-agent' });
 *   return (
 *     <>
 *       <button
 *         disabled={run.status !== 'idle' && !settledDurableRunStatuses.has(run.status)}
 *         onClick={() =>
 *           run.start({ messages: [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }] })
 *         }
 *       >
 *         Start
 *       </button>
 *       {run.status === 'start-unknown' && (
 *         <p>This run may have started; it was not sent again. <button onClick={run.forget}>Dismiss</button></p>
 *       )}
 *       {run.status === 'requires-input' &&
 *         run.pendingInteractions.map((item) => (
 *           <button key={item.interactionId} onClick={() => run.respond([{ interactionId: item.interactionId ?? '', decision: 'APPROVE' }])}>
 *             Approve
 *           </button>
 *         ))}
 *       <output>{run.output.text}</output>
 *     </>
 *   );
 * }
 */
export function useDurableRun(options: UseDurableRunOptions): UseDurableRunResult {
  const contextClient = useOptionalAgentClient();
  const { client: clientOption, runId, resume = true, ...runOptions } = options;
  const client = clientOption ?? contextClient;

  // Detached once nothing reads it (an unmount, after StrictMode's remount had its chance).
  const [snapshot, run] = useEngine(
    (engineOptions: DurableRunOptions) => {
      if (client === undefined) {
        throw new Error(
          'useDurableRun: no AgentClient. Pass `client`, or wrap this component in <AgentClientProvider client={createAgentClient({ api: "platform", … })}>.',
        );
      }
      return new DurableRun(client, engineOptions);
    },
    { ...runOptions, detachWhenUnobserved: true },
  );

  // Resuming is a choice of the first mount; a remount finds the run shown and reads nothing.
  const resumedRef = useRef(false);
  useEffect(() => {
    const shown = run.getSnapshot();
    if (runId !== undefined) {
      if (shown.runId !== runId) void run.attach(runId);
    } else if (resume && !resumedRef.current && shown.status === 'idle') {
      void run.resume();
    }
    resumedRef.current = true;
  }, [run, runId, resume]);

  const start = useCallback((request: DurableRunStartRequest) => run.start(request), [run]);
  const attach = useCallback((id: string) => run.attach(id), [run]);
  const respond = useCallback(
    (decisions: readonly DurableRunDecision[]) => run.respond(decisions),
    [run],
  );
  const cancel = useCallback(() => run.cancel(), [run]);
  const refresh = useCallback(() => run.refresh(), [run]);
  const detach = useCallback(() => run.detach(), [run]);
  const forget = useCallback(() => run.forget(), [run]);

  return { ...snapshot, start, attach, respond, cancel, refresh, detach, forget, run };
}
