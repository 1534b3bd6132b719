import { createContext, useContext, type ReactNode } from 'react';
import type { AgentClient } from '../core/wire/agent-client.js';

const AgentClientContext = createContext<AgentClient | undefined>(undefined);

/** Props of {@link AgentClientProvider}. */
export interface AgentClientProviderProps {
  /** The client every hook and component below uses (see `createAgentClient`). */
  client: AgentClient;
  children?: ReactNode;
}

/**
 * Provides an {@link AgentClient} to the hooks and components below it. Place it beside (inside)
 * the app's `QueryClientProvider`.
 *
 * @example
 * <QueryClientProvider client={queryClient}>
 *   <AgentClientProvider client={agentClient}>
 *     <AgentConsole agentId="my-agent" />
 *   </AgentClientProvider>
 * </QueryClientProvider>
 */
export function AgentClientProvider({ client, children }: AgentClientProviderProps) {
  return <AgentClientContext.Provider value={client}>{children}</AgentClientContext.Provider>;
}

/** The {@link AgentClient} of the nearest {@link AgentClientProvider}, or undefined without one. */
export function useOptionalAgentClient(): AgentClient | undefined {
  return useContext(AgentClientContext);
}

/**
 * The {@link AgentClient} of the nearest {@link AgentClientProvider}.
 *
 * @example
 * const client = useAgentClient();
 */
export function useAgentClient(): AgentClient {
  const client = useContext(AgentClientContext);
  if (client === undefined) {
    throw new Error(
      'useAgentClient: no AgentClient was provided. Wrap this component in <AgentClientProvider client={createAgentClient(…)}>.',
    );
  }
  return client;
}
