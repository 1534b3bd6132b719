import { StrictMode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentClientProvider,
  AgentThread,
  AgentThreadComposer,
  createAgentClient,
  useAgentConversation,
  type ConversationMessage,
} from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import {
  runFailedEvent,
  textEvents,
  type MockAgentServer,
  type MockRunScenario,
} from 'agent-console-kit/testing';
import { serveChat } from '../support/mock-server.js';

const echo: MockRunScenario = {
  eventsFor: (request) => textEvents(`Answer to ${request.messages.at(-1)?.text}`),
};

function Chat({ initialMessages }: { initialMessages?: ConversationMessage[] }) {
  const chat = useAgentConversation({ agentId: 'chat', initialMessages });
  return (
    <main>
      <AgentThread
        agentName="Helpdesk"
        messages={chat.messages}
        status={chat.status}
        reconnectReason={chat.run.reconnectReason}
        nextAttemptAt={chat.run.nextAttemptAt}
        onRetry={() => void chat.retry()}
        onEdit={(id, text) => void chat.edit(id, text)}
      />
      <AgentThreadComposer
        status={chat.status}
        onSend={(text) => void chat.send(text)}
        onStop={chat.stop}
      />
    </main>
  );
}

function renderChat(mock: MockAgentServer, api: AgentApi, initialMessages?: ConversationMessage[]) {
  const client = createAgentClient({ baseUrl: mock.url, api });
  return render(
    <StrictMode>
      <AgentClientProvider client={client}>
        <Chat initialMessages={initialMessages} />
      </AgentClientProvider>
    </StrictMode>,
  );
}

const messageItems = () =>
  within(screen.getByRole('log', { name: 'Messages' })).queryAllByRole('listitem');
const sentMessages = (mock: MockAgentServer) =>
  mock.runRequests('chat').map((request) => (request.body as { messages: unknown }).messages);

