import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AgentThread, type ConversationMessage } from 'agent-console-kit';
import { AgentConsole } from 'agent-console-kit/console';
import 'agent-console-kit/styles.css';
import { mockOnlyStory } from '../.storybook/real-mode';
import type { MessageVersion } from '../src/core/conversation/message-versions';

const now = Date.UTC(2026, 10, 27, 12, 0, 0);
const message = (
  id: string,
  role: ConversationMessage['role'],
  text: string,
  status: ConversationMessage['status'] = 'done',
): ConversationMessage => ({ id, role, text, status, createdAt: now });

const start = [
  message('u1', 'USER', 'Where is my laptop order?'),
  message('a1', 'GLEAN_AI', 'It shipped on Monday and should arrive on Thursday.'),
];
/** Version 1 of the second turn, and version 2 (the question edited). */
const firstVersion = [
  ...start,
  message('u2', 'USER', 'And the charger?'),
  message('a2', 'GLEAN_AI', 'The charger ships separately, next week.'),
  message('u3', 'USER', 'Can it come sooner?'),
  message('a3', 'GLEAN_AI', 'Express shipping is possible for a fee.'),
];
const secondVersion = [
  ...start,
  message('u2b', 'USER', 'And the USB-C charger?'),
  message('a2b', 'GLEAN_AI', 'The USB-C charger is in the same box as the laptop.'),
];
const ids = ['u2', 'u2b'];

/** A thread with two versions of its second turn: ‹ 1 / 2 › moves between them. */
function TwoVersions() {
  const [shown, setShown] = useState(1);
  const messages = shown === 0 ? firstVersion : secondVersion;
  const versions = new Map<string, MessageVersion>([
    [ids[shown] as string, { index: shown, count: 2, ids }],
  ]);
  return (
    <AgentThread
      agentName="Helpdesk chat"
      messages={messages}
      versions={versions}
      onShowVersion={(id) => setShown(ids.indexOf(id))}
      onEdit={() => undefined}
      onRegenerate={() => undefined}
    />
  );
}

const meta = {
  title: 'Conversation/Versions',
  component: AgentThread,
  args: { messages: firstVersion, agentName: 'Helpdesk chat' },
} satisfies Meta<typeof AgentThread>;
export default meta;
type Story = StoryObj<typeof meta>;

/** One version: Edit on each question, Regenerate on each answer, no ‹ ›. */
export const OneVersion: Story = {
  args: { onEdit: () => undefined, onRegenerate: () => undefined, onShowVersion: () => undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('button', { name: 'Edit your message' })).toHaveLength(3);
    await expect(canvas.getAllByRole('button', { name: 'Regenerate this answer' })).toHaveLength(3);
    await expect(canvas.queryByRole('group', { name: 'Versions' })).toBeNull();
  },
};

/** Several versions: ‹ 1 / 2 › on the edited question; each version keeps its later turns. */
export const SeveralVersions: Story = {
  render: () => <TwoVersions />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const versions = canvas.getByRole('group', { name: 'Versions' });
    await expect(versions).toHaveTextContent('Version 2 of 2');
    await expect(canvas.getAllByRole('listitem')).toHaveLength(4);
    const previous = within(versions).getByRole('button', { name: 'Previous version' });
    await userEvent.click(previous);
    await expect(versions).toHaveTextContent('Version 1 of 2');
    await expect(canvas.getAllByRole('listitem')).toHaveLength(6);
    await expect(canvas.getByText('Can it come sooner?')).toBeVisible();
    await expect(previous).toHaveFocus();
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Version 1 of 2'));
  },
};

/** Editing a question: the editor in its place; Save and send makes version 2. */
export const Editing: Story = {
  args: { onEdit: () => undefined, onRegenerate: () => undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(
      canvas.getAllByRole('button', { name: 'Edit your message' })[1] as HTMLElement,
    );
    const editor = canvas.getByRole('textbox', { name: 'Edit your message' });
    await expect(editor).toHaveFocus();
    await expect(editor).toHaveValue('And the charger?');
    await expect(canvas.getByRole('button', { name: 'Save and send' })).toBeVisible();
  },
};

/** Regenerating: the new answer is written as version 2; ‹ › wait until it is done. */
export const Regenerating: Story = {
  args: {
    status: 'streaming',
    messages: [...start.slice(0, 1), message('a1b', 'GLEAN_AI', 'It shipped', 'streaming')],
    versions: new Map([['a1b', { index: 1, count: 2, ids: ['a1', 'a1b'] }]]),
    onShowVersion: () => undefined,
    onRegenerate: () => undefined,
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const versions = canvas.getByRole('group', { name: 'Versions' });
    await expect(versions).toHaveTextContent('Version 2 of 2');
    await expect(
      within(versions).getByRole('button', { name: 'Previous version' }),
    ).toHaveAttribute('aria-disabled', 'true');
    await expect(canvas.queryByRole('button', { name: 'Regenerate this answer' })).toBeNull();
  },
};

const answers = (canvasElement: HTMLElement) =>
  within(canvasElement)
    .queryAllByRole('listitem')
    .filter((item) => item.getAttribute('data-role') === 'agent');

/** In the console: ask twice, edit the first question, then go back to version 1. */
export const EditInTheConsole: Story = mockOnlyStory({
  render: () => <AgentConsole agentId="chat-agent" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const box = await canvas.findByRole('textbox', { name: 'Message' });
    const done = (index: number) =>
      waitFor(() => expect(answers(canvasElement)[index]).toHaveAttribute('data-status', 'done'));
    await userEvent.type(box, 'Where is my laptop?{Enter}');
    await done(0);
    await userEvent.type(box, 'And the charger?{Enter}');
    await done(1);
    await userEvent.click(
      canvas.getAllByRole('button', { name: 'Edit your message' })[0] as HTMLElement,
    );
    const editor = canvas.getByRole('textbox', { name: 'Edit your message' });
    await userEvent.clear(editor);
    await userEvent.type(editor, 'Where is my phone?{Enter}');
    await waitFor(() => expect(answers(canvasElement)).toHaveLength(1));
    await done(0);
    const versions = canvas.getByRole('group', { name: 'Versions' });
    await expect(versions).toHaveTextContent('Version 2 of 2');
    await userEvent.click(within(versions).getByRole('button', { name: 'Previous version' }));
    await waitFor(() => expect(answers(canvasElement)).toHaveLength(2));
    await expect(versions).toHaveTextContent('Version 1 of 2');
  },
});
