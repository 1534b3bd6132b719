import { useRef } from 'react';
import {
  RunHistory,
  type RunHistoryEntry,
  type RunHistoryOptions,
} from '../core/stream/run-history.js';
import type { RunStream } from '../core/stream/run-stream.js';
import { useStore } from './use-store.js';

/**
 * The finished runs of a stream, newest first (at most `limit`, default 20), re-rendered when a
 * run ends. The history is created once per stream; `limit` and `initialEntries` are read then. It
 * records while the component is mounted (the history's lifecycle follows its subscribers).
 *
 * @example
 * const run = useAgentRunStream();
 * const history = useAgentRunHistory(run.stream, { limit: 10 });
 * <AgentRunHistory entries={history} onRunAgain={(entry) => fillForm(entry.input)} />
 */
export function useAgentRunHistory(
  stream: RunStream,
  options: RunHistoryOptions = {},
): readonly RunHistoryEntry[] {
  const historyRef = useRef<{ stream: RunStream; history: RunHistory } | undefined>(undefined);
  if (historyRef.current?.stream !== stream) {
    historyRef.current = { stream, history: new RunHistory(stream, options) };
  }
  const history = historyRef.current.history;
  return useStore(history);
}
