/**
 * The console's thread list in jsdom, under StrictMode, by role and with the keyboard only: a
 * memory thread store with two saved threads, the chat agent of the mock server over 127.0.0.1
 * (counting the runs that reached it), and the store read back after each change.
 */
import { createRef, StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentCancelConfirm,
  AgentThreadList,
  createAgentClient,
  createMemoryThreadStore,
  type ConversationMessage,
  type ThreadStore,
} from 'agent-console-kit';
import { demoAgents } from 'agent-console-kit/testing';
import { setUpMockServer } from '../support/mock-server.js';
import { renderAgentConsole } from '../support/console.js';

const server = setUpMockServer({ agents: demoAgents });

function message(id: string, role: 'USER' | 'GLEAN_AI', text: string): ConversationMessage {
  return { id, role, text, status: 'done', createdAt: 1_790_000_000_000 };
}

async function seededStore(): Promise<ThreadStore> {
  let now = 1_790_000_000_000;
  const threadStore = createMemoryThreadStore({ now: () => (now += 1000) });
  await threadStore.save({
    id: 'thread-laptop',
    agentId: 'chat-agent',
    title: 'Laptop',
    messages: [
      message('m1', 'USER', 'Where is my laptop?'),
      message('m2', 'GLEAN_AI', 'It is at the front desk.'),
    ],
  });
  await threadStore.save({
    id: 'thread-charger',
    agentId: 'chat-agent',
    title: 'Charger',
    messages: [
      message('m3', 'USER', 'And the charger?'),
      message('m4', 'GLEAN_AI', 'In the second drawer.'),
    ],
  });
  return threadStore;
}

function renderConsole(threadStore: ThreadStore, threadId: string | undefined) {
  const client = createAgentClient({ baseUrl: server.url });
  return renderAgentConsole(client, { agentId: 'chat-agent', threadStore, threadId });
}

/** Presses Tab (Shift+Tab with `backwards`) until `target` has focus. */
async function tabTo(user: UserEvent, target: HTMLElement, backwards = false) {
  for (let step = 0; step < 40 && document.activeElement !== target; step++) {
    await user.tab({ shift: backwards });
  }
  expect(target).toHaveFocus();
}

const threadList = () => screen.getByRole('navigation', { name: 'Threads with Helpdesk chat' });
/** A thread's own button (the list's "New thread" button is outside the list). */
const threadButton = (name: string) =>
  within(within(threadList()).getByRole('list')).getByRole('button', { name });
const conversation = () => screen.getByRole('region', { name: 'Conversation with Helpdesk chat' });
const titles = async (threadStore: ThreadStore) =>
  (await threadStore.list()).threads.map((thread) => thread.title);

