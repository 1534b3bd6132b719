/**
 * Edit, regenerate and versions in the console, by keyboard, under StrictMode, against the mock
 * service on a real socket.
 */
import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentClientProvider, createAgentClient } from 'agent-console-kit';
import { AgentConsole } from 'agent-console-kit/console';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';

let server: MockAgentServer;

beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await server.waitFor(() => server.openStreams === 0);
  server.reset();
});

function renderConsole(agentId: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createAgentClient({ baseUrl: server.url, api: 'platform' });
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>
          <AgentConsole agentId={agentId} />
        </AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const items = () =>
  screen
    .queryAllByRole('listitem')
    .filter(
      (item) =>
        item.getAttribute('data-role') === 'user' || item.getAttribute('data-role') === 'agent',
    );
const texts = () => items().map((item) => item.querySelector('.ack-thread__text')?.textContent);

async function focus(user: UserEvent, element: HTMLElement) {
  for (let presses = 0; document.activeElement !== element && presses < 60; presses++) {
    await user.tab({ shift: true });
  }
  expect(element).toHaveFocus();
}

async function settled(count: number) {
  await waitFor(() => expect(items()).toHaveLength(count));
  await waitFor(() => expect(items().at(-1)).toHaveAttribute('data-status', 'done'));
}

describe('given three turns with the chat agent', () => {
  it('edits the second question by keyboard, moves between versions with the old turns intact, announces each change once, regenerates; axe clean', async () => {
    const user = userEvent.setup();
    const { container } = renderConsole('chat-agent');
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.click(box);
    for (const [index, question] of ['One?', 'Two?', 'Three?'].entries()) {
      await user.keyboard(`${question}{Enter}`);
      await settled((index + 1) * 2);
    }
    const before = texts();
    const thread = screen.getByRole('region', { name: /^Conversation with/ });
    const announcer = within(thread).getByRole('status');
    const heard: string[] = [];
    const observer = new MutationObserver(() => heard.push(announcer.textContent ?? ''));
    observer.observe(announcer, { childList: true, characterData: true, subtree: true });

    const second = items()[2] as HTMLElement;
    await focus(user, within(second).getByRole('button', { name: 'Edit your message' }));
    await user.keyboard('{Enter}');
    await user.clear(screen.getByRole('textbox', { name: 'Edit your message' }));
    await user.keyboard('Two, better?{Enter}');
    await settled(4);

    expect(texts().slice(0, 3)).toEqual(['One?', before[1], 'Two, better?']);
    expect(texts()[3]).toContain('Two, better?');
    const versions = within(items()[2] as HTMLElement).getByRole('group', { name: 'Versions' });
    expect(versions).toHaveTextContent('Version 2 of 2');
    expect(within(versions).getByRole('button', { name: 'Next version' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );

    const previous = within(versions).getByRole('button', { name: 'Previous version' });
    await focus(user, previous);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(texts()).toEqual(before));
    expect(previous).toHaveFocus();
    expect(versions).toHaveTextContent('Version 1 of 2');
    await waitFor(() => expect(announcer).toHaveTextContent('Version 1 of 2'));

    const next = within(versions).getByRole('button', { name: 'Next version' });
    await user.tab();
    expect(next).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(texts()).toHaveLength(4));
    await waitFor(() => expect(announcer).toHaveTextContent('Version 2 of 2'));
    expect(heard.filter((text) => text.startsWith('Version'))).toEqual([
      'Version 1 of 2',
      'Version 2 of 2',
    ]);
    expect((await axe.run(container)).violations).toEqual([]);

    const lastAnswer = items()[3] as HTMLElement;
    const oldAnswer = texts()[3];
    await focus(user, within(lastAnswer).getByRole('button', { name: 'Regenerate this answer' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(server.postCount('chat-agent')).toBe(5));
    await settled(4);
    const answerVersions = within(items()[3] as HTMLElement).getByRole('group', {
      name: 'Versions',
    });
    expect(answerVersions).toHaveTextContent('Version 2 of 2');
    await user.click(within(answerVersions).getByRole('button', { name: 'Previous version' }));
    await waitFor(() => expect(texts()[3]).toBe(oldAnswer));
    observer.disconnect();
  });
});

describe('given a turn being written', () => {
  it('Edit, then Save and send, stops it and sends the edit in one step; the stopped turn is version 1', async () => {
    const user = userEvent.setup();
    renderConsole('slow-chat-agent');
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.click(box);
    await user.keyboard('First?{Enter}');
    await waitFor(() => expect(items()[1]).toHaveAttribute('data-status', 'streaming'));

    await focus(
      user,
      within(items()[0] as HTMLElement).getByRole('button', { name: 'Edit your message' }),
    );
    await user.keyboard('{Enter}');
    await user.clear(screen.getByRole('textbox', { name: 'Edit your message' }));
    await user.keyboard('First, again?{Enter}');

    await waitFor(() => expect(server.postCount('slow-chat-agent')).toBe(2));
    await waitFor(() => expect(items()[1]).toHaveTextContent(/First, again\?/));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(items()[1]).toHaveAttribute('data-status', 'stopped'));
    expect(texts()[0]).toBe('First, again?');
    expect(screen.queryByRole('alert')).toBeNull();
    const versions = within(items()[0] as HTMLElement).getByRole('group', { name: 'Versions' });
    await user.click(within(versions).getByRole('button', { name: 'Previous version' }));
    await waitFor(() => expect(texts()[0]).toBe('First?'));
    expect(items()[1]).toHaveAttribute('data-status', 'stopped');
  });
});
