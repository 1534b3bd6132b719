import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Decorator, Preview } from '@storybook/react-vite';
import { mswLoader } from 'msw-storybook-addon/csf3';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AgentClientProvider, createAgentClient } from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import { createMockAgentService, demoAgents } from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';
import 'agent-console-kit/styles.css';
import { realMode, realToken, realApi, realBaseUrl } from './real-mode';

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

type Theme = 'light' | 'dark' | 'system';

/** The whole canvas takes the theme: background, font and colours come from the stylesheet. */
function ThemedCanvas({ theme, children }: { theme: Theme; children: ReactNode }) {
  useEffect(() => {
    const root = document.documentElement;
    const body = document.body;
    body.classList.add('ack-theme');
    if (theme === 'system') {
      delete root.dataset['theme'];
      delete body.dataset['theme'];
    } else {
      root.dataset['theme'] = theme;
      body.dataset['theme'] = theme;
    }
  }, [theme]);
  return <>{children}</>;
}

const withTheme: Decorator = (Story, context) => (
  <ThemedCanvas theme={(context.globals['theme'] as Theme | undefined) ?? 'system'}>
    <Story />
  </ThemedCanvas>
);

/** In real mode, a story made for the mock service says so instead of failing. */
const withRealModeNotice: Decorator = (Story, context) =>
  realMode && context.parameters['mockOnly'] === true ? (
    <p className="ack-theme" style={{ margin: 0, padding: 16 }}>
      This story shows a scenario of the embedded mock agent service (a demo agent, a scripted
      failure). Storybook runs against <code>{realBaseUrl}</code> now: open{' '}
      <strong>Console / Real deployment</strong> instead, or start Storybook without{' '}
      <code>STORYBOOK_AGENT_BASE_URL</code>.
    </p>
  ) : (
    <Story />
  );

const preview: Preview = {
  // Real mode: msw is not started at all, every request goes to the deployment.
  loaders: realMode ? [] : [mswLoader()],
  tags: ['autodocs'],
  beforeEach(context) {
    if (realMode) return;
    mockService.reset();
    context.msw.use(...mockAgentHandlers(mockService));
  },
  decorators: [withRealModeNotice, withAgentProviders, withTheme],
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
    theme: {
      description: 'The colour theme of the whole canvas',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'system', title: 'System', icon: 'browser' },
          { value: 'light', title: 'Light', icon: 'sun' },
          { value: 'dark', title: 'Dark', icon: 'moon' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { agentApi: realApi ?? 'rest-v1', theme: 'system' },
  parameters: {
    a11y: { test: 'error' },
    controls: { expanded: true },
    layout: 'padded',
  },
};
export default preview;
