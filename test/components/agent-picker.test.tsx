import { type ReactNode } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AgentPicker, createAgentClient, type Agent } from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';
import { withConsoleProviders } from '../support/console.js';

let server: MockAgentServer;
let deadUrl: string;

beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents });
  const dead = await createMockAgentServer({ agents: [] });
  deadUrl = dead.url;
  await dead.close();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.reset();
});

function withProviders(node: ReactNode, { api = 'rest-v1', baseUrl = server.url } = {}) {
  const client = createAgentClient({ baseUrl, api: api as AgentApi, token: 'picker-token' });
  return withConsoleProviders(client, node);
}

const searches = () => server.requests.filter((request) => request.endpoint === 'search');

describe.each<AgentApi>(['rest-v1', 'platform'])('given the demo agents on %s', (api) => {
  it('is a combobox tied to its listbox, with no axe violations open or closed', async () => {
    const user = userEvent.setup();
    const { container } = render(
      withProviders(<AgentPicker onChange={() => {}} debounceMs={0} />, { api }),
    );
    const combobox = screen.getByRole('combobox', { name: 'Agent' });
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).toHaveAttribute('aria-autocomplete', 'list');
    expect((await axe.run(container)).violations).toEqual([]);

    await user.click(combobox);

    expect(combobox).toHaveAttribute('aria-expanded', 'true');
    const listbox = await screen.findByRole('listbox', { name: 'Agents' });
    expect(combobox).toHaveAttribute('aria-controls', listbox.id);
    await waitFor(() =>
      expect(within(listbox).getAllByRole('option')).toHaveLength(demoAgents.length),
    );
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('searches as the person types, once typing pauses, and chooses by keyboard', async () => {
    const user = userEvent.setup();
    const chosen: Agent[] = [];
    render(
      withProviders(<AgentPicker onChange={(agent) => chosen.push(agent)} debounceMs={150} />, {
        api,
      }),
    );
    const combobox = screen.getByRole('combobox', { name: 'Agent' });

    // 'help', not 'chat': two demo agents chat (Helpdesk chat, Slow chat).
    await user.type(combobox, 'help');

    await waitFor(() =>
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        expect.stringContaining('Helpdesk chat'),
      ]),
    );
    // Opening lists every agent; then one search once typing paused, not one per keystroke.
    expect(searches().map((request) => request.body ?? {})).toEqual([{}, { name: 'help' }]);
    await user.keyboard('{ArrowDown}');
    const option = screen.getByRole('option', { name: /Helpdesk chat/ });
    expect(combobox).toHaveAttribute('aria-activedescendant', option.id);
    expect(option).toHaveAttribute('data-highlighted', '');

    await user.keyboard('{Enter}');

    expect(chosen.map((agent) => agent.agent_id)).toEqual(['chat-agent']);
    expect(combobox).toHaveValue('Helpdesk chat');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).not.toHaveAttribute('aria-activedescendant');
    expect(combobox).toHaveFocus();
  });
});

describe('given the keyboard', () => {
  it('moves with arrows, Home and End, and closes with Escape, then clears', async () => {
    const user = userEvent.setup();
    render(withProviders(<AgentPicker onChange={() => {}} debounceMs={0} />));
    const combobox = screen.getByRole('combobox', { name: 'Agent' });
    combobox.focus();

    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getAllByRole('option').length).toBeGreaterThan(2));
    const options = () => screen.getAllByRole('option');
    const highlighted = () => combobox.getAttribute('aria-activedescendant');

    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(highlighted()).toBe(options()[2]?.id);
    await user.keyboard('{ArrowUp}');
    expect(highlighted()).toBe(options()[1]?.id);
    await user.keyboard('{End}');
    expect(highlighted()).toBe(options().at(-1)?.id);
    await user.keyboard('{Home}');
    expect(highlighted()).toBe(options()[0]?.id);

    await user.keyboard('{Escape}');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    await user.type(combobox, 'x');
    await user.keyboard('{Escape}{Escape}');
    expect(combobox).toHaveValue('');
  });

  it('marks the chosen agent selected', async () => {
    const user = userEvent.setup();
    render(withProviders(<AgentPicker value="slow-agent" onChange={() => {}} debounceMs={0} />));

    await user.click(screen.getByRole('combobox', { name: 'Agent' }));

    await waitFor(() =>
      expect(screen.getByRole('option', { selected: true })).toHaveTextContent('Slow'),
    );
  });
});

describe('given nothing to show', () => {
  it('says no agent matches', async () => {
    const user = userEvent.setup();
    render(withProviders(<AgentPicker onChange={() => {}} debounceMs={0} />));

    await user.type(screen.getByRole('combobox', { name: 'Agent' }), 'zzz');

    expect(await screen.findByText('No agent matches “zzz”.')).toBeInTheDocument();
    expect(screen.queryByRole('option')).toBeNull();
  });

  it('says the search failed when the service cannot be reached', async () => {
    const user = userEvent.setup();
    render(withProviders(<AgentPicker onChange={() => {}} debounceMs={0} />, { baseUrl: deadUrl }));

    await user.click(screen.getByRole('combobox', { name: 'Agent' }));

    expect(
      await screen.findByText('Could not search: the connection to the service broke off.'),
    ).toBeInTheDocument();
  });
});
