/**
 * The console (or a part that reads the client, such as the picker) under the providers it needs in
 * a test: what the console and component tests share.
 * Each call makes a new query client, so no test (and no second render, which is a reload) reads
 * another's cached agent.
 */
import { StrictMode, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AgentClientProvider, type AgentClient } from 'agent-console-kit';
import { AgentConsole, type AgentConsoleProps } from 'agent-console-kit/console';

/** `node` under StrictMode, a new query client (no retries) and `client`'s provider. */
export function withConsoleProviders(client: AgentClient, node: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>{node}</AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}

/** Renders `<AgentConsole {...props} />` with {@link withConsoleProviders}. */
export function renderAgentConsole(client: AgentClient, props: AgentConsoleProps) {
  return render(withConsoleProviders(client, <AgentConsole {...props} />));
}
