import { Component, StrictMode, Suspense, useState, type ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { render, renderHook, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import {
  AgentClientProvider,
  AgentHttpError,
  createAgentClient,
  useAgent,
  useSuspenseAgent,
  useSuspenseAgentSchemas,
  type AgentSchemas,
} from 'agent-console-kit';
import { createMockAgentServer, type MockAgentServer } from 'agent-console-kit/testing';

let server: MockAgentServer;

beforeAll(async () => {
  server = await createMockAgentServer({
    agents: [
      {
        agent: { agent_id: 'writer', name: 'Writer', capabilities: {} },
        schemas: {
          input_schema: { type: 'object', properties: { topic: { type: 'string' } } },
          output_schema: {},
        },
      },
    ],
  });
});

afterAll(async () => {
  await server.close();
});

class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    return (
      <p role="alert">{error instanceof AgentHttpError ? `status ${error.status}` : 'other'}</p>
    );
  }
}

function Wrapper({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  );
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={createAgentClient({ baseUrl: server.url })}>
          <Boundary>
            <Suspense fallback={<p>Loading</p>}>{children}</Suspense>
          </Boundary>
        </AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}

describe('given useSuspenseAgent', () => {
  it('suspends, then renders the agent with data always defined', async () => {
    function Name() {
      const { data } = useSuspenseAgent('writer');
      expectTypeOf(data.name).toEqualTypeOf<string>();
      return <h2>{data.name}</h2>;
    }
    const { container } = render(<Name />, { wrapper: Wrapper });

    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Writer' })).toBeInTheDocument();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('gives what select returns as data', async () => {
    function Name() {
      const { data } = useSuspenseAgent('writer', { select: (agent) => agent.name.length });
      expectTypeOf(data).toEqualTypeOf<number>();
      return <p>{`${data} letters`}</p>;
    }
    render(<Name />, { wrapper: Wrapper });

    expect(await screen.findByText('6 letters')).toBeInTheDocument();
  });

  it('sends a 404 to the error boundary as an AgentHttpError', async () => {
    function Name() {
      const { data } = useSuspenseAgent('missing');
      return <h2>{data.name}</h2>;
    }
    const consoleError = console.error;
    console.error = () => {};
    try {
      render(<Name />, { wrapper: Wrapper });
      expect(await screen.findByRole('alert')).toHaveTextContent('status 404');
    } finally {
      console.error = consoleError;
    }
  });
});

describe('given useSuspenseAgentSchemas', () => {
  it('renders the input schema once it is there', async () => {
    function Fields() {
      const { data } = useSuspenseAgentSchemas('writer');
      expectTypeOf(data).toEqualTypeOf<AgentSchemas>();
      const properties = (data.input_schema as { properties?: Record<string, unknown> }).properties;
      return (
        <ul aria-label="Fields">
          {Object.keys(properties ?? {}).map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      );
    }
    render(<Fields />, { wrapper: Wrapper });

    expect(await screen.findByRole('listitem')).toHaveTextContent('topic');
  });
});

describe('given useAgent with select', () => {
  it('gives the selected value as data, typed as what select returns', async () => {
    const { result } = renderHook(() => useAgent('writer', { select: (agent) => agent.name }), {
      wrapper: Wrapper,
    });
    expectTypeOf(result.current.data).toEqualTypeOf<string | undefined>();

    await waitFor(() => expect(result.current.data).toBe('Writer'));
  });
});
