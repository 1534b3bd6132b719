import { useQuery, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import type { AgentError } from '../core/errors.js';
import type { Agent, AgentSchemas } from '../core/schemas.js';
import { useAgentClient } from './agent-client-provider.js';
import {
  agentQueryOptions,
  agentSchemasQueryOptions,
  type AgentQueryKey,
  type AgentSchemasQueryKey,
} from '../core/agent-queries.js';

/** Query options a caller may set on {@link useAgent} / {@link useAgentSchemas}. */
export type AgentQueryOverrides<Data, Key extends readonly unknown[]> = Omit<
  UseQueryOptions<Data, AgentError, Data, Key>,
  'queryKey' | 'queryFn'
>;

/**
 * Retrieves an agent record through TanStack Query, with the client of the nearest
 * `AgentClientProvider`. Disabled while `agentId` is undefined or blank; 4xx are never retried.
 *
 * @example
 * const { data: agent, error, isPending } = useAgent('my-agent');
 */
export function useAgent(
  agentId: string | undefined,
  options?: AgentQueryOverrides<Agent, AgentQueryKey>,
): UseQueryResult<Agent, AgentError> {
  const client = useAgentClient();
  const base = agentQueryOptions(client, agentId);
  return useQuery({
    ...base,
    ...options,
    enabled: base.enabled && (options?.enabled ?? true),
  });
}

/**
 * Retrieves an agent's input and output schemas (`input_schema` describes a form-started agent).
 *
 * @example
 * const { data: schemas } = useAgentSchemas('my-agent');
 */
export function useAgentSchemas(
  agentId: string | undefined,
  options?: AgentQueryOverrides<AgentSchemas, AgentSchemasQueryKey>,
): UseQueryResult<AgentSchemas, AgentError> {
  const client = useAgentClient();
  const base = agentSchemasQueryOptions(client, agentId);
  return useQuery({
    ...base,
    ...options,
    enabled: base.enabled && (options?.enabled ?? true),
  });
}
