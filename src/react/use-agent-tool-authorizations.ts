import { useEffect, useState } from 'react';
import { AgentToolAuthorizations, type AgentToolSummary } from '../core/wire/agent-tools.js';
import type {
  ToolAuthorizationOpening,
  ToolAuthorizationState,
} from '../core/wire/tool-authorization.js';
import type { AgentClient } from '../core/wire/agent-client.js';
import { browserNavigation } from './browser-navigation.js';
import { useStore } from './use-store.js';

/** How the sign-in page of a tool opens, and where the service sends the person back. */
export interface ToolAuthorizationSetup {
  toolAuthorization?: ToolAuthorizationOpening | undefined;
  authorizationReturnUrl?: string | undefined;
}

/**
 * The authorizations of tools ahead of a run (an {@link AgentToolAuthorizations} with `client` and
 * the browser's navigation): where each server's stands, and `authorize` (stable identity). Given
 * the client, not reading the provider: the console's lazy tools part, which uses it, is a copy
 * of its modules (vite.config.ts), whose context would not be the provider's. No TanStack Query.
 */
export function useAgentToolAuthorizations(
  client: AgentClient,
  setup: ToolAuthorizationSetup,
): {
  authorizations: Readonly<Record<string, ToolAuthorizationState>>;
  authorize: (tool: AgentToolSummary) => Promise<void>;
} {
  const { toolAuthorization, authorizationReturnUrl } = setup;
  const [authorizer] = useState(
    () =>
      new AgentToolAuthorizations(client, {
        toolAuthorization,
        authorizationReturnUrl,
        navigation: browserNavigation,
      }),
  );
  useEffect(() => {
    authorizer.setOptions(client, {
      toolAuthorization,
      authorizationReturnUrl,
      navigation: browserNavigation,
    });
  });
  return { authorizations: useStore(authorizer), authorize: authorizer.authorize };
}
