import {
  useQuery,
  useSuspenseQuery,
  type UseQueryOptions,
  type UseQueryResult,
  type UseSuspenseQueryOptions,
  type UseSuspenseQueryResult,
} from '@tanstack/react-query';
import type { AgentError } from '../core/wire/errors.js';
import type { Agent, AgentSchemas } from '../core/wire/schemas.js';
import { useAgentClient } from './agent-client-provider.js';
import {
  agentQueryOptions,
  agentSchemasQueryOptions,
  type AgentQueryKey,
  type AgentSchemasQueryKey,
} from '../core/wire/agent-queries.js';

/**
 * Query options a caller may set on {@link useAgent} / {@link useAgentSchemas}. `select` changes
 * the type of `data` (`Selected`).
 */
export type AgentQueryOverrides<Data, Key extends readonly unknown[], Selected = Data> = Omit<
  UseQueryOptions<Data, AgentError, Selected, Key>,
  'queryKey' | 'queryFn'
>;

/** Query options a caller may set on {@link useSuspenseAgent} / {@link useSuspenseAgentSchemas}. */
export type AgentSuspenseQueryOverrides<
  Data,
  Key extends readonly unknown[],
  Selected = Data,
> = Omit<UseSuspenseQueryOptions<Data, AgentError, Selected, Key>, 'queryKey' | 'queryFn'>;

/**
 * Retrieves an agent record through TanStack Query, with the client of the nearest
 * `AgentClientProvider`. Disabled while `agentId` is undefined or blank; 4xx are never retried.
 * With `select`, `data` is what it returns.
 *
 * @example
 * const { data: agent, error, isPending } = useAgent('my-agent');
 * const { data: name } = useAgent('my-agent', { select: (agent) => agent.name }); // string
 */
export function useAgent<Selected = Agent>(
  agentId: string | undefined,
  options?: AgentQueryOverrides<Agent, AgentQueryKey, Selected>,
): UseQueryResult<Selected, AgentError> {
  const client = useAgentClient();
  const base = agentQueryOptions(client, agentId);
  return useQuery<Agent, AgentError, Selected, AgentQueryKey>({
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
export function useAgentSchemas<Selected = AgentSchemas>(
  agentId: string | undefined,
  options?: AgentQueryOverrides<AgentSchemas, AgentSchemasQueryKey, Selected>,
): UseQueryResult<Selected, AgentError> {
  const client = useAgentClient();
  const base = agentSchemasQueryOptions(client, agentId);
  return useQuery<AgentSchemas, AgentError, Selected, AgentSchemasQueryKey>({
    ...base,
    ...options,
    enabled: base.enabled && (options?.enabled ?? true),
  });
}

/**
 * {@link useAgent} for `<Suspense>`: suspends until the agent is there, so `data` is always
 * defined; an error (a blank id included) goes to the nearest error boundary.
 *
 * @example
 * function AgentName({ agentId }: { agentId: string }) {
 *   const { data: agent } = useSuspenseAgent(agentId);
 *   return <h2>{agent.name}</h2>;
 * }
 */
export function useSuspenseAgent<Selected = Agent>(
  agentId: string,
  options?: AgentSuspenseQueryOverrides<Agent, AgentQueryKey, Selected>,
): UseSuspenseQueryResult<Selected, AgentError> {
  // useSuspenseQuery always runs (it sets `enabled` itself): a blank id throws AgentInputError.
  const base = agentQueryOptions(useAgentClient(), agentId);
  return useSuspenseQuery<Agent, AgentError, Selected, AgentQueryKey>({ ...base, ...options });
}

/**
 * {@link useAgentSchemas} for `<Suspense>`: `data` is always defined.
 *
 * @example
 * const { data: schemas } = useSuspenseAgentSchemas('my-agent');
 */
export function useSuspenseAgentSchemas<Selected = AgentSchemas>(
  agentId: string,
  options?: AgentSuspenseQueryOverrides<AgentSchemas, AgentSchemasQueryKey, Selected>,
): UseSuspenseQueryResult<Selected, AgentError> {
  const base = agentSchemasQueryOptions(useAgentClient(), agentId);
  return useSuspenseQuery<AgentSchemas, AgentError, Selected, AgentSchemasQueryKey>({
    ...base,
    ...options,
  });
}
