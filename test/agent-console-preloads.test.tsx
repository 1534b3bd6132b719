/**
 * The console's lazy form and thread list are preloaded before they first render (the parts alone
 * are in console-lazy-parts.test.tsx, replaced ones in agent-console-lazy-parts.test.tsx). A
 * part's module loads once per file and stays loaded: this file holds one test, run while neither
 * is loaded.
 */
import { StrictMode, type ReactNode } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  AgentConsole,
  createAgentClient,
  createMemoryThreadStore,
  formFieldsFromSchema,
  type AgentConsoleProps,
} from 'agent-console-kit';
import { demoAgents } from 'agent-console-kit/testing';
// Internal: the console's lazy parts, to see whether their modules were loaded.
import { lazyInputForm, lazyThreadList } from '../src/components/console-lazy-parts.js';
import { setUpMockServer } from './support/mock-server.js';

const server = setUpMockServer({ agents: demoAgents });

function renderConsole(props: AgentConsoleProps): void {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createAgentClient({ baseUrl: server.url });
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>
          <AgentConsole {...props} />
        </AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const fields = formFieldsFromSchema({
  type: 'object',
  properties: { topic: { type: 'string', title: 'Topic' } },
});

/** Renders each part alone: what shows synchronously after render (nothing while it loads). */
function renderAlone(part: ReactNode): HTMLElement {
  return render(<StrictMode>{part}</StrictMode>).container;
}

const formAlone = () => (
  <lazyInputForm.Part fields={fields} aria-label="Input alone" onSubmit={() => {}} />
);
const threadListAlone = () => (
  <lazyThreadList.Part threads={[]} aria-label="Threads alone" onSelect={() => {}} />
);

/** Longer than loading a part's module takes here (it is in the module graph already). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('given the console’s lazy form and thread list', () => {
  it('preloads the form once the agent takes a form, the thread list once there is a threadStore, before either renders', async () => {
    // Neither part renders: the form agent's schemas and the chat agent are refused.
    server.inject('form-agent', { status: 403, endpoint: 'schemas' });
    server.inject('chat-agent', { status: 403, endpoint: 'agent' });
    renderConsole({ agentId: 'form-agent' });
    renderConsole({ agentId: 'chat-agent', threadStore: createMemoryThreadStore() });

    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    await settle();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();

    // Both modules are there: each part renders in its first commit.
    renderAlone(formAlone());
    renderAlone(threadListAlone());
    expect(screen.getByRole('form', { name: 'Input alone' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Threads alone' })).toBeInTheDocument();
  });
});
