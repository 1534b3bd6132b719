import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { agentSearchQueryOptions, type AgentSearchQueryKey } from '../core/wire/agent-queries.js';
import type { AgentError } from '../core/wire/errors.js';
import type { Agent } from '../core/wire/schemas.js';
import { useAgentClient } from './agent-client-provider.js';

/** Options of {@link useAgentSearch}. */
export interface UseAgentSearchOptions {
  /**
   * How long the name must stay unchanged before a search is sent (ms).
   * @default 250
   */
  debounceMs?: number;
  /**
   * Search at all (e.g. only while a picker is open).
   * @default true
   */
  enabled?: boolean;
}

/**
 * Searches agents by name through TanStack Query: debounced (one request once typing pauses), one
 * cache entry per name (keys in `agentKeys.search`), the previous list kept while the next loads.
 * The result carries `searchedName`, the name the shown list is for.
 *
 * @example
 * const [name, setName] = useState('');
 * const { data: agents = [], isFetching, error } = useAgentSearch(name);
 */
export function useAgentSearch(
  name: string,
  options: UseAgentSearchOptions = {},
): UseQueryResult<Agent[], AgentError> & { searchedName: string } {
  const { debounceMs = 250, enabled = true } = options;
  const client = useAgentClient();
  const searchedName = useDebounced(name.trim(), debounceMs);
  const result = useQuery<Agent[], AgentError, Agent[], AgentSearchQueryKey>({
    ...agentSearchQueryOptions(client, searchedName),
    enabled,
    placeholderData: keepPreviousData,
  });
  return Object.assign(result, { searchedName });
}

function useDebounced<Value>(value: Value, delayMs: number): Value {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    if (delayMs <= 0) return;
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return delayMs <= 0 ? value : debounced;
}
