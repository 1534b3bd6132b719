import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AgentThreadList, type ThreadSummary } from 'agent-console-kit';
import 'agent-console-kit/styles.css';

const now = Date.UTC(2026, 10, 23, 12, 0, 0);

function thread(id: string, title: string, messageCount: number, minutesAgo: number) {
  const summary: ThreadSummary = {
    id,
    agentId: 'chat-agent',
    title,
    createdAt: now - minutesAgo * 60_000,
    updatedAt: now - minutesAgo * 60_000,
    revision: 1,
    messageCount,
  };
  return summary;
}

const threads = [
  thread('thread-printer', 'Is the printer on the 3rd floor fixed?', 4, 5),
  thread('thread-laptop', 'Laptop order', 6, 90),
  thread('thread-new', '', 0, 200),
  thread(
    'thread-long',
    'A very long title that a person typed without stopping, to see how the list cuts it short',
    12,
    3000,
  ),
];

const meta = {
  title: 'Conversation/AgentThreadList',
  component: AgentThreadList,
  args: {
    threads,
    selectedThreadId: 'thread-laptop',
    onSelect: fn(),
    onCreate: fn(),
    onRename: fn(),
    onDelete: fn(),
  },
  render: (args) => (
    <div style={{ maxWidth: '20rem' }}>
      <AgentThreadList {...args} />
    </div>
  ),
} satisfies Meta<typeof AgentThreadList>;
export default meta;
type Story = StoryObj<typeof meta>;

const list = (canvasElement: HTMLElement) =>
  within(
    within(within(canvasElement).getByRole('navigation', { name: 'Threads' })).getByRole('list'),
  );

/** Saved threads, the shown one marked; an untitled thread reads "New thread". */
export const Threads: Story = {
  play: async ({ canvasElement, args }) => {
    const items = list(canvasElement);
    await expect(items.getByRole('button', { name: 'Laptop order' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(items.getByRole('button', { name: 'New thread' })).toBeVisible();
    await userEvent.click(
      items.getByRole('button', { name: 'Is the printer on the 3rd floor fixed?' }),
    );
    await expect(args.onSelect).toHaveBeenCalledWith('thread-printer');
  },
};

/** No thread saved yet: only "New thread". */
export const Empty: Story = {
  args: { threads: [], selectedThreadId: undefined },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('No saved threads yet.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'New thread' }));
    await expect(args.onCreate).toHaveBeenCalledTimes(1);
  },
};

/** Rename inline with the keyboard: Enter saves, and focus returns to Rename. */
export const Rename: Story = {
  play: async ({ canvasElement, args }) => {
    const items = list(canvasElement);
    await userEvent.click(items.getByRole('button', { name: 'Rename “Laptop order”' }));
    const field = items.getByRole('textbox', { name: 'New title of “Laptop order”' });
    await expect(field).toHaveFocus();
    await userEvent.clear(field);
    await userEvent.type(field, 'Laptop for Dana{Enter}');
    await expect(args.onRename).toHaveBeenCalledWith('thread-laptop', 'Laptop for Dana');
    await waitFor(() =>
      expect(items.getByRole('button', { name: 'Rename “Laptop order”' })).toHaveFocus(),
    );
  },
};

/** Delete asks first: "Keep" has focus; "Delete" again deletes. */
export const DeleteAsksFirst: Story = {
  play: async ({ canvasElement, args }) => {
    const items = list(canvasElement);
    await userEvent.click(items.getByRole('button', { name: 'Delete “Laptop order”' }));
    const confirm = items.getByRole('group', {
      name: 'Delete “Laptop order”? This cannot be undone.',
    });
    await expect(within(confirm).getByRole('button', { name: 'Keep' })).toHaveFocus();
    await expect(args.onDelete).not.toHaveBeenCalled();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await expect(args.onDelete).toHaveBeenCalledWith('thread-laptop');
  },
};

/** In the dark theme. */
export const DarkTheme: Story = {
  globals: { theme: 'dark' },
};
