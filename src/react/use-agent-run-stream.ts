import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { AgentClient } from '../core/agent-client.js';
import {
  RunStream,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
} from '../core/run-stream.js';
import type { RunSnapshot } from '../core/run-types.js';
import { useOptionalAgentClient } from './agent-client-provider.js';

/** Options of {@link useAgentRunStream}. */
export interface UseAgentRunStreamOptions extends RunStreamOptions {
  /**
   * The client of the hook's own stream.
   * @default the client of the nearest AgentClientProvider
   */
  client?: AgentClient;
  /**
   * A stream to share with other components. The hook then does not own it: unmounting does not
   * abort its run, and the other options except the callbacks are ignored (they are the stream's).
   * @default undefined (the hook creates, owns and on unmount aborts its own stream)
   */
  stream?: RunStream;
}

/** What {@link useAgentRunStream} returns: the snapshot, and stable actions. */
export interface UseAgentRunStreamResult extends RunSnapshot {
  /**
   * Starts a run (aborting one in progress); see `RunStream.start`. Stable identity. Called after
   * the component unmounted, the run is aborted before its request goes out (for the hook's own
   * stream).
   */
  start: (request: RunStartRequest) => Promise<RunSnapshot>;
  /** Aborts the run in progress. Stable identity. */
  abort: () => void;
  /** Aborts a run in progress and returns to idle. Stable identity. */
  reset: () => void;
  /** The stream behind the hook (pass it to another component's `useAgentRunStream({ stream })`). */
  stream: RunStream;
}

/**
 * Runs an agent and re-renders with its stream: at most once per animation frame while events
 * arrive, at once on a status change. One POST per `start()`, also under `<StrictMode>`. The
 * callbacks are read at call time, so new inline functions each render restart nothing. The hook's
 * own stream is created on first render (`reconnect`, `maxEvents`, `throttleMs`, `idleTimeoutMs`
 * are read then) and its run is aborted on unmount.
 *
 * @example
 * function Ask({ agentId }: { agentId: string }) {
 *   const run = useAgentRunStream({ onDone: (snapshot) => console.log(snapshot.text) });
 *   const busy = activeRunStatuses.has(run.status);
 *   return (
 *     <>
 *       <button
 *         disabled={busy}
 *         onClick={() =>
 *           run.start({ agentId, messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hello' }] }] })
 *         }
 *       >
 *         Run
 *       </button>
 *       {busy && <button onClick={run.abort}>Stop</button>}
 *       <output>{run.text}</output>
 *       {run.error && <p role="alert">{run.error.message}</p>}
 *     </>
 *   );
 * }
 */
export function useAgentRunStream(options: UseAgentRunStreamOptions = {}): UseAgentRunStreamResult {
  const contextClient = useOptionalAgentClient();
  const client = options.client ?? contextClient;

  // Read by the callbacks registered once per stream, so inline callbacks never re-register.
  const callbacksRef = useRef<RunStreamCallbacks>(options);
  callbacksRef.current = options;

  // Created during render (no side effect: a RunStream starts nothing until start()), once.
  const ownedRef = useRef<RunStream | undefined>(undefined);
  if (options.stream === undefined && ownedRef.current === undefined) {
    if (client === undefined) {
      throw new Error(
        'useAgentRunStream: no AgentClient. Pass `client` or `stream`, or wrap this component in <AgentClientProvider client={createAgentClient(…)}>.',
      );
    }
    ownedRef.current = new RunStream(client, {
      reconnect: options.reconnect,
      maxEvents: options.maxEvents,
      throttleMs: options.throttleMs,
      idleTimeoutMs: options.idleTimeoutMs,
      transport: options.transport,
      sleep: options.sleep,
      now: options.now,
      random: options.random,
    });
  }
  const owned = options.stream === undefined;
  const stream = options.stream ?? (ownedRef.current as RunStream);

  useEffect(() => {
    if (owned && client !== undefined) stream.setClient(client);
  }, [owned, client, stream]);

  // Set by the cleanup below, cleared when the effect runs again (StrictMode's second mount).
  const unmountedRef = useRef(false);

  useEffect(() => {
    unmountedRef.current = false;
    const stopObserving = stream.observe({
      onEvent: (event) => callbacksRef.current.onEvent?.(event),
      onStatusChange: (status, snapshot) => callbacksRef.current.onStatusChange?.(status, snapshot),
      onDone: (snapshot) => callbacksRef.current.onDone?.(snapshot),
      onError: (error, snapshot) => callbacksRef.current.onError?.(error, snapshot),
    });
    return () => {
      // Callbacks first: the abort below must not call into an unmounted component.
      stopObserving();
      unmountedRef.current = true;
      // Under StrictMode this cleanup also runs between the two mounts, before any start():
      // aborting an idle stream does nothing and leaves it usable.
      if (owned) stream.abort();
    };
  }, [stream, owned]);

  const snapshot = useSyncExternalStore(stream.subscribe, stream.getSnapshot, stream.getSnapshot);

  const start = useCallback(
    (request: RunStartRequest) => {
      const done = stream.start(request);
      if (owned && unmountedRef.current) {
        // Called while unmounted: a stale closure after a real unmount (abort, before the request
        // goes out: preparing it takes several microtasks), or a child's mount effect between
        // StrictMode's simulated unmount and remount (remounted by then: the run goes on).
        queueMicrotask(() => {
          if (unmountedRef.current) stream.abort();
        });
      }
      return done;
    },
    [stream, owned],
  );
  const abort = useCallback(() => stream.abort(), [stream]);
  const reset = useCallback(() => stream.reset(), [stream]);

  return { ...snapshot, start, abort, reset, stream };
}
