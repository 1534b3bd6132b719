import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AgentClientProvider, createAgentClient } from 'agent-console-kit';
import { AgentConsole } from 'agent-console-kit/console';
import 'agent-console-kit/styles.css';

// The browser talks to the proxy on this origin (server.mjs); the token stays on the server.
const agentClient = createAgentClient({ baseUrl: '/api/agent-service' });
const queryClient = new QueryClient();
const agentId = new URLSearchParams(window.location.search).get('agent') ?? 'chat-agent';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AgentClientProvider client={agentClient}>
        <main>
          <AgentConsole agentId={agentId} />
        </main>
      </AgentClientProvider>
    </QueryClientProvider>
  </StrictMode>,
);
