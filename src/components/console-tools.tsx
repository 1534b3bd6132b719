import { useMemo, type ComponentType } from 'react';
import type { AgentClient } from '../core/wire/agent-client.js';
import { groupAgentTools } from '../core/wire/agent-tools.js';
import type { AgentTool } from '../core/wire/schemas.js';
import type { ToolAuthorizationOpening } from '../core/wire/tool-authorization.js';
import { useAgentToolAuthorizations } from '../react/use-agent-tool-authorizations.js';
import { agentToolsStatusOf, type AgentToolsQueryState } from '../react/agent-tools-status.js';
import { AgentTools, type AgentToolsProps } from './agent-tools.js';

/** Props of {@link ConsoleTools}. */
export interface ConsoleToolsProps {
  /** The console's client (this module is a lazy copy: it cannot read the provider's context). */
  client: AgentClient;
  /** The app's replacement of the tools part (`components.Tools`), else `AgentTools`. */
  Tools: ComponentType<AgentToolsProps> | undefined;
  /** The console's schemas query with `include_tools=true`. */
  query: AgentToolsQueryState & { refetch: () => unknown };
  toolServerId: ((tool: AgentTool) => string | undefined) | undefined;
  toolAuthorization: ToolAuthorizationOpening;
  authorizationReturnUrl: string | undefined;
  headingLevel: 3 | 4 | 5 | 6;
}

/**
 * The console's tools part, loaded on demand with the grouping, the authorizations ahead of a run
 * and the part itself (the query is the console's, up front: TanStack Query is there already), so
 * a console page pays for none of them up front. A tool that may ask for the person's
 * authorization offers the Authorize flow of a 422 ahead of the first question where
 * `toolServerId` names its tool server.
 */
export function ConsoleTools({
  Tools = AgentTools,
  client,
  query,
  toolServerId,
  ...setup
}: ConsoleToolsProps) {
  const tools = query.data?.tools;
  const groups = useMemo(() => groupAgentTools(tools, { toolServerId }), [tools, toolServerId]);
  const { authorizations, authorize } = useAgentToolAuthorizations(client, setup);
  return (
    <Tools
      groups={groups}
      status={agentToolsStatusOf(query)}
      onRetry={() => void query.refetch()}
      onAuthorize={(tool) => void authorize(tool)}
      authorizations={authorizations}
      headingLevel={setup.headingLevel}
      className="ack-console__tools"
    />
  );
}