describe.each<AgentApi>(['rest-v1', 'platform'])('on %s, under StrictMode', (api) => {
  it('keeps the question visible, labels who said what, keeps focus in the composer; axe clean', async () => {
    const mock = await serveChat(echo);
    const user = userEvent.setup();
    const { container } = renderChat(mock, api);
    const box = screen.getByRole('textbox', { name: 'Message' });

    await user.click(box);
    await user.keyboard('First question{Enter}');
    await screen.findByRole('listitem', { name: 'Helpdesk answered' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument());
    await user.keyboard('Second{Shift>}{Enter}{/Shift}line{Enter}');
    await waitFor(() => expect(messageItems()).toHaveLength(4));
    await waitFor(() => expect(messageItems()[3]).toHaveAttribute('data-status', 'done'));

    expect(messageItems().map((item) => item.getAttribute('aria-labelledby') !== null)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(screen.getAllByRole('listitem', { name: 'You said' })).toHaveLength(2);
    expect(messageItems()[0]).toHaveTextContent('First question');
    expect(messageItems()[0]).toHaveAttribute('data-role', 'user');
    expect(messageItems()[1]).toHaveAttribute('data-role', 'agent');
    expect(messageItems()[2]?.textContent).toContain('Second\nline');
    expect(messageItems()[3]).toHaveTextContent('Answer to Second line');
    expect(box).toHaveFocus();
    expect(box).toHaveValue('');
    expect(mock.postCount('chat')).toBe(2);
    expect(sentMessages(mock)[1]).toHaveLength(3);
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('announces a finished answer once in a polite live region, not token by token', async () => {
    const mock = await serveChat({ events: textEvents('one two three four'), delayMs: 40 });
    const user = userEvent.setup();
    renderChat(mock, api);
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    const texts: string[] = [];
    const observer = new MutationObserver(() => texts.push(region.textContent ?? ''));
    observer.observe(region, { childList: true, characterData: true, subtree: true });

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Go{Enter}');
    await waitFor(() => expect(region).toHaveTextContent('Helpdesk answered: one two three four'));
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'typing on');
    observer.disconnect();

    expect(texts).toEqual(['Helpdesk answered: one two three four']);
  });

  it('works by keyboard only: type, Enter, Escape stops, Retry, Edit', async () => {
    const mock = await serveChat({
      eventsFor: (request) =>
        textEvents(`Slow answer to ${request.messages.at(-1)?.text} with more words`),
      delayMs: 120,
    });
    const user = userEvent.setup();
    renderChat(mock, api);
    await user.tab();
    // The log is focusable (a scrollable region), then the composer.
    await user.tab();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();

    await user.keyboard('Hello{Enter}');
    await waitFor(() => expect(messageItems()[1]).toHaveTextContent(/Slow/));
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(messageItems()[1]).toHaveAttribute('data-status', 'stopped'));
    expect(messageItems()[1]).toHaveTextContent('Stopped.');

    const retry = screen.getByRole('button', { name: 'Retry' });
    while (document.activeElement !== retry) await user.tab({ shift: true });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(messageItems()[1]).toHaveAttribute('data-status', 'done'), {
      timeout: 10_000,
    });
    expect(mock.postCount('chat')).toBe(2);
    expect(messageItems()).toHaveLength(2);

    const edit = screen.getByRole('button', { name: 'Edit your message' });
    while (document.activeElement !== edit) await user.tab({ shift: true });
    await user.keyboard('{Enter}');
    const editor = screen.getByRole('textbox', { name: 'Edit your message' });
    expect(editor).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit your message' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.clear(screen.getByRole('textbox', { name: 'Edit your message' }));
    await user.keyboard('Hi again{Enter}');
    await waitFor(() => expect(mock.postCount('chat')).toBe(3));
    expect(sentMessages(mock)[2]).toEqual([
      { role: 'USER', content: [{ type: 'text', text: 'Hi again' }] },
    ]);
    expect(messageItems()[0]).toHaveTextContent('Hi again');
  });
});

describe('given a durable turn that pauses for approval', () => {
  it('announces nothing while it waits, and the answer once when it is done', async () => {
    const turn = (status: ConversationMessage['status'], text: string): ConversationMessage[] => [
      { id: 'q', role: 'USER', text: 'Tell me on Slack', status: 'done', createdAt: 1 },
      { id: 'a', role: 'GLEAN_AI', text, status, createdAt: 2 },
    ];
    const view = (messages: ConversationMessage[]) => (
      <StrictMode>
        <AgentThread agentName="Helpdesk" messages={messages} />
      </StrictMode>
    );
    const { rerender } = render(view(turn('streaming', 'I drafted')));
    const region = screen.getByRole('status');
    const texts: string[] = [];
    const observer = new MutationObserver(() => texts.push(region.textContent ?? ''));
    observer.observe(region, { childList: true, characterData: true, subtree: true });

    rerender(view(turn('waiting', 'I drafted the message.')));
    expect(region).toBeEmptyDOMElement();
    rerender(view(turn('streaming', 'I drafted the message.')));
    rerender(view(turn('done', 'I drafted the message. Sent.')));
    await waitFor(() =>
      expect(region).toHaveTextContent('Helpdesk answered: I drafted the message. Sent.'),
    );
    observer.disconnect();

    expect(texts).toEqual(['Helpdesk answered: I drafted the message. Sent.']);
  });
});

describe('given a durable turn waiting for approval, shown by AgentThread alone', () => {
  it('says visibly on the answer that it waits, and no longer once it goes on', () => {
    const messages = (status: ConversationMessage['status']): ConversationMessage[] => [
      { id: 'q', role: 'USER', text: 'Tell me on Slack', status: 'done', createdAt: 1 },
      { id: 'a', role: 'GLEAN_AI', text: 'I drafted the message.', status, createdAt: 2 },
    ];
    const { rerender } = render(
      <StrictMode>
        <AgentThread agentName="Helpdesk" messages={messages('waiting')} />
      </StrictMode>,
    );
    const answer = screen.getAllByRole('listitem')[1];
    expect(answer).toHaveAttribute('data-status', 'waiting');
    expect(
      within(answer as HTMLElement).getByText('The answer is waiting for your approval.'),
    ).toBeVisible();

    rerender(
      <StrictMode>
        <AgentThread agentName="Helpdesk" messages={messages('done')} />
      </StrictMode>,
    );
    expect(screen.queryByText('The answer is waiting for your approval.')).toBeNull();
  });
});

describe('given a failed turn', () => {
  it('marks the answer with the error and offers Retry on it', async () => {
    const mock = await serveChat({ ...echo, failFirst: { attempts: 1, status: 403 } });
    const user = userEvent.setup();
    const { container } = renderChat(mock, 'platform');

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Allowed?{Enter}');

    await waitFor(() => expect(messageItems()[1]).toHaveAttribute('data-status', 'error'));
    expect(messageItems()[1]).toHaveTextContent('No answer: the service answered 403.');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Helpdesk’s answer failed: the service answered 403.',
    );
    // Said in words: the request URL of the technical message stays out of the thread.
    expect(messageItems()[1]).not.toHaveTextContent('/api/');
    expect((await axe.run(container)).violations).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(messageItems()[1]).toHaveTextContent('Answer to Allowed?'));
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});

describe('given an answer that fails partway', () => {
  it('keeps what came, says it stopped partway and why, and announces it so', async () => {
    const mock = await serveChat({
      events: [...textEvents('Half of'), runFailedEvent({ title: 'Tool crashed' })],
    });
    const user = userEvent.setup();
    renderChat(mock, 'platform');

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Go{Enter}');

    await waitFor(() => expect(messageItems()[1]).toHaveAttribute('data-status', 'error'));
    expect(messageItems()[1]).toHaveTextContent('Half of');
    expect(messageItems()[1]).toHaveTextContent(
      'The answer stopped partway: the service answered 500.',
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Helpdesk’s answer stopped partway: the service answered 500.',
    );
  });
});

describe('given failed answers restored', () => {
  it('says why each failed in words, whatever the kind of error', () => {
    const failed = (
      id: string,
      text: string,
      error?: ConversationMessage['error'],
    ): ConversationMessage[] => [
      { id: `q${id}`, role: 'USER', text: 'Q', status: 'done', createdAt: 1 },
      { id, role: 'GLEAN_AI', text, status: 'error', error, createdAt: 2 },
    ];
    render(
      <StrictMode>
        <AgentThread
          messages={[
            ...failed('a1', '', { kind: 'network', message: 'fetch failed: https://x/api/' }),
            ...failed('a2', 'Some', { kind: 'validation', message: 'Expected string at /api/' }),
            ...failed('a3', '', { kind: 'input', message: 'The input lacks the field topic.' }),
            ...failed('a4', 'More'),
            ...failed('a5', '', { kind: 'http', message: 'HTTP 500 from /api/' }),
          ]}
          status="idle"
          onRetry={() => undefined}
        />
      </StrictMode>,
    );

    const answers = messageItems().filter((_, index) => index % 2 === 1);
    expect(answers.map((item) => item.querySelector('.ack-thread__error')?.textContent)).toEqual([
      'No answer: the connection to the service broke off.',
      'The answer stopped partway: the service sent something unexpected.',
      'No answer: The input lacks the field topic.',
      'The answer stopped partway: the run failed.',
      'No answer: the service answered with an error.',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});

describe('given a 429 with Retry-After', () => {
  it('says in the answer being written that the service asked to wait, then answers', async () => {
    const mock = await serveChat({
      ...echo,
      failFirst: { attempts: 1, status: 429, retryAfter: '1' },
    });
    const user = userEvent.setup();
    renderChat(mock, 'platform');

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Busy?{Enter}');

    await waitFor(() =>
      expect(messageItems()[1]).toHaveTextContent(
        /The service asked to wait \(429\): trying again/,
      ),
    );
    await waitFor(() => expect(messageItems()[1]).toHaveTextContent('Answer to Busy?'));
    expect(mock.postCount('chat')).toBe(2);
  });
});

describe('given a restored thread', () => {
  it('shows it, announces nothing, and offers Edit on each USER message', async () => {
    const mock = await serveChat(echo);
    renderChat(mock, 'rest-v1', [
      { id: 'u1', role: 'USER', text: 'Old <b>question</b>', status: 'done', createdAt: 1 },
      {
        id: 'a1',
        role: 'GLEAN_AI',
        text: '<img src=x onerror=alert(1)>',
        status: 'done',
        createdAt: 2,
      },
      { id: 'u2', role: 'USER', text: 'Newer', status: 'done', createdAt: 3 },
      { id: 'a2', role: 'GLEAN_AI', text: 'Cut', status: 'stopped', createdAt: 4 },
    ]);

    expect(messageItems()).toHaveLength(4);
    expect(messageItems()[1]).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('');
    expect(screen.getAllByRole('button', { name: 'Edit your message' })).toHaveLength(2);
    for (const index of [0, 2]) {
      expect(
        within(messageItems()[index] as HTMLElement).getByRole('button', {
          name: 'Edit your message',
        }),
      ).toBeInTheDocument();
    }
    expect(screen.getAllByRole('button', { name: 'Copy the answer' })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('copies an answer as plain text', async () => {
    const mock = await serveChat(echo);
    const user = userEvent.setup(); // installs a clipboard stub in jsdom
    renderChat(mock, 'rest-v1', [
      { id: 'u1', role: 'USER', text: 'Q', status: 'done', createdAt: 1 },
      { id: 'a1', role: 'GLEAN_AI', text: 'Line one\n<b>two</b>', status: 'done', createdAt: 2 },
    ]);

    await user.click(screen.getByRole('button', { name: 'Copy the answer' }));

    expect(await screen.findByRole('button', { name: 'Copied the answer' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('Line one\n<b>two</b>');
  });
});

describe('given renderText', () => {
  it('renders the answers through it and leaves the person’s messages as plain text', () => {
    const messages: ConversationMessage[] = [
      { id: 'q', role: 'USER', text: '**not bold**', status: 'done', createdAt: 1 },
      { id: 'a', role: 'GLEAN_AI', text: '**bold**', status: 'done', createdAt: 2 },
    ];
    render(
      <StrictMode>
        <AgentThread
          agentName="Helpdesk"
          messages={messages}
          renderText={(text) => <strong data-rendered="">{text.replaceAll('*', '')}</strong>}
        />
      </StrictMode>,
    );

    const answer = screen.getByRole('listitem', { name: /Helpdesk answered/ });
    expect(within(answer).getByText('bold')).toHaveAttribute('data-rendered');
    const question = screen.getByRole('listitem', { name: /You said/ });
    expect(within(question).getByText('**not bold**')).not.toHaveAttribute('data-rendered');
    expect(question.querySelector('[data-rendered]')).toBeNull();
  });
});

describe('given the thread composer and an input method', () => {
  it('sends on Enter, not on Shift+Enter nor on the Enter that ends a composition', () => {
    const onSend = vi.fn();
    render(
      <StrictMode>
        <AgentThreadComposer onSend={onSend} onStop={() => {}} />
      </StrictMode>,
    );
    const text = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(text, { target: { value: 'にほんご' } });

    fireEvent.keyDown(text, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(text, { key: 'Enter', keyCode: 229 });
    fireEvent.keyDown(text, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();

    fireEvent.keyDown(text, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledExactlyOnceWith('にほんご');
  });
});

describe('given a thread longer than visibleMessages', () => {
  function longThread(count: number, lastStatus: ConversationMessage['status'] = 'done') {
    return Array.from({ length: count }, (_, index): ConversationMessage => {
      const user = index % 2 === 0;
      return {
        id: `m${index}`,
        role: user ? 'USER' : 'GLEAN_AI',
        text: user ? `Question at ${index}` : `Answer at ${index}`,
        status: index === count - 1 ? lastStatus : 'done',
        createdAt: index,
      };
    });
  }
  const shownItems = () =>
    within(screen.getByRole('log', { name: 'Messages' })).getAllByRole('listitem');

  it('shows the newest 100 and a button that says how many are not shown; axe clean', async () => {
    const { container } = render(
      <StrictMode>
        <AgentThread
          messages={longThread(251, 'error')}
          onRetry={() => undefined}
          onEdit={() => undefined}
        />
      </StrictMode>,
    );

    expect(shownItems()).toHaveLength(100);
    expect(shownItems()[0]).toHaveTextContent('Answer at 151');
    expect(shownItems()[99]).toHaveTextContent('Question at 250');
    const button = screen.getByRole('button', { name: 'Show 50 earlier messages' });
    expect(button).toHaveAccessibleDescription('151 earlier messages not shown');
    // The last message's actions are the thread's, not the window's.
    expect(screen.getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
    expect(
      within(shownItems()[98] as HTMLElement).queryByRole('button', { name: 'Retry' }),
    ).toBeNull();
    // Each USER message shown can be edited (issue 29: the turns after it become a version).
    expect(screen.getAllByRole('button', { name: 'Edit your message' })).toHaveLength(50);
    expect(
      within(shownItems()[99] as HTMLElement).getByRole('button', { name: 'Edit your message' }),
    ).toBeInTheDocument();
    expect(
      within(shownItems()[98] as HTMLElement).queryByRole('button', { name: 'Edit your message' }),
    ).toBeNull();
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('reveals a page per press by keyboard only, then the last few, and focus goes to the thread', async () => {
    const user = userEvent.setup();
    render(
      <StrictMode>
        <AgentThread messages={longThread(230)} />
      </StrictMode>,
    );

    await user.tab();
    expect(screen.getByRole('log', { name: 'Messages' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Show 50 earlier messages' })).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(shownItems()).toHaveLength(150);
    expect(shownItems()[0]).toHaveTextContent('Question at 80');
    const button = screen.getByRole('button', { name: 'Show 50 earlier messages' });
    expect(button).toHaveFocus();
    expect(button).toHaveAccessibleDescription('80 earlier messages not shown');

    await user.keyboard(' ');
    expect(shownItems()).toHaveLength(200);
    expect(screen.getByRole('button', { name: 'Show 30 earlier messages' })).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(shownItems()).toHaveLength(230);
    expect(shownItems()[0]).toHaveTextContent('Question at 0');
    expect(screen.queryByRole('button', { name: /earlier message/ })).toBeNull();
    expect(screen.getByRole('log', { name: 'Messages' })).toHaveFocus();
  });

  it('keeps the newest in the window when a turn arrives, keeps revealed pages, and starts over when cleared', async () => {
    const user = userEvent.setup();
    const view = (messages: ConversationMessage[]) => (
      <StrictMode>
        <AgentThread messages={messages} status="idle" />
      </StrictMode>
    );
    const { rerender } = render(view(longThread(120)));
    expect(shownItems()).toHaveLength(100);

    rerender(view(longThread(122, 'streaming')));
    expect(shownItems()).toHaveLength(100);
    expect(shownItems()[0]).toHaveTextContent('Question at 22');
    expect(shownItems()[99]).toHaveTextContent('Answer at 121');
    expect(screen.getByRole('button', { name: 'Show 22 earlier messages' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show 22 earlier messages' }));
    expect(shownItems()).toHaveLength(122);
    rerender(view(longThread(124)));
    expect(shownItems()).toHaveLength(122);
    expect(shownItems()[0]).toHaveTextContent('Question at 2');
    expect(shownItems()[121]).toHaveTextContent('Answer at 123');
    expect(
      screen.getByRole('button', { name: 'Show 2 earlier messages' }),
    ).toHaveAccessibleDescription('2 earlier messages not shown');

    rerender(view([]));
    expect(screen.getByText('No messages yet.')).toBeInTheDocument();
    rerender(view(longThread(124)));
    expect(shownItems()).toHaveLength(100);
  });

  it('shows every message with visibleMessages={Infinity}, and pages of earlierPageSize', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <StrictMode>
        <AgentThread messages={longThread(300)} visibleMessages={Infinity} />
      </StrictMode>,
    );
    expect(shownItems()).toHaveLength(300);
    expect(screen.queryByRole('button', { name: /earlier message/ })).toBeNull();

    rerender(
      <StrictMode>
        <AgentThread messages={longThread(300)} visibleMessages={10} earlierPageSize={1} />
      </StrictMode>,
    );
    expect(shownItems()).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Show 1 earlier message' }));
    expect(shownItems()).toHaveLength(11);
    expect(
      screen.getByRole('button', { name: 'Show 1 earlier message' }),
    ).toHaveAccessibleDescription('289 earlier messages not shown');
  });
});
