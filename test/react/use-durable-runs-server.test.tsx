/**
 * useDurableRuns across devices, in jsdom under StrictMode: with `server` (a createServerRunList
 * over createAgentProxy({ user, store }), PGlite, the mock service on 127.0.0.1) the runs the
 * user started on another device are listed beside this browser's, with the server list's status.
 */
import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createDurableRunStore,
  createServerRunList,
  useDurableRuns,
} from 'agent-console-kit';
import type { DurableRunStore, ServerRunList } from 'agent-console-kit/core';
import { sessionOf, serveUserStoreProxy } from '../support/user-store-proxy.js';

const proxy = serveUserStoreProxy();

function Runs({ store, server }: { store: DurableRunStore; server?: ServerRunList }) {
  const { runs, inProgress, server: read } = useDurableRuns({ store, server });
  return (
    <section aria-label="Runs">
      <p>{`server: ${read?.status ?? 'none'}`}</p>
      <ul aria-label="in progress">
        {inProgress.map((run) => (
          <li key={run.localId}>{`${run.request.preview}: ${run.status} (${run.source})`}</li>
        ))}
      </ul>
      <p>{`${runs.length} known`}</p>
    </section>
  );
}

describe('given useDurableRuns with a server run list', () => {
  it('lists a run started on another device of the user, with the server list’s status; axe clean', async () => {
    const user = 'use-durable-runs-server';
    const laptop = createAgentClient({
      baseUrl: proxy.url,
      api: 'platform',
      headers: () => sessionOf(user),
    });
    const started = await laptop.startDurableRun('approve-agent', {
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'Deploy the web service' }] }],
    });
    await laptop.getDurableRun('approve-agent', started.runId);

    const phoneStore = createDurableRunStore({ storage: 'memory' });
    const server = createServerRunList({
      baseUrl: proxy.url,
      headers: sessionOf(user),
      pollIntervalMs: 0,
    });
    const { container } = render(
      <StrictMode>
        <Runs store={phoneStore} server={server} />
      </StrictMode>,
    );
    const list = screen.getByRole('list', { name: 'in progress' });
    await within(list).findByText('Deploy the web service: requires-input (server)');
    expect(screen.getByText('server: ready')).toBeInTheDocument();
    expect(screen.getByText('1 known')).toBeInTheDocument();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('without `server`: this browser’s runs only, and no server status', async () => {
    const store = createDurableRunStore({ storage: 'memory' });
    render(
      <StrictMode>
        <Runs store={store} />
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByText('server: none')).toBeInTheDocument());
    expect(screen.getByText('0 known')).toBeInTheDocument();
  });
});
