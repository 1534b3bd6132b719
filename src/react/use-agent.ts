import {
  useQuery,
  useSuspenseQuery,
  type UseQueryOptions,
  type UseQueryResult,
  type UseSuspenseQueryOptions,
  type UseSuspenseQueryResult,
} from '@tanstack/react-query';
import type { AgentClient } from '../core/wire/agent-client.js';
import type { AgentError } from '../core/wire/errors.js';
import type { Agent, AgentSchemas } from '../core/wire/schemas.js';
import { useAgentClient } from './agent-client-provider.js';
import {
  agentQueryOptions,
  agentSchemasQueryOptions,
  type AgentQueryKey,
  type AgentQueryOptions,
  type AgentSchemasQueryKey,
} from '../core/wire/agent-queries.js';

/** The query options of one record of an agent: `agentQueryOptions` or `agentSchemasQueryOptions`. */
type RecordQueryOptionsOf<Data, Key extends readonly unknown[]> = (
  client: AgentClient,
  agentId: string | undefined,
) => AgentQueryOptions<Data, Key>;

/** The one body of {@link useAgent} and {@link useAgentSchemas}. */
function useAgentRecord<Data, Key extends readonly unknown[], Selected>(
  optionsOf: RecordQueryOptionsOf<Data, Key>,
  agentId: string | undefined,
  options: AgentQueryOverrides<Data, Key, Selected> | undefined,
): UseQueryResult<Selected, AgentError> {
  const base = optionsOf(useAgentClient(), agentId);
  return useQuery<Data, AgentError, Selected, Key>({
    ...base,
    ...options,
    enabled: base.enabled && (options?.enabled ?? true),
  });
}

/** The one body of {@link useSuspenseAgent} and {@link useSuspenseAgentSchemas}. */
function useSuspenseAgentRecord<Data, Key extends readonly unknown[], Selected>(
  optionsOf: RecordQueryOptionsOf<Data, Key>,
  agentId: string,
  options: AgentSuspenseQueryOverrides<Data, Key, Selected> | undefined,
): UseSuspenseQueryResult<Selected, AgentError> {
  // useSuspenseQuery always runs (it sets `enabled` itself): a blank id throws AgentInputError.
  const base = optionsOf(useAgentClient(), agentId);
  return useSuspenseQuery<Data, AgentError, Selected, Key>({ ...base, ...options });
}

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
  return useAgentRecord(agentQueryOptions, agentId, options);
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
  return useAgentRecord(agentSchemasQueryOptions, agentId, options);
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
  return useSuspenseAgentRecord(agentQueryOptions, agentId, options);
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
  return useSuspenseAgentRecord(agentSchemasQueryOptions, agentId, options);
}
