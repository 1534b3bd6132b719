import type { DataTag, QueryFunction } from '@tanstack/query-core';
import type { AgentClient } from './agent-client.js';
import { AgentError, AgentHttpError } from './errors.js';
import type { Agent, AgentSchemas } from './schemas.js';

/**
 * Query keys of this library. Every key holds the client's API generation and its `cacheKey`
 * (default: its base URL), so two clients share a cache entry only when they name the same
 * service: a server client and a browser client given the same `cacheKey`.
 */
export const agentKeys = {
  all: ['agent-console-kit'] as const,
  client: (client: AgentClient) =>
    [...agentKeys.all, client.api, client.cacheKey ?? client.baseUrl] as const,
  agent: (client: AgentClient, agentId: string | undefined) =>
    [...agentKeys.client(client), 'agent', agentId ?? ''] as const,
  schemas: (client: AgentClient, agentId: string | undefined) =>
    [...agentKeys.client(client), 'schemas', agentId ?? ''] as const,
  /**
   * The schemas with the agent's tools (`include_tools=true`): another entry than the schemas
   * without them, under the same prefix (invalidating `schemas` invalidates both).
   */
  schemasWithTools: (client: AgentClient, agentId: string | undefined) =>
    [...agentKeys.schemas(client, agentId), 'tools'] as const,
  search: (client: AgentClient, name: string) =>
    [...agentKeys.client(client), 'search', name] as const,
};

/** The query key of an agent record. */
export type AgentQueryKey = ReturnType<typeof agentKeys.agent>;
/** The query key of an agent's schemas, without or with its tools (`includeTools`). */
export type AgentSchemasQueryKey =
  ReturnType<typeof agentKeys.schemas> | ReturnType<typeof agentKeys.schemasWithTools>;

/** Options of {@link agentSchemasQueryOptions}. */
export interface AgentSchemasQueryConfig {
  /**
   * Ask for the agent's tools too (`include_tools=true`): `data.tools` is then the list of its
   * tools, in a cache entry of its own (`agentKeys.schemasWithTools`).
   * @default false
   */
  includeTools?: boolean | undefined;
}

/**
 * What {@link agentQueryOptions} and {@link agentSchemasQueryOptions} return: a plain object (no
 * TanStack Query code runs to make it, so a server imports it from `agent-console-kit/core`).
 * Every key is present, none optional, so it fits `useQuery`, `useSuspenseQuery`, `prefetchQuery`
 * and `ensureQueryData` under `exactOptionalPropertyTypes` too. The key carries the data and error
 * types, so `queryClient.getQueryData(options.queryKey)` is typed.
 */
export interface AgentQueryOptions<Data, Key extends readonly unknown[]> {
  queryKey: DataTag<Key, Data, AgentError>;
  queryFn: QueryFunction<Data, Key>;
  /** False while the agent id is undefined or blank. */
  enabled: boolean;
  retry: (failureCount: number, error: AgentError) => boolean;
  retryDelay: (failureCount: number, error: AgentError) => number;
}

const maxRetries = 3;

/**
 * The retry policy of the retrieval queries: network failures and 5xx are retried up to 3 times;
 * a 4xx, a validation error or a refused input never is.
 */
export function agentQueryRetry(failureCount: number, error: unknown): boolean {
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

/** Whether to fetch at all; the client checks the id itself (and refuses a blank one) if asked. */
function isUsableId(agentId: string | undefined): agentId is string {
  return typeof agentId === 'string' && agentId.trim() !== '';
}

/**
 * Query options that retrieve an agent record: for `useQuery`, `useSuspenseQuery`,
 * `prefetchQuery` or `ensureQueryData`. Disabled while `agentId` is undefined or blank.
 *
 * @example
 * await queryClient.prefetchQuery(agentQueryOptions(client, 'my-agent'));
 */
export function agentQueryOptions(
  client: AgentClient,
  agentId: string | undefined,
): AgentQueryOptions<Agent, AgentQueryKey> {
  return {
    queryKey: agentKeys.agent(client, agentId) as DataTag<AgentQueryKey, Agent, AgentError>,
    queryFn: ({ signal }) => client.getAgent(agentId ?? '', { signal }),
    enabled: isUsableId(agentId),
    retry: agentQueryRetry,
    retryDelay: agentQueryRetryDelay,
  };
}

/**
 * Query options that retrieve an agent's input and output schemas and, with `includeTools`, its
 * tools. Disabled while `agentId` is undefined or blank.
 *
 * @example
 * const { data } = useQuery(agentSchemasQueryOptions(client, 'my-agent'));
 * const { data: withTools } = useQuery(
 *   agentSchemasQueryOptions(client, 'my-agent', { includeTools: true }),
 * );
 */
export function agentSchemasQueryOptions(
  client: AgentClient,
  agentId: string | undefined,
  config: AgentSchemasQueryConfig = {},
): AgentQueryOptions<AgentSchemas, AgentSchemasQueryKey> {
  const includeTools = config.includeTools === true;
  const key = includeTools
    ? agentKeys.schemasWithTools(client, agentId)
    : agentKeys.schemas(client, agentId);
  return {
    queryKey: key as DataTag<AgentSchemasQueryKey, AgentSchemas, AgentError>,
    queryFn: ({ signal }) =>
      client.getAgentSchemas(agentId ?? '', includeTools ? { signal, includeTools } : { signal }),
    enabled: isUsableId(agentId),
    retry: agentQueryRetry,
    retryDelay: agentQueryRetryDelay,
  };
}

/** The query key of an agent search. */
export type AgentSearchQueryKey = ReturnType<typeof agentKeys.search>;

/** What {@link agentSearchQueryOptions} returns: a plain object, like {@link AgentQueryOptions}. */
export interface AgentSearchQueryOptions {
  queryKey: DataTag<AgentSearchQueryKey, Agent[], AgentError>;
  queryFn: QueryFunction<Agent[], AgentSearchQueryKey>;
  /** Never: a person is waiting on the list; typing or reopening searches again. */
  retry: false;
  /** 30 s: reopening a picker shows the list at once. */
  staleTime: number;
}

/**
 * Query options that search agents by name (trimmed; empty lists every agent). Not retried: the
 * person sees the failure at once, and typing or reopening searches again.
 *
 * @example
 * const agents = await queryClient.fetchQuery(agentSearchQueryOptions(client, 'jira'));
 */
export function agentSearchQueryOptions(
  client: AgentClient,
  name: string,
): AgentSearchQueryOptions {
  const trimmed = name.trim();
  return {
    queryKey: agentKeys.search(client, trimmed) as DataTag<
      AgentSearchQueryKey,
      Agent[],
      AgentError
    >,
    queryFn: ({ signal }) => client.searchAgents(trimmed, { signal }),
    retry: false,
    staleTime: 30_000,
  };
}
