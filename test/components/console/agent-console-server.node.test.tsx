/**
 * The console rendered on a server (plain Node: no window, no document), the agent and its schemas
 * fetched first as a server page does: its lazy form and thread list are in the first page the
 * process renders, not left to the browser (renderToString does not wait for a part still loading).
 */
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { AgentClientProvider, createAgentClient, createMemoryThreadStore } from 'agent-console-kit';
import { AgentConsole, type AgentConsoleProps } from 'agent-console-kit/console';
import { agentQueryOptions, agentSchemasQueryOptions } from 'agent-console-kit/core';
import { demoAgents } from 'agent-console-kit/testing';
// Internal: the console's lazy parts, rendered alone.
import { lazyInputForm, lazyThreadList } from '../../../src/components/console-lazy-parts.js';
import { setUpMockServer } from '../../support/mock-server.js';

const server = setUpMockServer({ agents: demoAgents });

async function renderOnServer(
  props: AgentConsoleProps & { agentId: string },
  queries: { retryOnMount?: boolean } = {},
): Promise<string> {
  const client = createAgentClient({ baseUrl: server.url });
  const queryClient = new QueryClient({ defaultOptions: { queries } });
  await Promise.all([
    queryClient.prefetchQuery(agentQueryOptions(client, props.agentId)),
    queryClient.prefetchQuery(agentSchemasQueryOptions(client, props.agentId)),
  ]);
  return renderToString(
    <QueryClientProvider client={queryClient}>
      <AgentClientProvider client={client}>
        <AgentConsole {...props} />
      </AgentClientProvider>
    </QueryClientProvider>,
  );
}

/** React's mark of a Suspense boundary the server left to the browser. */
const leftToTheBrowser = '<!--$!-->';

describe('given the console rendered on a server', () => {
  it('sends the form and the thread list in its first pages, each part loaded with the console', async () => {
    expect(typeof document).toBe('undefined');

    const formPage = await renderOnServer({ agentId: 'form-agent' });
    const chatPage = await renderOnServer({
      agentId: 'chat-agent',
      threadStore: createMemoryThreadStore(),
      threadId: 'thread-1',
    });

    expect(formPage).toContain('aria-label="Input of Project intake"');
    expect(formPage).toContain('Due date');
    expect(formPage).not.toContain('Loading the agent’s input form');
    expect(formPage).not.toContain(leftToTheBrowser);
    expect(chatPage).toContain('aria-label="Threads with Helpdesk chat"');
    expect(chatPage).toContain('New thread');
    expect(chatPage).not.toContain(leftToTheBrowser);
    // Each part alone, its module loaded, is there in one pass too (no boundary left to the browser).
    const alone = renderToString(
      <>
        <lazyInputForm.Part fields={[]} aria-label="Input alone" onSubmit={() => {}} />
        <lazyThreadList.Part threads={[]} aria-label="Threads alone" onSelect={() => {}} />
      </>,
    );
    expect(alone).toContain('aria-label="Input alone"');
    expect(alone).toContain('aria-label="Threads alone"');
    expect(alone).not.toContain(leftToTheBrowser);
    // An agent the server may not read, in an app that shows a failed query as it is (TanStack
    // Query retries it on mount by default): the explanation is in the first page too (the
    // error's part is lazy in the browser, loaded with the console on a server).
    server.inject('chat-agent', { status: 403, endpoint: 'agent' });
    const refusedPage = await renderOnServer({ agentId: 'chat-agent' }, { retryOnMount: false });
    expect(refusedPage).toContain('role="alert"');
    expect(refusedPage).toContain('Not allowed');
    expect(refusedPage).not.toContain(leftToTheBrowser);
    // Rendering sent nothing: the agent and the schemas were read, no run started.
    expect(server.postCount('form-agent')).toBe(0);
    expect(server.postCount('chat-agent')).toBe(0);
  });
});
