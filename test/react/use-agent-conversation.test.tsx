import { StrictMode, useState, type ReactNode } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  useAgentConversation,
  type AgentClient,
  type ConversationMessage,
  type UseAgentConversationOptions,
  type UseAgentConversationResult,
} from 'agent-console-kit';
import type { AgentApi, AgentConversation } from 'agent-console-kit/core';
import { textEvents, type MockRunScenario } from 'agent-console-kit/testing';
import { serveChat } from '../support/mock-server.js';

const echo: MockRunScenario = {
  eventsFor: (request) => textEvents(`Answer to ${request.messages.at(-1)?.text}`),
};

function Wrapper({ client, children }: { client: AgentClient; children: ReactNode }) {
  return (
    <StrictMode>
      <AgentClientProvider client={client}>{children}</AgentClientProvider>
    </StrictMode>
  );
}

function Chat(
  props: UseAgentConversationOptions & { onResult?: (result: UseAgentConversationResult) => void },
) {
  const { onResult, ...options } = props;
  const chat = useAgentConversation({ agentId: 'chat', ...options });
  onResult?.(chat);
  return (
    <div>
      <button type="button" onClick={() => void chat.send('Hello?')}>
        Send
      </button>
      <button type="button" onClick={chat.stop}>
        Stop
      </button>
      <p data-testid="status">{chat.status}</p>
      <ol>
        {chat.messages.map((message) => (
          <li key={message.id}>{`${message.role} ${message.status}: ${message.text}`}</li>
        ))}
      </ol>
    </div>
  );
}

describe.each<AgentApi>(['rest-v1', 'platform'])('on %s under StrictMode', (api) => {
  it('sends exactly one POST per send() and shows the turn', async () => {
    const mock = await serveChat(echo);
    const client = createAgentClient({ baseUrl: mock.url, api });
    render(
      <Wrapper client={client}>
        <Chat />
      </Wrapper>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('GLEAN_AI done: Answer to Hello?')).toBeInTheDocument();
    expect(screen.getByText('USER done: Hello?')).toBeInTheDocument();
    expect(screen.getByTestId('status')).toHaveTextContent('idle');
    expect(mock.postCount('chat')).toBe(1);
  });

  it('stops the turn when the component unmounts: the server sees the socket close', async () => {
    const mock = await serveChat({ events: textEvents('a b c'), delayMs: 50, neverEnd: true });
    const client = createAgentClient({ baseUrl: mock.url, api });
    const { unmount } = render(
      <Wrapper client={client}>
        <Chat />
      </Wrapper>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText(/GLEAN_AI streaming: a/);

    unmount();

    await mock.waitFor(() => mock.runRequests('chat')[0]?.closedByClient === true);
    expect(mock.postCount('chat')).toBe(1);
  });
});

describe('given new inline callbacks every render', () => {
  it('keeps the actions stable and calls the newest onMessagesChange', async () => {
    const mock = await serveChat(echo);
    const client = createAgentClient({ baseUrl: mock.url });
    const results: UseAgentConversationResult[] = [];
    const calls: string[] = [];
    function Parent() {
      const [label, setLabel] = useState('first');
      return (
        <>
          <button type="button" onClick={() => setLabel('second')}>
            Relabel
          </button>
          <Chat
            onResult={(result) => results.push(result)}
            onMessagesChange={(messages: readonly ConversationMessage[]) =>
              calls.push(`${label}:${messages.length}`)
            }
          />
        </>
      );
    }
    render(
      <Wrapper client={client}>
        <Parent />
      </Wrapper>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Relabel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('GLEAN_AI done: Answer to Hello?');

    expect(calls).toEqual(['second:2']);
    const first = results[0];
    const last = results.at(-1);
    expect(last?.send).toBe(first?.send);
    expect(last?.stop).toBe(first?.stop);
    expect(last?.retry).toBe(first?.retry);
    expect(last?.edit).toBe(first?.edit);
    expect(last?.clear).toBe(first?.clear);
    expect(last?.conversation).toBe(first?.conversation);
  });
});

describe('given one conversation shared by two components', () => {
  it('shows in one the turn sent from the other, and the sharer’s unmount does not stop it', async () => {
    const mock = await serveChat({ ...echo, delayMs: 30 });
    const client = createAgentClient({ baseUrl: mock.url });
    function Transcript({ conversation }: { conversation: AgentConversation }) {
      const chat = useAgentConversation({ conversation });
      return (
        <p data-testid="transcript">{chat.messages.map((message) => message.text).join(' | ')}</p>
      );
    }
    function Page() {
      const [shown, setShown] = useState(true);
      const chat = useAgentConversation({ agentId: 'chat' });
      return (
        <>
          <button type="button" onClick={() => void chat.send('Shared?')}>
            Send
          </button>
          <button type="button" onClick={() => setShown(false)}>
            Hide
          </button>
          {shown ? <Transcript conversation={chat.conversation} /> : null}
          <p data-testid="owner">{chat.messages.at(-1)?.status}</p>
        </>
      );
    }
    render(
      <Wrapper client={client}>
        <Page />
      </Wrapper>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByTestId('transcript')).toHaveTextContent(/Shared\? \| Answer/),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));

    await waitFor(() => expect(screen.getByTestId('owner')).toHaveTextContent('done'));
    expect(mock.postCount('chat')).toBe(1);
  });
});
