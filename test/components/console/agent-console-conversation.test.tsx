import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgentClient, type ConversationMessage } from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import type { AgentConsoleProps } from 'agent-console-kit/console';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';
import { renderAgentConsole } from '../../support/console.js';

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

function renderConsole(agentId: string, api: AgentApi, props: Partial<AgentConsoleProps> = {}) {
  const client = createAgentClient({ baseUrl: server.url, api });
  // The developer's view: these tests choose answers to see in the log.
  return renderAgentConsole(client, { agentId, showEventLog: true, ...props });
}

const items = (role: 'user' | 'agent') =>
  screen.queryAllByRole('listitem').filter((item) => item.getAttribute('data-role') === role);
const sentMessages = (agentId: string) =>
  server.runRequests(agentId).map((request) => (request.body as { messages: unknown }).messages);

describe.each<AgentApi>(['rest-v1', 'platform'])('given the chat agent on %s', (api) => {
  it('keeps every question and answer, sends the history, and logs the chosen turn’s run', async () => {
    const user = userEvent.setup();
    const saved: (readonly ConversationMessage[])[] = [];
    const { container } = renderConsole('chat-agent', api, {
      onMessagesChange: (messages) => saved.push(messages),
    });
    const box = await screen.findByRole('textbox', { name: 'Message' });

    await user.type(box, 'Where is my laptop?{Enter}');
    await waitFor(() => expect(items('agent')[0]).toHaveAttribute('data-status', 'done'));
    await user.type(box, 'And the charger?{Enter}');
    await waitFor(() => expect(items('agent')[1]).toHaveAttribute('data-status', 'done'));

    expect(items('user').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Where is my laptop?'),
      expect.stringContaining('And the charger?'),
    ]);
    expect(items('agent')[1]).toHaveTextContent(
      'your first question was "Where is my laptop?", and now you ask "And the charger?"',
    );
    expect(sentMessages('chat-agent')[1]).toHaveLength(3);
    expect(saved).toHaveLength(2);
    expect(box).toHaveFocus();

    // The log shows the last turn's run by default; "Show run" on the first answer shows that one.
    const log = screen.getByRole('region', { name: 'Run events' });
    expect(log).toHaveAttribute('data-status', 'done');
    const first = within(items('agent')[0] as HTMLElement).getByRole('button', {
      name: 'Show run events of this answer',
    });
    await user.click(first);
    expect(first).toHaveAttribute('aria-pressed', 'true');
    expect(items('agent')[0]).toHaveAttribute('data-selected', '');
    expect(screen.getByRole('region', { name: 'Run events of the chosen answer' })).toBeVisible();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('restores a saved thread and continues it', async () => {
    const user = userEvent.setup();
    renderConsole('chat-agent', api, {
      initialMessages: [
        { id: 'u1', role: 'USER', text: 'Saved question', status: 'done', createdAt: 1 },
        { id: 'a1', role: 'GLEAN_AI', text: 'Saved answer', status: 'done', createdAt: 2 },
      ],
    });

    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Next{Enter}');

    await waitFor(() => expect(items('agent')[1]).toHaveAttribute('data-status', 'done'));
    // Only an answer written in this session has a run to show.
    const showRun = { name: 'Show run events of this answer' };
    expect(within(items('agent')[0] as HTMLElement).queryByRole('button', showRun)).toBeNull();
    expect(within(items('agent')[1] as HTMLElement).getByRole('button', showRun)).toBeVisible();
    expect(sentMessages('chat-agent')[0]).toEqual([
      { role: 'USER', content: [{ type: 'text', text: 'Saved question' }] },
      { role: 'GLEAN_AI', content: [{ type: 'text', text: 'Saved answer' }] },
      { role: 'USER', content: [{ type: 'text', text: 'Next' }] },
    ]);
  });

  it('offers no "Show run" on an answer whose run brought no event (a refused run)', async () => {
    const user = userEvent.setup();
    renderConsole('tool-auth-agent', api);

    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Go{Enter}');

    await waitFor(() => expect(items('agent')[0]).toHaveAttribute('data-status', 'error'));
    // The explanation loads when the first error shows.
    expect(await screen.findByRole('alert')).toHaveTextContent('Tools need authorizing');
    expect(
      within(items('agent')[0] as HTMLElement).queryByRole('button', {
        name: 'Show run events of this answer',
      }),
    ).toBeNull();
  });
});

describe('given the form agent', () => {
  it('keeps a run history with every field as sent, and Run again fills the form', async () => {
    const user = userEvent.setup();
    const { container } = renderConsole('form-agent', 'platform');
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'New office');
    fireEvent.change(screen.getByLabelText(/^Due date/), { target: { value: '2026-05-01' } });
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const history = await screen.findByRole('region', { name: 'Run history' });
    const run = await within(history).findByRole('listitem', { name: /^Run 1: Done/ });
    const input = within(run)
      .getAllByRole('definition')
      .map((cell) => cell.textContent);
    expect(input).toEqual([
      'New office',
      '(empty)',
      '(empty)',
      '3',
      'false',
      'medium',
      '2026-05-01',
      '(empty)',
    ]);
    expect(run).toHaveTextContent('Thanks, the project intake is filed.');
    expect(run).toHaveTextContent(/took \d+\.\d s/);
    expect((await axe.run(container)).violations).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('');
    await user.click(
      within(run).getByRole('button', { name: 'Run again with the input of run 1' }),
    );

    expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('New office');
    expect(screen.getByLabelText(/^Due date/)).toHaveValue('2026-05-01');
  });
});

describe('given a long saved thread', () => {
  const saved = Array.from({ length: 30 }, (_, index): ConversationMessage => ({
    id: `m${index}`,
    role: index % 2 === 0 ? 'USER' : 'GLEAN_AI',
    text: `Saved message ${index}`,
    status: 'done',
    createdAt: index,
  }));

  it('passes visibleMessages and earlierPageSize to the thread', async () => {
    const user = userEvent.setup();
    renderConsole('chat-agent', 'rest-v1', {
      initialMessages: saved,
      visibleMessages: 10,
      earlierPageSize: 5,
    });
    const log = await screen.findByRole('log', { name: 'Messages' });
    expect(within(log).getAllByRole('listitem')).toHaveLength(10);

    await user.click(screen.getByRole('button', { name: 'Show 5 earlier messages' }));

    expect(within(log).getAllByRole('listitem')).toHaveLength(15);
    expect(
      screen.getByRole('button', { name: 'Show 5 earlier messages' }),
    ).toHaveAccessibleDescription('15 earlier messages not shown');
  });
});
