import type { AgentError } from '../core/wire/errors.js';
import type { AgentSchemas } from '../core/wire/schemas.js';

/** Where the retrieval of the tools stands. */
export type AgentToolsStatus = 'idle' | 'loading' | 'error' | 'ready';

/** What {@link agentToolsStatusOf} reads of the schemas query with tools. */
export interface AgentToolsQueryState {
  data: AgentSchemas | undefined;
  error: AgentError | null;
  isPending: boolean;
  fetchStatus: 'fetching' | 'paused' | 'idle';
}

/** `'idle'` before the query runs (no agent id, disabled), then `'loading'`, `'error'`, `'ready'`. */
export function agentToolsStatusOf(query: AgentToolsQueryState): AgentToolsStatus {
  if (query.error) return 'error';
  if (query.data) return 'ready';
  return query.isPending && query.fetchStatus !== 'idle' ? 'loading' : 'idle';
}
