import { useMemo } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { agentSchemasQueryOptions } from '../core/wire/agent-queries.js';
import {
  groupAgentTools,
  type AgentToolGroups,
  type AgentToolSummary,
  type GroupAgentToolsOptions,
} from '../core/wire/agent-tools.js';
import type { AgentError } from '../core/wire/errors.js';
import type { AgentSchemas } from '../core/wire/schemas.js';
import type {
  ToolAuthorizationOpening,
  ToolAuthorizationState,
} from '../core/wire/tool-authorization.js';
import { useAgentClient } from './agent-client-provider.js';
import { useAgentToolAuthorizations } from './use-agent-tool-authorizations.js';
import { agentToolsStatusOf, type AgentToolsStatus } from './agent-tools-status.js';

export type { AgentToolsStatus } from './agent-tools-status.js';

/** Options of {@link useAgentTools}. */
export interface UseAgentToolsOptions extends GroupAgentToolsOptions {
  /**
   * Whether to retrieve the tools at all (the query runs only with an agent id too).
   * @default true
   */
  enabled?: boolean | undefined;
  /**
   * How the sign-in page of a tool to authorize ahead of a run is opened: `'window'` a new tab or
   * window (`noopener`), `'redirect'` this page goes there, or a function of the app's own given
   * the authorization URL (always http(s)) and the tool.
   * @default 'window'
   */
  toolAuthorization?: ToolAuthorizationOpening | undefined;
  /**
   * Where the service sends the browser back after the person allowed a tool; it must be on the
   * tenant's allowlist.
   * @default window.location.href (when the person clicks)
   */
  authorizationReturnUrl?: string | undefined;
}

/** What {@link useAgentTools} returns: the tools grouped, the query, and the authorizations. */
export interface UseAgentToolsResult extends AgentToolGroups {
  /**
   * `'idle'` without an agent id (or `enabled: false`), `'loading'`, `'error'` (see `error`),
   * `'ready'`.
   */
  status: AgentToolsStatus;
  /** Why the tools could not be retrieved. */
  error: AgentError | null;
  /** The schemas query with `includeTools` (its `refetch` retries). */
  query: UseQueryResult<AgentSchemas, AgentError>;
  /**
   * Where each tool server's authorization ahead of a run stands, by server id: `'opened'` says
   * the sign-in page was opened, never that the person finished there.
   */
  authorizations: Readonly<Record<string, ToolAuthorizationState>>;
  /**
   * Opens the sign-in page of a tool's server (a tool without `serverId` does nothing); the same
   * flow a run's 422 offers. Never rejects. Stable identity.
   */
  authorize: (tool: AgentToolSummary) => Promise<void>;
}

/**
 * An agent's tools, grouped for a person: what it reads, what it can change (`REDIRECT` write
 * actions open the service's page, `EXECUTION` ones act), what is not set up yet, what may ask for
 * their authorization (`OAUTH_USER`); and the authorization of a tool ahead of a run, for the
 * tools `toolServerId` maps to a tool server. Retrieves the schemas with `include_tools=true`
 * through TanStack Query (its own cache entry). Headless: render it with `AgentTools`.
 *
 * @example
 * const tools = useAgentTools('my-agent', {
 *   toolServerId: (tool) => myToolServers[tool.tool_id],
 * });
 * <AgentTools
 *   groups={tools}
 *   status={tools.status}
 *   error={tools.error}
 *   onRetry={() => void tools.query.refetch()}
 *   onAuthorize={tools.authorize}
 *   authorizations={tools.authorizations}
 * />
 */
export function useAgentTools(
  agentId: string | undefined,
  options: UseAgentToolsOptions = {},
): UseAgentToolsResult {
  const { query, status } = useAgentToolsQuery(agentId, options.enabled !== false);
  const { toolServerId } = options;
  const { authorizations, authorize } = useAgentToolAuthorizations(useAgentClient(), options);
  const tools = query.data?.tools;
  const groups = useMemo(() => groupAgentTools(tools, { toolServerId }), [tools, toolServerId]);
  return { ...groups, status, error: query.error, query, authorizations, authorize };
}

/**
 * The schemas query with the agent's tools (`include_tools=true`) and where it stands: what
 * {@link useAgentTools} groups (the console asks with it up front, its lazy part groups).
 */
export function useAgentToolsQuery(
  agentId: string | undefined,
  enabled: boolean,
): { query: UseQueryResult<AgentSchemas, AgentError>; status: AgentToolsStatus } {
  const client = useAgentClient();
  const base = agentSchemasQueryOptions(client, agentId, { includeTools: true });
  const query = useQuery<AgentSchemas, AgentError, AgentSchemas, typeof base.queryKey>({
    ...base,
    enabled: base.enabled && enabled,
  });
  const status = agentToolsStatusOf(query);
  return { query, status };
}
