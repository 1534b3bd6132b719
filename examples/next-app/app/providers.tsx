'use client';
import { QueryClient, QueryClientProvider, isServer } from '@tanstack/react-query';
import { AgentClientProvider, createAgentClient } from 'agent-console-kit';
import type { ReactNode } from 'react';

// The browser's client: the proxy on this origin (app/api/agent-service), no token.
const agentClient = createAgentClient({ baseUrl: '/api/agent-service', cacheKey: 'agent-service' });

function makeQueryClient() {
  // A staleTime above 0: data prefetched on the server is not fetched again in the browser.
  return new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
}

let browserQueryClient: QueryClient | undefined;

function getQueryClient() {
  // On the server a new client per request; in the browser one for the session.
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <AgentClientProvider client={agentClient}>{children}</AgentClientProvider>
    </QueryClientProvider>
  );
}
