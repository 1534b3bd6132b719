import 'agent-console-kit/styles.css';
import { describe, expect, inject, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import axe from 'axe-core';
import { createAgentClient } from 'agent-console-kit';
import { renderAgentConsole } from '../support/console.js';

function renderConsole(theme?: 'dark') {
  const client = createAgentClient({ baseUrl: inject('mockServerUrl'), token: 'picker-token' });
  return renderAgentConsole(client, theme ? { theme } : {});
}

describe('given a console without an agent id, in Chromium', () => {
  it('lets a keyboard user find an agent, choose it and run it', async () => {
    const { container } = renderConsole();
    await expect.element(page.getByText('Choose an agent to start.')).toBeVisible();
    const combobox = page.getByRole('combobox', { name: 'Agent' });

    await userEvent.click(combobox);
    await userEvent.keyboard('help');
    await expect.element(page.getByRole('option', { name: /Helpdesk chat/ })).toBeVisible();
    expect((await axe.run(container)).violations).toEqual([]);
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(combobox).toHaveAttribute('aria-activedescendant');
    await userEvent.keyboard('{Enter}');

    await expect
      .element(page.getByRole('heading', { name: 'Helpdesk chat', level: 2 }))
      .toBeVisible();
    // The chosen agent mounts its own console; focus stays in the picker, which names the agent.
    await expect.element(combobox).toHaveFocus();
    await expect.element(combobox).toHaveValue('Helpdesk chat');
    await userEvent.click(page.getByRole('textbox', { name: 'Message' }));
    await userEvent.keyboard('Hello{Enter}');
    await expect.element(page.getByText(/^Done in/)).toBeVisible();

    // Another agent starts a new conversation: the first agent's thread does not follow.
    await userEvent.tripleClick(combobox);
    await userEvent.keyboard('thinker');
    await expect.element(page.getByRole('option', { name: /Slow thinker/ })).toBeVisible();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await expect
      .element(page.getByRole('heading', { name: 'Slow thinker', level: 2 }))
      .toBeVisible();
    await expect.element(combobox).toHaveFocus();
    await expect.element(page.getByText('No messages yet.')).toBeVisible();
  });

  it('shows the listbox under the field, above what follows, with no axe violations in dark', async () => {
    const { container } = renderConsole('dark');
    const combobox = page.getByRole('combobox', { name: 'Agent' });

    await userEvent.click(combobox);

    const listbox = page.getByRole('listbox', { name: 'Agents' });
    await expect.element(listbox).toBeVisible();
    const field = combobox.element().getBoundingClientRect();
    const list = listbox.element().getBoundingClientRect();
    expect(list.top).toBeGreaterThanOrEqual(field.bottom);
    expect(getComputedStyle(listbox.element()).position).toBe('absolute');
    expect((await axe.run(container)).violations).toEqual([]);
  });
});
