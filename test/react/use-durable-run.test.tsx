import { StrictMode, useEffect, type ReactNode } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  createDurableRunStore,
  useDurableRun,
  type AgentClient,
} from 'agent-console-kit';
import type { DurableRunStore } from 'agent-console-kit/core';
import { createMemoryStorage } from '../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';

const servers: MockAgentServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serveDurable() {
  const server = await createMockAgentServer({ agents: demoAgents });
  servers.push(server);
  return server;
}

const starts = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'run').length;
const reads = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'durable-run').length;

/** StrictMode at the root: React then mounts, unmounts and mounts every effect. */
function strict(client: AgentClient, children: ReactNode) {
  return (
    <StrictMode>
      <AgentClientProvider client={client}>{children}</AgentClientProvider>
    </StrictMode>
  );
}

const hello = { messages: [{ role: 'USER', content: [{ type: 'text', text: 'Quiet please' }] }] };

function Panel({
  store,
  startOnMount = false,
}: {
  store: DurableRunStore;
  startOnMount?: boolean;
}) {
  const run = useDurableRun({ agentId: 'quiet-durable-agent', store });
  const { start } = run;
  useEffect(() => {
    if (startOnMount) void start(hello).catch(() => undefined);
  }, [start, startOnMount]);
  return (
    <div>
      <button type="button" onClick={() => void run.start(hello)}>
        Start
      </button>
      <p data-testid="status">{run.status}</p>
      <p data-testid="run-id">{run.runId ?? ''}</p>
    </div>
  );
}

describe('given <StrictMode>', () => {
  it('mounting sends nothing, and a start() sends one POST', async () => {
    const server = await serveDurable();
    const client = createAgentClient({ baseUrl: server.url, api: 'platform' });
    const store = createDurableRunStore({ storage: createMemoryStorage() });
    render(strict(client, <Panel store={store} />));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.requests).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('queued'));
    await waitFor(() => expect(reads(server)).toBeGreaterThanOrEqual(1));
    expect(starts(server)).toBe(1);
  });

  it('a start() in a mount effect (run twice by StrictMode) sends one POST and keeps watching', async () => {
    const server = await serveDurable();
    const client = createAgentClient({ baseUrl: server.url, api: 'platform' });
    const store = createDurableRunStore({ storage: createMemoryStorage() });
    render(strict(client, <Panel store={store} startOnMount />));
    await waitFor(() => expect(screen.getByTestId('run-id')).not.toHaveTextContent(/^$/));
    await waitFor(() => expect(reads(server)).toBeGreaterThanOrEqual(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(starts(server)).toBe(1);
    expect(screen.getByTestId('status')).not.toHaveTextContent('start-unknown');
  });

  it('a remount (the reload) resumes the stored run with one read, no POST', async () => {
    const server = await serveDurable();
    const client = createAgentClient({ baseUrl: server.url, api: 'platform' });
    const storage = createMemoryStorage();
    const first = render(strict(client, <Panel store={createDurableRunStore({ storage })} />));
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(screen.getByTestId('run-id')).not.toHaveTextContent(/^$/));
    const runId = screen.getByTestId('run-id').textContent;
    first.unmount();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const readsBefore = reads(server);

    render(strict(client, <Panel store={createDurableRunStore({ storage })} />));
    await waitFor(() => expect(screen.getByTestId('run-id')).toHaveTextContent(runId ?? '?'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads(server) - readsBefore).toBe(1);
    expect(starts(server)).toBe(1);
  });
});
