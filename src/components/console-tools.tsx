import type { ComponentType } from 'react';
import type { AgentTool } from '../core/schemas.js';
import type { ToolAuthorizationOpening } from '../core/tool-authorization.js';
import { useAgentTools } from '../react/use-agent-tools.js';
import { AgentTools, type AgentToolsProps } from './agent-tools.js';

/** Props of {@link ConsoleTools}. */
export interface ConsoleToolsProps {
  agentId: string | undefined;
  /** The app's replacement of the tools part (`components.Tools`), else `AgentTools`. */
  Tools: ComponentType<AgentToolsProps> | undefined;
  /** Whether to ask for the tools yet (the console's input asked for first). */
  enabled: boolean;
  toolServerId: ((tool: AgentTool) => string | undefined) | undefined;
  toolAuthorization: ToolAuthorizationOpening;
  authorizationReturnUrl: string | undefined;
  headingLevel: 3 | 4 | 5 | 6;
}

/**
 * The console's tools part, loaded on demand with everything it needs (the query, the grouping,
 * the authorizations ahead of a run, the part itself), so a console page pays for none of it up
 * front: the agent's tools (`include_tools=true`, a query of its own, so a deployment that fails
 * it still shows the form), each tool that may ask for the person's authorization with the
 * Authorize flow of a 422 ahead of the first question where `toolServerId` names its tool server.
 */
export function ConsoleTools({ Tools = AgentTools, ...setup }: ConsoleToolsProps) {
  const tools = useAgentTools(setup.agentId, {
    enabled: setup.enabled,
    toolServerId: setup.toolServerId,
    toolAuthorization: setup.toolAuthorization,
    authorizationReturnUrl: setup.authorizationReturnUrl,
  });
  return (
    <Tools
      groups={tools}
      status={tools.status}
      onRetry={() => void tools.query.refetch()}
      onAuthorize={(tool) => void tools.authorize(tool)}
      authorizations={tools.authorizations}
      headingLevel={setup.headingLevel}
      className="ack-console__tools"
    />
  );
}
