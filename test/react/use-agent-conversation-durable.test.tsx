import { StrictMode, Suspense } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  createMemoryThreadStore,
  useAgentConversation,
  type AgentClient,
  type ThreadStore,
} from 'agent-console-kit';
import type { KeyValueStorage } from 'agent-console-kit/core';
import { createMemoryStorage } from '../../src/core/storage/durable-run-store.js';
import type { MockAgentServer } from 'agent-console-kit/testing';
import { serveDurableAgents, type ManualPage } from '../support/durable-environment.js';

async function setUp() {
  return { ...(await serveDurableAgents()), runStorage: createMemoryStorage() };
}

const starts = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'run').length;

interface ChatProps {
  threadStore: ThreadStore;
  runStorage: KeyValueStorage;
  page: ManualPage;
  /** Receives the hook's send (a closure that can outlive the component). */
  onSend?: (send: (text: string) => Promise<unknown>) => void;
}

function Chat({ threadStore, runStorage, page, onSend }: ChatProps) {
  const chat = useAgentConversation({
    agentId: 'durable-agent',
    executionMode: 'durable',
    threadStore,
    threadId: 'thread-1',
    durableRun: page.durableRun(runStorage),
  });
  onSend?.(chat.send);
  return (
    <div>
      <p data-testid="status">{chat.status}</p>
      <ul>
        {chat.messages.map((message) => (
          <li key={message.id} data-role={message.role} data-status={message.status}>
            {message.text}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => void chat.send('Write the report').catch(() => 0)}>
        Send
      </button>
      <button type="button" onClick={chat.stop}>
        Stop
      </button>
    </div>
  );
}

function strict(client: AgentClient, props: ChatProps) {
  return (
    <StrictMode>
      <AgentClientProvider client={client}>
        <Chat {...props} />
      </AgentClientProvider>
    </StrictMode>
  );
}

async function advance(page: ManualPage, ms: number) {
  for (let left = ms; left > 0; left -= 500) {
    act(() => page.advance(Math.min(500, left)));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
}

const answers = () =>
  screen.getAllByRole('listitem').filter((item) => item.dataset.role === 'GLEAN_AI');

describe('given useAgentConversation in durable mode under <StrictMode>', () => {
  it('a send while the thread loads is sent once, after the stored messages', async () => {
    const { page, server, client, runStorage } = await setUp();
    const stored = createMemoryThreadStore();
    await stored.save({
      id: 'thread-1',
      agentId: 'durable-agent',
      messages: [{ id: 'a', role: 'USER', text: 'Earlier', status: 'done', createdAt: 1 }],
    });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const threadStore = Object.create(stored) as ThreadStore;
    threadStore.load = async (threadId) => {
      await gate;
      return stored.load(threadId);
    };
    render(strict(client, { threadStore, runStorage, page }));
    expect(screen.getByTestId('status')).toHaveTextContent('loading');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(starts(server)).toBe(0);
    await act(async () => {
      release();
      await gate;
    });
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('streaming'));
    expect(screen.getAllByRole('listitem').map((item) => item.dataset.role)).toEqual([
      'USER',
      'USER',
      'GLEAN_AI',
    ]);
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(starts(server)).toBe(1);
    const sent = server.requests.find((request) => request.endpoint === 'run')?.body as {
      messages: unknown[];
    };
    expect(sent.messages).toHaveLength(2);
  });

  it('a remount mid-turn (a reload) shows the same answer once and finishes it, one POST', async () => {
    const { page, server, client, runStorage } = await setUp();
    const threadStore = createMemoryThreadStore();
    const first = render(strict(client, { threadStore, runStorage, page }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('idle'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('streaming'));
    await advance(page, 3000);
    await waitFor(() => expect(answers()[0]?.textContent).not.toBe(''));
    first.unmount();

    render(strict(client, { threadStore, runStorage, page }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('streaming'));
    expect(answers()).toHaveLength(1);
    await advance(page, 4000);
    await waitFor(() => expect(answers()[0]).toHaveAttribute('data-status', 'done'));
    expect(answers()).toHaveLength(1);
    expect(answers()[0]?.textContent).toMatch(/ready for review\.$/);
    expect(starts(server)).toBe(1);
    expect(server.service.durableStats.cancels).toBe(0);
  });

  it('a send from a stale closure after the unmount sends nothing (durable start, queued or not)', async () => {
    const { page, server, client, runStorage } = await setUp();
    let staleSend: (text: string) => Promise<unknown> = () => Promise.resolve();
    const onSend = (send: typeof staleSend) => (staleSend = send);
    const threadStore = createMemoryThreadStore();
    const first = render(strict(client, { threadStore, runStorage, page, onSend }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('idle'));
    first.unmount();
    const settled = staleSend('Sent after the unmount').catch((error: unknown) => error);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(server.requests).toHaveLength(0);
    await settled;

    // Unmounted while the thread loads: the send waiting for it is dropped.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = Object.create(threadStore) as ThreadStore;
    slow.load = async (threadId) => {
      await gate;
      return threadStore.load(threadId);
    };
    const second = render(strict(client, { threadStore: slow, runStorage, page, onSend }));
    expect(screen.getByTestId('status')).toHaveTextContent('loading');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    second.unmount();
    await act(async () => {
      release();
      await gate;
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(server.requests).toHaveLength(0);
  });

  it('Stop cancels the run at the service (one cancel) and the answer ends stopped', async () => {
    const { page, server, client, runStorage } = await setUp();
    const threadStore = createMemoryThreadStore();
    render(strict(client, { threadStore, runStorage, page }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('idle'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('streaming'));
    await advance(page, 1000);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(server.service.durableStats.cancels).toBe(1));
    await advance(page, 3000);
    await waitFor(() => expect(answers()[0]).toHaveAttribute('data-status', 'stopped'));
    expect(server.service.durableStats.cancels).toBe(1);
    expect(starts(server)).toBe(1);
  });
});

/** A Chat whose first render is thrown away: it suspends until `ready` (as a lazy sibling would). */
function SuspendingChat(props: ChatProps & { ready: { done: boolean; promise: Promise<void> } }) {
  const { ready, ...chat } = props;
  const rendered = <Chat {...chat} />;
  if (!ready.done) throw ready.promise;
  return rendered;
}

describe('given a stored thread whose durable turn is in flight, rendered under <StrictMode>', () => {
  it('renders thrown away (StrictMode, a suspended mount) read and send nothing: the thread is read once, the run once', async () => {
    const { page, server, client, runStorage } = await setUp();
    const stored = createMemoryThreadStore();
    const first = render(strict(client, { threadStore: stored, runStorage, page }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('idle'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('streaming'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    first.unmount();
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    const requestsBefore = server.requests.length;

    let loads = 0;
    const threadStore = Object.create(stored) as ThreadStore;
    threadStore.load = (threadId) => {
      loads++;
      return stored.load(threadId);
    };
    const ready = { done: false, promise: Promise.resolve() };
    ready.promise = new Promise<void>((resolve) =>
      setTimeout(() => {
        ready.done = true;
        resolve();
      }, 50),
    );
    render(
      <StrictMode>
        <AgentClientProvider client={client}>
          <Suspense fallback={<p>Waiting</p>}>
            <SuspendingChat
              threadStore={threadStore}
              runStorage={runStorage}
              page={page}
              ready={ready}
            />
          </Suspense>
        </AgentClientProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('streaming'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(loads).toBe(1);
    expect(server.requests.length - requestsBefore).toBe(1);
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', endpoint: 'durable-run' });
    expect(starts(server)).toBe(1);
  });
});
