import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryThreadStore, type AgentClient, type ThreadStore } from 'agent-console-kit';
import type { KeyValueStorage } from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import type { MockAgentServer } from 'agent-console-kit/testing';
import { serveDurableAgents, type ManualPage } from '../../support/durable-environment.js';
import { advanceClock, renderDurableConsole } from '../../support/durable-console.js';

/** The durable console of the "Long report" agent, its thread `thread-1` in `threadStore`. */
const renderConsole = (
  client: AgentClient,
  page: ManualPage,
  threadStore: ThreadStore,
  runStorage: KeyValueStorage,
) =>
  renderDurableConsole(client, page, {
    agentId: 'durable-agent',
    threadStore,
    threadId: 'thread-1',
    runStorage,
  });

const agentItems = () =>
  screen.queryAllByRole('listitem').filter((item) => item.getAttribute('data-role') === 'agent');
const starts = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'run');

describe('given AgentConsole with executionMode="durable" and a thread store', () => {
  it('a turn is one durable POST; Stop cancels it at the service; the thread is there after a remount', async () => {
    const { page, server, client } = await serveDurableAgents();
    const threadStore = createMemoryThreadStore();
    const runStorage = createMemoryStorage();
    const user = userEvent.setup();
    const first = renderConsole(client, page, threadStore, runStorage);
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.type(box, 'Write the report{Enter}');
    await waitFor(() => expect(starts(server)).toHaveLength(1));
    expect(starts(server)[0]?.body).toMatchObject({ execution_mode: 'DURABLE' });
    const stop = await screen.findByRole('button', { name: /stop/i });
    // The console knows a durable turn is under way (it has no stream run).
    await waitFor(() =>
      expect(screen.getByRole('region', { name: /agent console/i })).toHaveAttribute(
        'data-active',
        '',
      ),
    );
    await advanceClock(page, 1000, 1000);
    await user.click(stop);
    // Stop of a durable turn asks first (see the test below).
    await user.click(await screen.findByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(server.service.durableStats.cancels).toBe(1));
    await advanceClock(page, 3000);
    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'stopped'));
    // The header says what a stopped stream turn says, not the idle "Ready.".
    expect(document.querySelector('.ack-console__status')).toHaveTextContent('Stopped.');
    await waitFor(async () =>
      expect((await threadStore.load('thread-1'))?.messages[1]?.status).toBe('stopped'),
    );
    first.unmount();

    renderConsole(client, page, threadStore, runStorage);
    await waitFor(() => expect(agentItems()).toHaveLength(1));
    expect(agentItems()[0]).toHaveAttribute('data-status', 'stopped');
    expect(starts(server)).toHaveLength(1);
    expect(server.service.durableStats.cancels).toBe(1);
  });

  it('Stop asks first: "Keep running" (or Escape) sends nothing, "Cancel run" sends one cancel', async () => {
    const { page, server, client } = await serveDurableAgents();
    const user = userEvent.setup();
    const { container } = renderConsole(
      client,
      page,
      createMemoryThreadStore(),
      createMemoryStorage(),
    );
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.type(box, 'Write the report{Enter}');
    await waitFor(() => expect(starts(server)).toHaveLength(1));
    const stop = await screen.findByRole('button', { name: /stop/i });
    await advanceClock(page, 1000, 1000);
    const cancelRequests = () =>
      server.requests.filter((request) => request.endpoint === 'durable-cancel');

    await user.click(stop);
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this run?' });
    expect(dialog).toHaveAccessibleDescription(/cannot be resumed/);
    expect(within(dialog).getByRole('button', { name: 'Keep running' })).toHaveFocus();
    expect((await axe.run(container)).violations).toEqual([]);
    await act(async () => {
      page.advance(500);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(cancelRequests()).toHaveLength(0);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(stop).toHaveFocus();
    await user.click(stop);
    await user.click(await screen.findByRole('button', { name: 'Keep running' }));
    await act(async () => {
      page.advance(500);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(cancelRequests()).toHaveLength(0);
    expect(server.service.durableStats.cancels).toBe(0);

    await user.click(stop);
    await user.click(await screen.findByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(server.service.durableStats.cancels).toBe(1));
    expect(cancelRequests()).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(box).toHaveFocus();
    // Stop again while the service cancels: no second question, no second request.
    await user.click(stop);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(cancelRequests()).toHaveLength(1);
    await advanceClock(page, 3000);
    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'stopped'));
    expect(cancelRequests()).toHaveLength(1);
    expect(starts(server)).toHaveLength(1);
  });

  it('switching threads during a durable turn leaves the run going; back on its thread, the answer is there once', async () => {
    const { page, server, client } = await serveDurableAgents();
    const threadStore = createMemoryThreadStore();
    await threadStore.save({
      id: 'thread-2',
      agentId: 'durable-agent',
      title: 'Other',
      messages: [],
    });
    const user = userEvent.setup();
    renderConsole(client, page, threadStore, createMemoryStorage());
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.type(box, 'Write the report{Enter}');
    await waitFor(() => expect(starts(server)).toHaveLength(1));
    // Saved once the service accepted the turn: its run id is in the thread.
    await waitFor(async () =>
      expect((await threadStore.load('thread-1'))?.messages[1]?.run?.runId).toBeDefined(),
    );
    const threads = screen.getByRole('navigation', { name: 'Threads with Long report' });
    const list = within(within(threads).getByRole('list'));

    await user.click(list.getByRole('button', { name: 'Other' }));
    await waitFor(() => expect(agentItems()).toHaveLength(0));
    await advanceClock(page, 8000, 1000);
    expect(server.service.durableStats.cancels).toBe(0);

    await user.click(list.getByRole('button', { name: 'Write the report' }));
    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'done'), {
      timeout: 5000,
    });
    expect(agentItems()).toHaveLength(1);
    expect(agentItems()[0]).toHaveTextContent('the answer is ready for review.');
    expect(starts(server)).toHaveLength(1);
    expect(server.service.durableStats.cancels).toBe(0);
    await waitFor(async () =>
      expect((await threadStore.load('thread-1'))?.messages[1]?.status).toBe('done'),
    );
  });
});

describe('given AgentConsole with executionMode="durable" and no thread store', () => {
  afterEach(() => localStorage.clear());

  it('a reload mid-turn finds the thread (kept in localStorage by default) and the same run: one POST', async () => {
    const { page, server, client } = await serveDurableAgents();
    const runStorage = createMemoryStorage();
    const renderDurable = () =>
      renderDurableConsole(client, page, { agentId: 'durable-agent', runStorage });
    const user = userEvent.setup();
    const first = renderDurable();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Write it{Enter}');
    await waitFor(() => expect(starts(server)).toHaveLength(1));
    await waitFor(() => expect(localStorage.length).toBeGreaterThan(0));
    first.unmount();

    renderDurable();
    await waitFor(() => expect(agentItems()).toHaveLength(1));
    expect(screen.queryByText('No messages yet.')).toBeNull();
    await advanceClock(page, 8000, 1000);
    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'done'));
    expect(agentItems()[0]).toHaveTextContent('the answer is ready for review.');
    expect(starts(server)).toHaveLength(1);
    // Nothing but the thread's messages: no token in the page's storage.
    expect(JSON.stringify({ ...localStorage })).not.toContain('tok-5f3a9c');
  });
});
