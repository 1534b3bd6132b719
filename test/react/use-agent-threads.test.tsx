import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  createThreadStore,
  createMemoryThreadStore,
  useAgentConversation,
  useAgentThreads,
  type AgentClient,
  type ThreadStore,
} from 'agent-console-kit';
import { createMockAgentServer, textEvents, type MockAgentServer } from 'agent-console-kit/testing';

const servers: MockAgentServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  localStorage.clear();
});

function Chat({ threadStore, threadId }: { threadStore: ThreadStore; threadId: string }) {
  const chat = useAgentConversation({ agentId: 'chat', threadStore, threadId });
  return (
    <section aria-label="conversation">
      <p data-testid="conversation-status">{chat.status}</p>
      <ul aria-label="messages">
        {chat.messages.map((message) => (
          <li key={message.id}>{message.text}</li>
        ))}
      </ul>
      <button type="button" onClick={() => void chat.send('Where is my order?')}>
        Send
      </button>
    </section>
  );
}

function Threads({ threadStore }: { threadStore: ThreadStore }) {
  const list = useAgentThreads({ threadStore, agentId: 'chat' });
  return (
    <div>
      <p data-testid="threads-status">{list.status}</p>
      <button type="button" onClick={() => void list.create()}>
        New thread
      </button>
      <ul aria-label="threads">
        {list.threads.map((thread) => (
          <li key={thread.id} aria-current={thread.id === list.selectedThreadId}>
            <button type="button" onClick={() => list.select(thread.id)}>
              {thread.title || 'Untitled'}
            </button>
            <button type="button" onClick={() => void list.rename(thread.id, 'Renamed')}>
              Rename {thread.title || 'Untitled'}
            </button>
            <button type="button" onClick={() => void list.remove(thread.id)}>
              Delete {thread.title || 'Untitled'}
            </button>
          </li>
        ))}
      </ul>
      {list.selectedThreadId !== undefined && (
        <Chat
          key={list.selectedThreadId}
          threadStore={threadStore}
          threadId={list.selectedThreadId}
        />
      )}
    </div>
  );
}

function strict(client: AgentClient, threadStore: ThreadStore) {
  return (
    <StrictMode>
      <AgentClientProvider client={client}>
        <Threads threadStore={threadStore} />
      </AgentClientProvider>
    </StrictMode>
  );
}

async function serveChat() {
  const server = await createMockAgentServer({
    agents: [
      {
        agent: {
          agent_id: 'chat',
          name: 'Chat',
          capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
        },
        run: { eventsFor: () => textEvents('It ships tomorrow.') },
      },
    ],
  });
  servers.push(server);
  return createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-5f3a9c' });
}

const threadTitles = () =>
  within(screen.getByRole('list', { name: 'threads' }))
    .queryAllByRole('listitem')
    .map((item) => within(item).getAllByRole('button')[0]?.textContent);

describe('given useAgentThreads under <StrictMode>', () => {
  it('new → the thread is selected; a turn titles it; rename and delete update the list', async () => {
    const client = await serveChat();
    const threadStore = createMemoryThreadStore();
    render(strict(client, threadStore));
    await waitFor(() => expect(screen.getByTestId('threads-status')).toHaveTextContent('ready'));
    expect(threadTitles()).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'New thread' }));
    await waitFor(() => expect(threadTitles()).toEqual(['Untitled']));
    await waitFor(() =>
      expect(screen.getByTestId('conversation-status')).toHaveTextContent('idle'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(threadTitles()).toEqual(['Where is my order?']));
    const stored = (await threadStore.list()).threads;
    expect(stored).toMatchObject([{ title: 'Where is my order?', messageCount: 2 }]);

    fireEvent.click(screen.getByRole('button', { name: 'Rename Where is my order?' }));
    await waitFor(() => expect(threadTitles()).toEqual(['Renamed']));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Renamed' }));
    await waitFor(() => expect(threadTitles()).toEqual([]));
    expect(screen.queryByRole('region', { name: 'conversation' })).toBeNull();
    expect((await threadStore.list()).threads).toEqual([]);
  });

  it('a rename while the thread is open does not lose the next turn (the save is reconciled)', async () => {
    const client = await serveChat();
    const threadStore = createMemoryThreadStore();
    render(strict(client, threadStore));
    fireEvent.click(await screen.findByRole('button', { name: 'New thread' }));
    await waitFor(() =>
      expect(screen.getByTestId('conversation-status')).toHaveTextContent('idle'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Rename Untitled' }));
    await waitFor(() => expect(threadTitles()).toEqual(['Renamed']));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(async () =>
      expect((await threadStore.list()).threads).toMatchObject([
        { title: 'Renamed', messageCount: 2 },
      ]),
    );
  });

  it('switching threads shows each thread’s own messages; another tab’s save is listed', async () => {
    const client = await serveChat();
    const threadStore = createThreadStore();
    const otherTab = createThreadStore({ eventTarget: undefined });
    await threadStore.save({
      id: 'a',
      agentId: 'chat',
      messages: [{ id: 'm1', role: 'USER', text: 'First thread', status: 'done', createdAt: 1 }],
    });
    render(strict(client, threadStore));
    await waitFor(() => expect(threadTitles()).toEqual(['First thread']));

    // Another tab writes; this tab hears of it through the storage event.
    await otherTab.save({
      id: 'b',
      agentId: 'chat',
      messages: [{ id: 'm2', role: 'USER', text: 'Second thread', status: 'done', createdAt: 2 }],
    });
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: 'agent-console-kit:v1:default:thread:b' }),
      );
    });
    await waitFor(() => expect(threadTitles()).toEqual(['Second thread', 'First thread']));

    fireEvent.click(screen.getByRole('button', { name: 'First thread' }));
    const messages = await screen.findByRole('list', { name: 'messages' });
    await waitFor(() => expect(within(messages).getByText('First thread')).toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Second thread' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'messages' })).getByText('Second thread'),
      ).toBeInTheDocument(),
    );
    expect(
      within(screen.getByRole('list', { name: 'messages' })).queryByText('First thread'),
    ).toBeNull();
  });
});
