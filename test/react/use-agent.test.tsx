import { StrictMode, Suspense, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { render, renderHook, screen, waitFor } from '@testing-library/react';
import {
  QueryClient,
  QueryClientProvider,
  useQueryClient,
  useSuspenseQuery,
} from '@tanstack/react-query';
import {
  AgentClientProvider,
  AgentHttpError,
  agentKeys,
  createAgentClient,
  useAgent,
  useAgentClient,
  useAgentSchemas,
  type AgentClient,
} from 'agent-console-kit';
import { agentQueryOptions } from 'agent-console-kit/core';
import { setUpMockServer } from '../support/mock-server.js';

const server = setUpMockServer({
  agents: [
    {
      agent: { agent_id: 'writer', name: 'Writer', capabilities: { 'ap.io.messages': true } },
      schemas: { input_schema: {}, output_schema: {} },
    },
  ],
});

function makeWrapper(client: AgentClient, queryClient = new QueryClient()) {
  return function Wrapper({ children }: { children: ReactNode }) {
    return (
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <AgentClientProvider client={client}>{children}</AgentClientProvider>
        </QueryClientProvider>
      </StrictMode>
    );
  };
}

describe('given an agent id', () => {
  it('is pending, then holds the agent record', async () => {
    const client = createAgentClient({ baseUrl: server.url });

    const { result } = renderHook(() => useAgent('writer'), { wrapper: makeWrapper(client) });

    expect(result.current.isPending).toBe(true);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ agent_id: 'writer', name: 'Writer' });
    expect(server.requests).toHaveLength(1);
  });

  it('retrieves the schemas through the platform generation', async () => {
    const client = createAgentClient({ baseUrl: server.url, api: 'platform' });

    const { result } = renderHook(() => useAgentSchemas('writer'), {
      wrapper: makeWrapper(client),
    });

    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.input_schema).toEqual({});
    expect(server.requests[0]?.path).toBe('/api/agents/writer/schemas');
  });
});

describe('given no agent id', () => {
  it.each([undefined, '', '  '])('stays disabled for %j and sends nothing', async (agentId) => {
    const client = createAgentClient({ baseUrl: server.url });

    const { result } = renderHook(() => useAgent(agentId), { wrapper: makeWrapper(client) });
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(result.current.fetchStatus).toBe('idle');
    expect(result.current.isPending).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe('given a 404', () => {
  it('reaches the server exactly once (a 4xx is never retried) and surfaces the typed error', async () => {
    const client = createAgentClient({ baseUrl: server.url });

    const { result } = renderHook(() => useAgent('nobody'), { wrapper: makeWrapper(client) });

    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(AgentHttpError);
    expect(result.current.error?.kind).toBe('http');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(1);
  });
});

describe('given a 503', () => {
  it('retries with backoff until the service answers', async () => {
    const client = createAgentClient({ baseUrl: server.url });
    server.inject('writer', { status: 503, times: 2, body: 'unavailable' });

    const { result } = renderHook(() => useAgent('writer', { retryDelay: 1 }), {
      wrapper: makeWrapper(client),
    });

    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(server.requests).toHaveLength(3);
  });
});

describe('given two clients of different deployments or generations', () => {
  it('keeps their cache entries apart', async () => {
    const queryClient = new QueryClient();
    const legacy = createAgentClient({ baseUrl: server.url });
    const platform = createAgentClient({ baseUrl: server.url, api: 'platform' });
    const proxied = createAgentClient({ baseUrl: `${server.url}/proxy` });

    for (const client of [legacy, platform, proxied]) {
      const { result } = renderHook(() => useAgent('writer'), {
        wrapper: makeWrapper(client, queryClient),
      });
      await waitFor(() => expect(result.current.isSuccess).toBe(true));
    }

    expect(server.requests.map((request) => request.path)).toEqual([
      '/rest/api/v1/agents/writer',
      '/api/agents/writer',
      '/proxy/rest/api/v1/agents/writer',
    ]);
    expect(
      new Set(
        [legacy, platform, proxied].map((client) =>
          JSON.stringify(agentKeys.agent(client, 'writer')),
        ),
      ).size,
    ).toBe(3);
  });
});

describe('given prefetching and suspense', () => {
  it('serves a prefetched agent to useSuspenseQuery without another request', async () => {
    const queryClient = new QueryClient();
    const client = createAgentClient({ baseUrl: server.url });
    await queryClient.prefetchQuery(agentQueryOptions(client, 'writer'));
    expect(server.requests).toHaveLength(1);

    function Name() {
      const { data } = useSuspenseQuery(agentQueryOptions(useAgentClient(), 'writer'));
      const cached = useQueryClient().getQueryData(agentKeys.agent(client, 'writer'));
      return (
        <p>
          {data.name} {cached ? '(cached)' : ''}
        </p>
      );
    }
    const Wrapper = makeWrapper(client, queryClient);
    render(
      <Wrapper>
        <Suspense fallback={<p>Loading</p>}>
          <Name />
        </Suspense>
      </Wrapper>,
    );

    expect(await screen.findByText('Writer (cached)')).toBeInTheDocument();
    expect(server.requests).toHaveLength(1);
  });
});

describe('given no provider', () => {
  it('throws an error that names AgentClientProvider', () => {
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const consoleError = console.error;
    console.error = () => {};
    try {
      expect(() => renderHook(() => useAgent('writer'), { wrapper })).toThrow(
        /AgentClientProvider/,
      );
    } finally {
      console.error = consoleError;
    }
  });
});