describe('given AgentConsole with a thread store', () => {
  it('lists the saved threads and switches to another one with the keyboard; axe clean', async () => {
    const threadStore = await seededStore();
    const user = userEvent.setup();
    const { container } = renderConsole(threadStore, 'thread-laptop');

    await waitFor(() => expect(conversation()).toHaveTextContent('Where is my laptop?'));
    expect(threadButton('Laptop')).toHaveAttribute('aria-current', 'true');
    expect(threadButton('Charger')).not.toHaveAttribute('aria-current');
    expect(threadButton('Charger')).toHaveAccessibleDescription(/^2 messages, /);
    expect((await axe.run(container)).violations).toEqual([]);

    await tabTo(user, threadButton('Charger'));
    await user.keyboard('{Enter}');

    await waitFor(() => expect(conversation()).toHaveTextContent('And the charger?'));
    expect(conversation()).not.toHaveTextContent('Where is my laptop?');
    expect(threadButton('Charger')).toHaveAttribute('aria-current', 'true');
    expect(threadButton('Charger')).toHaveFocus();
    // A switch reads the store; it sends nothing.
    expect(server.runRequests()).toHaveLength(0);

    // A message in the thread switched to is saved there, with its history.
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Thanks!{Enter}');
    await waitFor(async () =>
      expect((await threadStore.load('thread-charger'))?.messages).toHaveLength(4),
    );
    expect((await threadStore.load('thread-laptop'))?.messages).toHaveLength(2);
    expect(server.runRequests()).toHaveLength(1);
    expect((server.runRequests()[0]?.body as { messages: unknown[] }).messages).toHaveLength(3);
  });

  it('"New thread" saves an empty thread and shows it; its first question becomes its title', async () => {
    const threadStore = await seededStore();
    const user = userEvent.setup();
    const { container } = renderConsole(threadStore, 'thread-laptop');
    await waitFor(() => expect(conversation()).toHaveTextContent('Where is my laptop?'));

    await tabTo(user, within(threadList()).getByRole('button', { name: 'New thread' }));
    await user.keyboard('{Enter}');

    await waitFor(() => expect(threadButton('New thread')).toHaveAttribute('aria-current', 'true'));
    expect(conversation()).not.toHaveTextContent('Where is my laptop?');
    expect(await titles(threadStore)).toEqual(['', 'Charger', 'Laptop']);
    expect((await axe.run(container)).violations).toEqual([]);

    await user.type(
      screen.getByRole('textbox', { name: 'Message' }),
      'Is the printer fixed?{Enter}',
    );
    await waitFor(() => expect(threadButton('Is the printer fixed?')).toBeInTheDocument());
    expect(await titles(threadStore)).toEqual(['Is the printer fixed?', 'Charger', 'Laptop']);
  });

  it('renames inline: Escape cancels, Enter saves, focus returns to Rename', async () => {
    const threadStore = await seededStore();
    const user = userEvent.setup();
    const { container } = renderConsole(threadStore, 'thread-laptop');
    await waitFor(() => expect(conversation()).toHaveTextContent('Where is my laptop?'));

    const rename = within(threadList()).getByRole('button', { name: 'Rename “Charger”' });
    await tabTo(user, rename);
    await user.keyboard('{Enter}');
    const field = within(threadList()).getByRole('textbox', { name: 'New title of “Charger”' });
    expect(field).toHaveFocus();
    expect(field).toHaveValue('Charger');
    expect((await axe.run(container)).violations).toEqual([]);
    await user.keyboard('{Control>}a{/Control}Phone charger{Escape}');

    expect(within(threadList()).queryByRole('textbox')).toBeNull();
    expect(within(threadList()).getByRole('button', { name: 'Rename “Charger”' })).toHaveFocus();
    expect(await titles(threadStore)).toEqual(['Charger', 'Laptop']);

    // Escape cancels from the field's buttons too, as the delete step's Escape keeps.
    await user.keyboard('{Enter}');
    await user.tab();
    expect(within(threadList()).getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(within(threadList()).queryByRole('textbox')).toBeNull();
    expect(within(threadList()).getByRole('button', { name: 'Rename “Charger”' })).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{Control>}a{/Control}Phone charger{Enter}');

    await waitFor(() => expect(threadButton('Phone charger')).toBeInTheDocument());
    expect(await titles(threadStore)).toEqual(['Phone charger', 'Laptop']);
    expect(
      within(threadList()).getByRole('button', { name: 'Rename “Phone charger”' }),
    ).toHaveFocus();
    expect(threadList()).toHaveTextContent('Renamed to “Phone charger”.');
  });

  it('deletes after a confirm step (Escape keeps); deleting the shown thread shows the next and focuses it', async () => {
    const threadStore = await seededStore();
    const user = userEvent.setup();
    const { container } = renderConsole(threadStore, 'thread-charger');
    await waitFor(() => expect(conversation()).toHaveTextContent('And the charger?'));

    const remove = within(threadList()).getByRole('button', { name: 'Delete “Charger”' });
    await tabTo(user, remove);
    await user.keyboard('{Enter}');
    const confirm = within(threadList()).getByRole('group', {
      name: 'Delete “Charger”? This cannot be undone.',
    });
    expect(within(confirm).getByRole('button', { name: 'Keep' })).toHaveFocus();
    expect((await axe.run(container)).violations).toEqual([]);
    await user.keyboard('{Escape}');

    expect(within(threadList()).queryByRole('group')).toBeNull();
    expect(within(threadList()).getByRole('button', { name: 'Delete “Charger”' })).toHaveFocus();
    expect(await titles(threadStore)).toEqual(['Charger', 'Laptop']);

    await user.keyboard('{Enter}');
    // The safe choice comes first (and has focus); Delete is the next stop.
    await user.tab();
    expect(within(threadList()).getByRole('button', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(threadButton('Laptop')).toHaveFocus());
    expect(await titles(threadStore)).toEqual(['Laptop']);
    expect(threadButton('Laptop')).toHaveAttribute('aria-current', 'true');
    await waitFor(() => expect(conversation()).toHaveTextContent('Where is my laptop?'));
    expect(conversation()).not.toHaveTextContent('And the charger?');
    expect(threadList()).toHaveTextContent('Deleted “Charger”.');

    // The last thread: focus goes to "New thread", and the console starts a new, unsaved thread.
    await tabTo(user, within(threadList()).getByRole('button', { name: 'Delete “Laptop”' }));
    await user.keyboard('{Enter}');
    await user.tab();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(within(threadList()).getByRole('button', { name: 'New thread' })).toHaveFocus(),
    );
    expect(await titles(threadStore)).toEqual([]);
    expect(threadList()).toHaveTextContent('No saved threads yet.');
    await waitFor(() => expect(conversation()).not.toHaveTextContent('Where is my laptop?'));
    expect(server.runRequests()).toHaveLength(0);
  });
});

describe('given the parts on their own', () => {
  it('forward their refs, and a part outside its root names the root', () => {
    const listRef = createRef<HTMLElement>();
    const confirmRef = createRef<HTMLDivElement>();
    render(
      <StrictMode>
        <AgentThreadList ref={listRef} threads={[]} onSelect={() => undefined} />
        <AgentCancelConfirm
          ref={confirmRef}
          onConfirm={() => undefined}
          onDismiss={() => undefined}
        />
      </StrictMode>,
    );
    expect(listRef.current).toBe(screen.getByRole('navigation', { name: 'Threads' }));
    expect(confirmRef.current).toBe(screen.getByRole('alertdialog', { name: 'Cancel this run?' }));
    expect(screen.getByText('No saved threads yet.')).toBeInTheDocument();
    // Without onCreate there is no "New thread" button.
    expect(screen.queryByRole('button', { name: 'New thread' })).toBeNull();

    const thread = {
      id: 't',
      agentId: 'a',
      title: 'T',
      createdAt: 0,
      updatedAt: 0,
      revision: 1,
      messageCount: 0,
    };
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<AgentThreadList.Item thread={thread} />)).toThrow(
      '<AgentThreadListItem> must be used within <AgentThreadListRoot>.',
    );
    error.mockRestore();
  });
});
