import { StrictMode, useState } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  createDurableRunStore,
  useDurableRun,
  useDurableRuns,
} from 'agent-console-kit';
import { createDurableRun, type DurableRunStore } from 'agent-console-kit/core';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';

const servers: MockAgentServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  localStorage.clear();
});

const ask = (text: string) => ({ messages: [{ role: 'USER', content: [{ type: 'text', text }] }] });
const reads = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'durable-run').length;

function Attached({
  store,
  agentId,
  runId,
}: {
  store: DurableRunStore;
  agentId: string;
  runId: string;
}) {
  const run = useDurableRun({ agentId, runId, store });
  return <p aria-label="attached">{`${run.runId ?? ''} ${run.status}`}</p>;
}

/** "Runs in progress", each with a button that attaches it again; every known run below. */
function Runs({ store }: { store: DurableRunStore }) {
  const { runs, inProgress, remove } = useDurableRuns({ store });
  const [open, setOpen] = useState<{ agentId: string; runId: string } | undefined>(undefined);
  return (
    <>
      <ul aria-label="in progress">
        {inProgress.map((run) => (
          <li key={run.localId}>
            {run.request.preview}
            <button
              type="button"
              onClick={() => setOpen({ agentId: run.agentId, runId: run.runId ?? '' })}
            >
              Open {run.request.preview}
            </button>
          </li>
        ))}
      </ul>
      <ul aria-label="known">
        {runs.map((run) => (
          <li key={run.localId}>
            {`${run.request.preview}: ${run.status}`}
            <button type="button" onClick={() => remove(run.localId)}>
              Dismiss {run.request.preview}
            </button>
          </li>
        ))}
      </ul>
      {open ? <Attached store={store} {...open} /> : null}
    </>
  );
}

describe('given useDurableRuns under <StrictMode> over the browser run store', () => {
  it("lists this tab's and another tab's runs, sends nothing itself, and an Open attaches one", async () => {
    const server = await createMockAgentServer({ agents: demoAgents });
    servers.push(server);
    const client = createAgentClient({ baseUrl: server.url, api: 'platform' });
    const store = createDurableRunStore(); // localStorage, the window's storage event
    const run = createDurableRun(client, { agentId: 'quiet-durable-agent', store });
    await run.start(ask('Quarterly report'));
    run.detach();
    const runId = run.getSnapshot().runId ?? '';
    const requestsBefore = server.requests.length;

    render(
      <StrictMode>
        <AgentClientProvider client={client}>
          <Runs store={store} />
        </AgentClientProvider>
      </StrictMode>,
    );
    const inProgress = screen.getByRole('list', { name: 'in progress' });
    expect(within(inProgress).getAllByRole('listitem')).toHaveLength(1);
    expect(within(inProgress).getByRole('listitem')).toHaveTextContent('Quarterly report');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.requests.length).toBe(requestsBefore);

    // Another tab starts a run: its own store writes localStorage, the browser tells this tab.
    const otherTab = createDurableRunStore({ eventTarget: new EventTarget() });
    const record = otherTab.create({
      agentId: 'durable-agent',
      messages: ask('Book a room').messages,
    });
    const key = `agent-console-kit:v1:default:run:${record.localId}`;
    window.dispatchEvent(new StorageEvent('storage', { key }));
    const known = screen.getByRole('list', { name: 'known' });
    await waitFor(() => expect(within(known).getAllByRole('listitem')).toHaveLength(2));
    expect(within(known).getByText('Book a room: start-unknown')).toBeInTheDocument();

    otherTab.update(record.localId, {
      phase: 'created',
      runId: 'run-elsewhere',
      lastState: 'RUNNING',
    });
    window.dispatchEvent(new StorageEvent('storage', { key }));
    await waitFor(() => expect(within(inProgress).getAllByRole('listitem')).toHaveLength(2));

    otherTab.remove(record.localId);
    window.dispatchEvent(new StorageEvent('storage', { key }));
    await waitFor(() => expect(within(known).getAllByRole('listitem')).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Open Quarterly report' }));
    await waitFor(() =>
      expect(screen.getByLabelText('attached')).toHaveTextContent(new RegExp(`^${runId} `)),
    );
    await waitFor(() => expect(reads(server)).toBeGreaterThanOrEqual(1));
    expect(server.service.durableStats.runsStarted).toBe(1);
  });

  it('Dismiss removes the record in this tab and the list follows', async () => {
    const store = createDurableRunStore();
    store.create({ agentId: 'durable-agent', messages: ask('Lost start').messages });
    render(
      <StrictMode>
        <Runs store={store} />
      </StrictMode>,
    );
    const known = screen.getByRole('list', { name: 'known' });
    expect(within(known).getByText('Lost start: start-unknown')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss Lost start' }));
    await waitFor(() => expect(within(known).queryAllByRole('listitem')).toHaveLength(0));
    expect(store.list()).toEqual([]);
  });
});
