import type { ComponentType, ReactNode } from 'react';
import type { AgentTool } from '../core/wire/schemas.js';
import type { ToolAuthorizationOpening } from '../core/wire/tool-authorization.js';
import { useAgentClient } from '../react/agent-client-provider.js';
import { useQuery } from '@tanstack/react-query';
import { agentSchemasQueryOptions } from '../core/wire/agent-queries.js';
import type { AgentToolsProps } from './agent-tools.js';
import { lazyTools } from './console-lazy-parts.js';
import { useHydrated } from './use-hydrated.js';

/** What the console tells its tools part. */
export interface ConsoleToolsSlot {
  agentId: string | undefined;
  /** `components.Tools`: undefined for the default part, null when hidden. */
  Tools: ComponentType<AgentToolsProps> | null | undefined;
  /** Whether the console's input was asked for (the agent loaded, its schemas settled). */
  inputAsked: boolean;
  toolServerId: ((tool: AgentTool) => string | undefined) | undefined;
  toolAuthorization: ToolAuthorizationOpening;
  authorizationReturnUrl: string | undefined;
  headingLevel: 3 | 4 | 5 | 6;
}

/**
 * The console's tools part: the query up front (TanStack Query is on the page already), after the
 * console's input and not at all when the part is hidden; the part, its grouping and its
 * authorizations loaded on demand (`lazyTools`). Browser only: a server has not fetched the tools,
 * and does not wait for the part's module.
 */
export function useConsoleToolsSlot({ Tools, ...slot }: ConsoleToolsSlot): ReactNode {
  const client = useAgentClient();
  const base = agentSchemasQueryOptions(client, slot.agentId, { includeTools: true });
  const query = useQuery({ ...base, enabled: base.enabled && Tools !== null && slot.inputAsked });
  const hydrated = useHydrated();
  if (Tools === null || !hydrated) return undefined;
  return (
    <lazyTools.Part
      client={client}
      Tools={Tools}
      query={query}
      toolServerId={slot.toolServerId}
      toolAuthorization={slot.toolAuthorization}
      authorizationReturnUrl={slot.authorizationReturnUrl}
      headingLevel={slot.headingLevel}
    />
  );
}
