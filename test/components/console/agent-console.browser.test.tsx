import { describe, expect, inject, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import axe from 'axe-core';
import { createAgentClient } from 'agent-console-kit';
import { renderAgentConsole } from '../../support/console.js';

// Real focus rules: Chromium moves focus off a control that becomes disabled.

function renderConsole(agentId: string) {
  const client = createAgentClient({ baseUrl: inject('mockServerUrl'), token: 'focus-token' });
  return renderAgentConsole(client, { agentId });
}

describe('given a keyboard user in Chromium', () => {
  it('has no axe violations mid-run', async () => {
    const { container } = renderConsole('slow-agent');
    await userEvent.fill(page.getByRole('textbox', { name: 'Message' }), 'Think');
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByText('Running…')).toBeVisible();

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
    await userEvent.click(page.getByRole('button', { name: 'Stop' }));
  });

  // Issue 8: the thread's composer stays enabled (the next question can be typed while the answer
  // streams), so focus never has to move; Stop replaces Send, and Escape stops.
  it('keeps focus in the composer while the answer streams, and Escape stops it', async () => {
    renderConsole('slow-agent');
    const message = page.getByRole('textbox', { name: 'Message' });
    await userEvent.fill(message, 'Think');

    await userEvent.keyboard('{Enter}');

    await expect.element(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect.element(message).toBeEnabled();
    await expect.element(message).toHaveFocus();

    await userEvent.keyboard('{Escape}');

    await expect.element(page.getByText('Stopped.', { exact: true }).first()).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect.element(message).toHaveFocus();
  });
});
