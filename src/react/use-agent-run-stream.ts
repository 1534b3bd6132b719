import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { AgentClient } from '../core/wire/agent-client.js';
import {
  RunStream,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
} from '../core/stream/run-stream.js';
import type { RunSnapshot } from '../core/stream/run-types.js';
import { useOptionalAgentClient } from './agent-client-provider.js';
import { useEngine } from './use-engine.js';

/** Options of {@link useAgentRunStream}. */
export interface UseAgentRunStreamOptions extends Omit<RunStreamOptions, 'abortWhenUnobserved'> {
  /**
   * The client of the hook's own stream.
   * @default the client of the nearest AgentClientProvider
   */
  client?: AgentClient;
  /**
   * A stream to share with other components. The hook then does not own it: unmounting does not
   * abort its run, and the options other than the callbacks, `select` and `isEqual` are the
   * stream's (passing one warns in development).
   * @default undefined (the hook creates, owns and on unmount aborts its own stream)
   */
  stream?: RunStream;
}

/** Options of {@link useAgentRunStream} reading a slice of the snapshot. */
export interface UseAgentRunStreamSelectOptions<TSelected> extends UseAgentRunStreamOptions {
  /**
   * Reads a slice of the snapshot: the component re-renders only when the slice changes (by
   * `isEqual`), and the hook returns it as `selected` instead of spreading the snapshot. May be an
   * inline function.
   */
  select: (snapshot: RunSnapshot) => TSelected;
  /**
   * When two slices count as the same (no re-render).
   * @default Object.is
   */
  isEqual?: ((previous: TSelected, next: TSelected) => boolean) | undefined;
}

/** The stable actions of {@link useAgentRunStream}. */
export interface UseAgentRunStreamActions {
  /**
   * Starts a run (aborting one in progress); see `RunStream.start`. Stable identity. Called after
   * the component unmounted, the run is aborted before its request goes out (for the hook's own
   * stream, which nothing reads any more).
   */
  start: (request: RunStartRequest) => Promise<RunSnapshot>;
  /** Aborts the run in progress. Stable identity. */
  abort: () => void;
  /** Aborts a run in progress and returns to idle. Stable identity. */
  reset: () => void;
  /** The stream behind the hook (pass it to another component's `useAgentRunStream({ stream })`). */
  stream: RunStream;
}

/** What {@link useAgentRunStream} returns without `select`: the snapshot, and stable actions. */
export interface UseAgentRunStreamResult extends RunSnapshot, UseAgentRunStreamActions {}

/** What {@link useAgentRunStream} returns with `select`: the slice, and stable actions. */
export interface UseAgentRunStreamSelection<TSelected> extends UseAgentRunStreamActions {
  /** What `select` returned: the same value until the slice changes. */
  selected: TSelected;
}

const selectSnapshot = (snapshot: RunSnapshot) => snapshot;

/**
 * Runs an agent and re-renders with its stream: at most once per animation frame while events
 * arrive, at once on a status change. One POST per `start()`, also under `<StrictMode>`. The
 * callbacks are read at call time, so new inline functions each render restart nothing. The hook's
 * own stream is created on first render and its run aborted once no component reads it (on
 * unmount; `abortWhenUnobserved`); options changed later are
 * handed to `RunStream.setOptions` (see there for when each applies). With `select`, the component
 * re-renders only when its slice of the snapshot changes.
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
 *
 * @example
 * // Re-renders on status changes only, not on every frame of events.
 * function RunBadge({ stream }: { stream: RunStream }) {
 *   const { selected: status } = useAgentRunStream({ stream, select: (run) => run.status });
 *   return <span>{status}</span>;
 * }
 */
export function useAgentRunStream<TSelected>(
  options: UseAgentRunStreamSelectOptions<TSelected>,
): UseAgentRunStreamSelection<TSelected>;
export function useAgentRunStream(options?: UseAgentRunStreamOptions): UseAgentRunStreamResult;
export function useAgentRunStream<TSelected>(
  options: UseAgentRunStreamOptions & Partial<UseAgentRunStreamSelectOptions<TSelected>> = {},
): UseAgentRunStreamResult | UseAgentRunStreamSelection<TSelected> {
  const {
    client: clientOption,
    stream: sharedStream,
    select,
    isEqual,
    onEvent,
    onStatusChange,
    onDone,
    onError,
    ...streamOptions
  } = options;
  const contextClient = useOptionalAgentClient();
  const client = clientOption ?? contextClient;

  // The hook's own stream aborts its run once nothing reads it (an unmount, after StrictMode's
  // remount had its chance); a shared stream keeps its own options.
  const [selected, stream] = useEngine(
    (engineOptions: RunStreamOptions) => {
      if (client === undefined) {
        throw new Error(
          'useAgentRunStream: no AgentClient. Pass `client` or `stream`, or wrap this component in <AgentClientProvider client={createAgentClient(…)}>.',
        );
      }
      return new RunStream(client, engineOptions);
    },
    { ...streamOptions, abortWhenUnobserved: true },
    {
      shared: sharedStream,
      select: (select ?? selectSnapshot) as (snapshot: RunSnapshot) => TSelected,
      isEqual,
    },
  );
  const owned = sharedStream === undefined;

  useEffect(() => {
    if (owned && client !== undefined) stream.setClient(client);
  }, [owned, client, stream]);

  const warnedRef = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    if (owned || !isDevelopment()) return;
    warnedRef.current ??= new Set();
    warnIgnoredOptions({ client: clientOption, ...streamOptions }, warnedRef.current);
  });

  // The component's callbacks, attached while it is mounted (none after an unmount's abort), read
  // at call time so inline callbacks never re-register.
  const callbacksRef = useRef<RunStreamCallbacks>({});
  callbacksRef.current = { onEvent, onStatusChange, onDone, onError };
  useEffect(
    () =>
      stream.observe({
        onEvent: (event) => callbacksRef.current.onEvent?.(event),
        onStatusChange: (status, snapshot) =>
          callbacksRef.current.onStatusChange?.(status, snapshot),
        onDone: (snapshot) => callbacksRef.current.onDone?.(snapshot),
        onError: (error, snapshot) => callbacksRef.current.onError?.(error, snapshot),
      }),
    [stream],
  );

  const start = useCallback((request: RunStartRequest) => stream.start(request), [stream]);
  const abort = useCallback(() => stream.abort(), [stream]);
  const reset = useCallback(() => stream.reset(), [stream]);

  const withSelect = select !== undefined;
  // A new result object only when the snapshot (or slice) changes, not on every render.
  return useMemo(
    () =>
      withSelect
        ? { selected, start, abort, reset, stream }
        : { ...(selected as RunSnapshot), start, abort, reset, stream },
    [withSelect, selected, start, abort, reset, stream],
  );
}

/** Bundlers replace `process.env.NODE_ENV`; where nothing does and `process` is absent, warn. */
export function isDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    return true;
  }
}

export function warnIgnoredOptions(options: Record<string, unknown>, warned: Set<string>) {
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || warned.has(name)) continue;
    warned.add(name);
    console.warn(
      `agent-console-kit: useAgentRunStream ignores \`${name}\` when a shared \`stream\` is passed: the stream keeps the options it was created with. Pass \`${name}\` to createRunStream (or call stream.setOptions) instead.`,
    );
  }
}
