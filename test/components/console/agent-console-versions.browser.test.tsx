// Issue 29 in real Chromium, by keyboard only: edit the second of three questions, see the new
// answer; go back to version 1 and find the old turns intact; regenerate; reload (the console
// mounted again over the same localStorage thread store) and find the versions kept.
import { StrictMode } from 'react';
import { describe, expect, inject, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import 'agent-console-kit/styles.css';
import {
  AgentClientProvider,
  createAgentClient,
  createThreadStore,
} from 'agent-console-kit';
import { AgentConsole } from 'agent-console-kit/console';

const scope = `versions-${Date.now().toString(36)}`;

function renderConsole() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createAgentClient({ baseUrl: inject('mockServerUrl'), token: 'versions-token' });
  const threadStore = createThreadStore({ scope });
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>
          <AgentConsole agentId="chat-agent" threadStore={threadStore} threadId="versions-1" />
        </AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const items = () => [...document.querySelectorAll<HTMLElement>('.ack-thread__message')];
const texts = () => items().map((item) => item.querySelector('.ack-thread__text')?.textContent);

/** Tab (backwards) until `element` has focus: the keyboard's way there. */
async function tabTo(element: Element) {
  for (let presses = 0; document.activeElement !== element && presses < 80; presses++) {
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
  }
  expect(document.activeElement).toBe(element);
}

async function settled(count: number) {
  await expect.poll(() => items().length).toBe(count);
  await expect.poll(() => items().at(-1)?.dataset['status']).toBe('done');
}

function versionsOf(item: HTMLElement | undefined) {
  return item?.querySelector<HTMLElement>('[role="group"][aria-label="Versions"]') ?? null;
}

describe('given the chat agent in Chromium, by keyboard', () => {
  it('edits the second of three questions, keeps the old turns as version 1, regenerates, and keeps the versions across a reload', async () => {
    const { container, unmount } = renderConsole();
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect.element(box).toBeVisible();
    await userEvent.click(box);
    for (const [index, question] of ['One?', 'Two?', 'Three?'].entries()) {
      await userEvent.keyboard(`${question}{Enter}`);
      await settled((index + 1) * 2);
    }
    const before = texts();

    // Edit the second question.
    const edit = items()[2]?.querySelector('button[aria-label="Edit your message"]');
    if (!edit) throw new Error('no Edit on the second question');
    await tabTo(edit);
    await userEvent.keyboard('{Enter}');
    const editor = page.getByRole('textbox', { name: 'Edit your message' });
    await expect.element(editor).toHaveFocus();
    await userEvent.keyboard('{Control>}a{/Control}Two, better?{Enter}');
    await settled(4);
    expect(texts()[2]).toBe('Two, better?');
    expect(texts()[3]).toContain('now you ask "Two, better?"');
    expect(versionsOf(items()[2])?.textContent).toContain('Version 2 of 2');

    // Back to version 1: the old turns, intact.
    const previous = versionsOf(items()[2])?.querySelector('button[aria-label="Previous version"]');
    if (!previous) throw new Error('no Previous version');
    await tabTo(previous);
    await userEvent.keyboard('{Enter}');
    await expect.poll(texts).toEqual(before);
    expect(document.activeElement).toBe(previous);
    await expect
      .element(page.getByRole('region', { name: /^Conversation with/ }).getByRole('status'))
      .toHaveTextContent('Version 1 of 2');
    expect((await axe.run(container)).violations).toEqual([]);

    // Regenerate the last answer of version 1.
    const regenerate = items()[5]?.querySelector('button[aria-label="Regenerate this answer"]');
    if (!regenerate) throw new Error('no Regenerate');
    await tabTo(regenerate);
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => versionsOf(items()[5])?.textContent ?? '').toContain('Version 2 of 2');
    await settled(6);
    const regenerated = texts();

    // A reload: the console mounted again over the same thread store.
    unmount();
    renderConsole();
    await expect.poll(texts).toEqual(regenerated);
    expect(versionsOf(items()[2])?.textContent).toContain('Version 1 of 2');
    expect(versionsOf(items()[5])?.textContent).toContain('Version 2 of 2');
    const next = versionsOf(items()[2])?.querySelector('button[aria-label="Next version"]');
    if (!next) throw new Error('no Next version');
    await tabTo(next);
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => texts()[2]).toBe('Two, better?');
    expect(texts()).toHaveLength(4);
  });
});
