import type { ComponentType, ReactNode } from 'react';
import type { AgentTool } from '../core/schemas.js';
import type { ToolAuthorizationOpening } from '../core/tool-authorization.js';
import { useAgentTools } from '../react/use-agent-tools.js';
import type { AgentToolsProps } from './agent-tools.js';
import { useHydrated } from './use-hydrated.js';

/** What the console's tools part needs to know. */
export interface ConsoleToolsSetup {
  agentId: string | undefined;
  /** The tools part, or null when the app hid it (then nothing is fetched). */
  Tools: ComponentType<AgentToolsProps> | null;
  /**
   * Whether the agent has loaded and its schemas query has settled: the tools are asked for from
   * then on, after what the console needs to show its input.
   */
  ready: boolean;
  toolServerId: ((tool: AgentTool) => string | undefined) | undefined;
  toolAuthorization: ToolAuthorizationOpening;
  authorizationReturnUrl: string | undefined;
  headingLevel: 2 | 3 | 4 | 5;
}

/**
 * The console's tools part: the agent's tools (`include_tools=true`, a query of its own: a
 * deployment that fails it still shows the form) once the agent and its schemas have loaded, each tool that may ask for the person's authorization with the Authorize flow
 * of a 422 ahead of the first question where `toolServerId` names its tool server; undefined when
 * the part is hidden, and on a server and while the browser hydrates.
 */
export function useConsoleTools(setup: ConsoleToolsSetup): ReactNode {
  const { Tools } = setup;
  const tools = useAgentTools(setup.agentId, {
    enabled: Tools !== null && setup.ready,
    toolServerId: setup.toolServerId,
    toolAuthorization: setup.toolAuthorization,
    authorizationReturnUrl: setup.authorizationReturnUrl,
  });
  // Browser only: a server has not fetched the tools, and does not wait for the part's module.
  const hydrated = useHydrated();
  if (Tools === null || !hydrated) return undefined;
  return (
    <Tools
      groups={tools}
      status={tools.status}
      onRetry={() => void tools.query.refetch()}
      onAuthorize={(tool) => void tools.authorize(tool)}
      authorizations={tools.authorizations}
      headingLevel={(setup.headingLevel + 1) as 3 | 4 | 5 | 6}
      className="ack-console__tools"
    />
  );
}
