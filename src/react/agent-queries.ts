import { queryOptions } from '@tanstack/react-query';
import type { AgentClient } from '../core/agent-client.js';
import { AgentError, AgentHttpError, AgentInputError } from '../core/errors.js';
import type { Agent, AgentSchemas } from '../core/schemas.js';

/**
 * Query keys of this library. Every key holds the client's API generation and base URL, so two
 * clients never share a cache entry.
 */
export const agentKeys = {
  all: ['agent-console-kit'] as const,
  client: (client: AgentClient) => [...agentKeys.all, client.api, client.baseUrl] as const,
  agent: (client: AgentClient, agentId: string | undefined) =>
    [...agentKeys.client(client), 'agent', agentId ?? ''] as const,
  schemas: (client: AgentClient, agentId: string | undefined) =>
    [...agentKeys.client(client), 'schemas', agentId ?? ''] as const,
  search: (client: AgentClient, name: string) =>
    [...agentKeys.client(client), 'search', name] as const,
};

/** The query key of an agent record. */
export type AgentQueryKey = ReturnType<typeof agentKeys.agent>;
/** The query key of an agent's schemas. */
export type AgentSchemasQueryKey = ReturnType<typeof agentKeys.schemas>;

const maxRetries = 3;

/**
 * The retry policy of the retrieval queries: network failures and 5xx are retried up to 3 times;
 * a 4xx, a validation error or a refused input never is.
 */
export function shouldRetryAgentQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= maxRetries) return false;
  if (error instanceof AgentHttpError) return error.status >= 500;
  return error instanceof AgentError ? error.kind === 'network' : false;
}

/** Exponential backoff (1 s, 2 s, 4 s … at most 15 s), or the server's `Retry-After`. */
export function agentQueryRetryDelay(failureCount: number, error: unknown): number {
  if (error instanceof AgentHttpError && error.retryAfterMs !== undefined) {
    return Math.min(error.retryAfterMs, 60_000);
  }
  return Math.min(1000 * 2 ** failureCount, 15_000);
}

function isUsableId(agentId: string | undefined): agentId is string {
  return typeof agentId === 'string' && agentId.trim() !== '';
}

function requireId(agentId: string | undefined): string {
  if (!isUsableId(agentId)) throw new AgentInputError('The agent id is empty: nothing was sent.');
  return agentId;
}

/**
 * Query options that retrieve an agent record: for `useQuery`, `useSuspenseQuery`,
 * `prefetchQuery` or `ensureQueryData`. Disabled while `agentId` is undefined or blank.
 *
 * @example
 * await queryClient.prefetchQuery(agentQueryOptions(client, 'my-agent'));
 */
export function agentQueryOptions(client: AgentClient, agentId: string | undefined) {
  return queryOptions<Agent, AgentError, Agent, AgentQueryKey>({
    queryKey: agentKeys.agent(client, agentId),
    queryFn: ({ signal }) => client.getAgent(requireId(agentId), { signal }),
    enabled: isUsableId(agentId),
    retry: shouldRetryAgentQuery,
    retryDelay: agentQueryRetryDelay,
  });
}

/**
 * Query options that retrieve an agent's input and output schemas. Disabled while `agentId` is
 * undefined or blank.
 *
 * @example
 * const { data } = useQuery(agentSchemasQueryOptions(client, 'my-agent'));
 */
export function agentSchemasQueryOptions(client: AgentClient, agentId: string | undefined) {
  return queryOptions<AgentSchemas, AgentError, AgentSchemas, AgentSchemasQueryKey>({
    queryKey: agentKeys.schemas(client, agentId),
    queryFn: ({ signal }) => client.getAgentSchemas(requireId(agentId), { signal }),
    enabled: isUsableId(agentId),
    retry: shouldRetryAgentQuery,
    retryDelay: agentQueryRetryDelay,
  });
}
