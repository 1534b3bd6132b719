import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AgentThread, type ConversationMessage } from 'agent-console-kit';
import { parseConversationMessages } from 'agent-console-kit/core';
import { AgentConsole } from 'agent-console-kit/console';
import { createMockAgentService, textEvents } from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';
import 'agent-console-kit/styles.css';
import { runProjectIntake } from './play-steps';
import { mockOnlyStory } from '../.storybook/real-mode';

const now = Date.UTC(2026, 10, 23, 12, 0, 0);

/** A thread in every state a message can be in. */
const everyState: ConversationMessage[] = [
  { id: 'u1', role: 'USER', text: 'Where is my laptop order?', status: 'done', createdAt: now },
  {
    id: 'a1',
    role: 'GLEAN_AI',
    text: 'Your laptop shipped on Monday; it should arrive on Thursday.\nTracking: 1Z999.',
    status: 'done',
    createdAt: now + 1000,
  },
  { id: 'u2', role: 'USER', text: 'And the charger?', status: 'done', createdAt: now + 2000 },
  {
    id: 'a2',
    role: 'GLEAN_AI',
    text: 'The charger ships',
    status: 'stopped',
    createdAt: now + 3000,
  },
  { id: 'u3', role: 'USER', text: 'Can you check again?', status: 'done', createdAt: now + 4000 },
  {
    id: 'a3',
    role: 'GLEAN_AI',
    text: '',
    status: 'error',
    error: { kind: 'http', message: 'The service answered 503.', status: 503 },
    createdAt: now + 5000,
  },
];

const meta = {
  title: 'Conversation/AgentThread',
  component: AgentThread,
  args: { messages: everyState, agentName: 'Helpdesk chat', onRetry: () => undefined },
} satisfies Meta<typeof AgentThread>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every state of a message: done, stopped, failed (with Retry on the last), Copy and Edit. */
export const States: Story = {
  args: { onEdit: () => undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('listitem', { name: 'You said' })).toHaveLength(3);
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
    // Each USER message can be edited (the turns after it become a version).
    await expect(canvas.getAllByRole('button', { name: 'Edit your message' })).toHaveLength(3);
  },
};

/** An answer being written: the streaming indicator. */
export const Streaming: Story = {
  args: {
    status: 'streaming',
    messages: [
      ...everyState.slice(0, 2),
      { id: 'u9', role: 'USER', text: 'Thanks! Anything else?', status: 'done', createdAt: now },
      { id: 'a9', role: 'GLEAN_AI', text: 'Let me look', status: 'streaming', createdAt: now },
    ],
  },
};

const textbox = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('textbox', { name: 'Message' });
const answers = (canvasElement: HTMLElement) =>
  within(canvasElement)
    .queryAllByRole('listitem')
    .filter((item) => item.getAttribute('data-role') === 'agent');
async function waitForAnswer(canvasElement: HTMLElement, index: number, status = 'done') {
  await waitFor(() => expect(answers(canvasElement)[index]).toHaveAttribute('data-status', status));
}

/** A chat conversation of three turns in the console: the agent sees the whole history. */
export const Conversation: Story = mockOnlyStory({
  render: () => <AgentConsole agentId="chat-agent" />,
  play: async ({ canvasElement }) => {
    const box = await textbox(canvasElement);
    await userEvent.type(box, 'Where is my laptop?{Enter}');
    await waitForAnswer(canvasElement, 0);
    await userEvent.type(box, 'And the charger?{Enter}');
    await waitForAnswer(canvasElement, 1);
    await userEvent.type(box, 'Thanks!{Enter}');
    await waitForAnswer(canvasElement, 2);
    await expect(answers(canvasElement)[2]).toHaveTextContent(
      'This is turn 3, with 2 earlier answers in the history: your first question was "Where is my laptop?"',
    );
    await expect(box).toHaveFocus();
  },
});

/** A slow chat agent stopped mid-turn (Escape or Stop): the partial answer stays, then a new turn. */
export const StopMidTurn: Story = mockOnlyStory({
  render: () => <AgentConsole agentId="slow-chat-agent" />,
  play: async ({ canvasElement }) => {
    const box = await textbox(canvasElement);
    await userEvent.type(box, 'Tell me everything{Enter}');
    await waitFor(() => expect(answers(canvasElement)[0]).toHaveTextContent(/Hello!/));
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Stop' }));
    await waitForAnswer(canvasElement, 0, 'stopped');
    await expect(within(canvasElement).getByRole('button', { name: 'Retry' })).toBeVisible();
  },
});

