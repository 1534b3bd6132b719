import { useMemo, useState, type ReactNode } from 'react';
import type { Decorator, Preview } from '@storybook/react-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AgentClientProvider, createAgentClient, type AgentApi } from 'agent-console-kit';
import { createMockAgentService, demoAgents } from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';

/**
 * With STORYBOOK_AGENT_BASE_URL set, the stories talk to that deployment instead of the embedded
 * mock agent service (the token then ends up in the browser: use a short-lived one).
 */
const realBaseUrl: string | undefined = import.meta.env.STORYBOOK_AGENT_BASE_URL || undefined;
const realToken: string | undefined = import.meta.env.STORYBOOK_AGENT_TOKEN || undefined;
const realApi = import.meta.env.STORYBOOK_AGENT_API as AgentApi | undefined;

/** The embedded mock agent service every story talks to (unless a real deployment is set). */
export const mockService = createMockAgentService({ agents: demoAgents });

function AgentProviders({ api, children }: { api: AgentApi; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient());
  const client = useMemo(
    () =>
      createAgentClient({
        baseUrl: realBaseUrl ?? window.location.origin,
        api,
        token: realToken ?? 'storybook-mock-token',
      }),
    [api],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <AgentClientProvider client={client}>{children}</AgentClientProvider>
    </QueryClientProvider>
  );
}

const withAgentProviders: Decorator = (Story, context) => (
  <AgentProviders
    api={(context.globals['agentApi'] as AgentApi | undefined) ?? realApi ?? 'rest-v1'}
  >
    <Story />
  </AgentProviders>
);

const preview: Preview = {
  loaders: [mswLoader()],
  tags: ['autodocs'],
  beforeEach({ msw }) {
    mockService.reset();
    if (realBaseUrl === undefined) msw.use(...mockAgentHandlers(mockService));
  },
  decorators: [withAgentProviders],
  globalTypes: {
    agentApi: {
      description: 'The API generation the stories use',
      toolbar: {
        title: 'API',
        icon: 'transfer',
        items: [
          { value: 'rest-v1', title: 'rest-v1 (legacy)' },
          { value: 'platform', title: 'platform' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { agentApi: realApi ?? 'rest-v1' },
  parameters: {
    a11y: { test: 'error' },
    controls: { expanded: true },
  },
};
export default preview;
