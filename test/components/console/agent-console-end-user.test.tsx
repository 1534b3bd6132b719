import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import type { AgentConsoleProps } from 'agent-console-kit/console';
import { setUpMockServer } from '../../support/mock-server.js';
import { renderAgentConsole } from '../../support/console.js';

// A console embedded for end users: no developer event log unless the app asks for it.
const server = setUpMockServer();

afterEach(async () => {
  await server.waitFor(() => server.openStreams === 0);
});

function renderConsole(agentId: string, props: Partial<AgentConsoleProps> = {}) {
  return renderAgentConsole(createAgentClient({ baseUrl: server.url }), { agentId, ...props });
}

const answers = () =>
  screen.queryAllByRole('listitem').filter((item) => item.getAttribute('data-role') === 'agent');

describe('given a chat console with the default props', () => {
  it('answers the turn with no event log and no "Show run" on the answer', async () => {
    const user = userEvent.setup();
    const { container } = renderConsole('chat-agent');

    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Hello{Enter}');
    await waitFor(() => expect(answers()[0]).toHaveAttribute('data-status', 'done'));

    expect(answers()[0]).toHaveTextContent('You asked "Hello"');
    expect(screen.queryByRole('region', { name: /^Run events/ })).toBeNull();
    expect(screen.queryByRole('log', { name: 'Run events' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Show run events of this answer' })).toBeNull();
    expect(server.postCount('chat-agent')).toBe(1);
    expect((await axe.run(container)).violations).toEqual([]);
  });
});

describe('given a form console with the default props', () => {
  it('shows the output of the run and no event log', async () => {
    const user = userEvent.setup();
    renderConsole('form-agent');

    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'New website');
    await user.type(screen.getByLabelText(/^Due date/), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const output = await screen.findByRole('region', { name: 'Agent output' });
    await waitFor(() => expect(output).toHaveTextContent('ready for review'));
    expect(screen.queryByRole('region', { name: /^Run events/ })).toBeNull();
    expect(server.postCount('form-agent')).toBe(1);
  });
});

describe('given showEventLog (the developer’s console)', () => {
  it('shows the log of the run and a "Show run" on the answer', async () => {
    const user = userEvent.setup();
    renderConsole('chat-agent', { showEventLog: true });

    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Hello{Enter}');
    await waitFor(() => expect(answers()[0]).toHaveAttribute('data-status', 'done'));

    expect(screen.getByRole('region', { name: 'Run events' })).toHaveAttribute(
      'data-status',
      'done',
    );
    expect(
      screen.getByRole('button', { name: 'Show run events of this answer' }),
    ).toBeInTheDocument();
  });
});