/** The first run fails (503); Retry on the failed answer sends one new run and replaces it. */
export const FailedTurnWithRetry: Story = mockOnlyStory({
  beforeEach({ msw }) {
    const service = createMockAgentService({
      agents: [
        {
          agent: {
            agent_id: 'once-failing-chat',
            name: 'Fails once',
            description: 'The first run answers 500; the next ones work.',
            capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
          },
          run: {
            events: textEvents('It works on the second try.'),
            failFirst: { attempts: 1, status: 500 },
          },
        },
      ],
    });
    msw.use(...mockAgentHandlers(service));
  },
  render: () => <AgentConsole agentId="once-failing-chat" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await textbox(canvasElement), 'Hello?{Enter}');
    await waitForAnswer(canvasElement, 0, 'error');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await waitForAnswer(canvasElement, 0);
    await expect(answers(canvasElement)).toHaveLength(1);
    await expect(answers(canvasElement)[0]).toHaveTextContent('It works on the second try.');
  },
});

const storageKey = 'agent-console-kit:story-thread';

/** Saved to `localStorage` when a turn settles; a reload of the story restores the conversation. */
function RestoringConsole() {
  const [initialMessages] = useState(() => {
    try {
      return parseConversationMessages(JSON.parse(localStorage.getItem(storageKey) ?? '[]'));
    } catch {
      return []; // a malformed save is dropped rather than breaking the page
    }
  });
  return (
    <AgentConsole
      agentId="chat-agent"
      initialMessages={initialMessages}
      onMessagesChange={(messages) => localStorage.setItem(storageKey, JSON.stringify(messages))}
    />
  );
}

/** A restored thread: the conversation is saved to `localStorage`; reload the story to see it come back. */
export const RestoredThread: Story = mockOnlyStory({
  beforeEach() {
    localStorage.setItem(storageKey, JSON.stringify(everyState.slice(0, 2)));
  },
  render: () => <RestoringConsole />,
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(answers(canvasElement)).toHaveLength(1));
    await userEvent.type(await textbox(canvasElement), 'And the charger?{Enter}');
    await waitForAnswer(canvasElement, 1);
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(storageKey) ?? '[]')).toHaveLength(4),
    );
  },
});

/** A form agent keeps a run history: every field as sent, output, status, timings, Run again. */
export const FormRunHistory: Story = mockOnlyStory({
  render: () => <AgentConsole agentId="form-agent" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await runProjectIntake(canvasElement);
    const history = await canvas.findByRole('region', { name: 'Run history' });
    await expect(
      await within(history).findByRole('listitem', { name: /^Run 1: Done/ }),
    ).toBeVisible();
  },
});

const topics = ['laptop', 'charger', 'monitor', 'badge', 'headset', 'VPN access'];

/** 240 messages: a long support conversation, oldest first. */
const longThread: ConversationMessage[] = Array.from({ length: 240 }, (_, index) => {
  const turn = Math.floor(index / 2) + 1;
  const topic = topics[turn % topics.length] ?? 'order';
  return index % 2 === 0
    ? {
        id: `u${turn}`,
        role: 'USER',
        text: `Question ${turn}: what is the status of my ${topic} request?`,
        status: 'done',
        createdAt: now + index * 1000,
      }
    : {
        id: `a${turn}`,
        role: 'GLEAN_AI',
        text: `Answer ${turn}: your ${topic} request is approved and ships within two working days.`,
        status: 'done',
        createdAt: now + index * 1000,
      };
});

/**
 * A long thread: the newest 100 of 240 messages are shown (`visibleMessages`); "Show 50 earlier
 * messages" above them reveals a page without moving the messages in view. Scrolled to the top
 * after one page, with 90 still not shown.
 */
export const LongThread: Story = {
  name: 'Long thread',
  args: { messages: longThread, height: 420 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = canvas.getByRole('log', { name: 'Messages' });
    await expect(within(log).getAllByRole('listitem')).toHaveLength(100);
    log.scrollTop = 0;
    const button = canvas.getByRole('button', { name: 'Show 50 earlier messages' });
    await expect(button).toHaveAccessibleDescription('140 earlier messages not shown');

    await userEvent.click(button);

    await expect(within(log).getAllByRole('listitem')).toHaveLength(150);
    await expect(within(log).getAllByRole('listitem')[0]).toHaveTextContent('Question 46:');
    log.scrollTop = 0;
    await expect(button).toHaveAccessibleDescription('90 earlier messages not shown');
  },
};

/** A restored conversation in a 360 px wide container. */
export const Narrow: Story = {
  render: (args) => (
    <div style={{ width: 360 }}>
      <AgentThread {...args} />
    </div>
  ),
};

/** The console's conversation in the dark theme. */
export const Dark: Story = mockOnlyStory({
  render: () => (
    <div data-theme="dark" style={{ padding: 16, background: '#15171c' }}>
      <AgentConsole agentId="chat-agent" theme="dark" initialMessages={everyState} />
    </div>
  ),
});
