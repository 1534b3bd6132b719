import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AgentHttpError, AgentNetworkError, AgentRunStatus } from 'agent-console-kit';
import 'agent-console-kit/styles.css';

const startedAt = Date.UTC(2026, 0, 1, 12, 0, 0);
const url = 'https://agents.example.com/agents/chat-agent/runs';

const meta = {
  title: 'Components/AgentRunStatus',
  component: AgentRunStatus,
  args: { status: 'idle' },
} satisfies Meta<typeof AgentRunStatus>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Before any run. */
export const Idle: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Ready.');
  },
};

/** The first connection attempt. */
export const Connecting: Story = { args: { status: 'connecting', attempt: 1 } };

/** Events are arriving. */
export const Streaming: Story = {
  args: { status: 'streaming', attempt: 1, startedAt },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Running…');
  },
};

/** The connection dropped; the next attempt waits. */
export const Reconnecting: Story = {
  args: {
    status: 'reconnecting',
    attempt: 1,
    startedAt,
    reconnectReason: new AgentNetworkError('terminated', { url }),
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(
      'The connection broke off. Reconnecting (attempt 2)…',
    );
  },
};

/** The service answered 429 with `Retry-After`: the line says it waits for the service, and how long. */
export const RateLimited: Story = {
  args: {
    status: 'reconnecting',
    attempt: 1,
    startedAt,
    reconnectReason: new AgentHttpError({
      status: 429,
      url,
      method: 'POST',
      body: { message: 'Too many requests' },
      headers: new Headers({ 'retry-after': '3' }),
    }),
  },
  render: function RateLimitedStatus(args) {
    // nextAttemptAt is computed when the story renders, so the wait reads 3 s.
    const [nextAttemptAt] = useState(() => Date.now() + 3000);
    return <AgentRunStatus {...args} nextAttemptAt={nextAttemptAt} />;
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(
      'The service asked to wait (429). Reconnecting in 3 s (attempt 2)…',
    );
  },
};

/** The server started the run over on a reconnect. */
export const Restarted: Story = {
  args: { status: 'streaming', attempt: 2, restarts: 1, startedAt },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(
      /started the run over/,
    );
  },
};

/** The run finished, with its duration. */
export const Done: Story = {
  args: { status: 'done', attempt: 1, startedAt, endedAt: startedAt + 4200 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Done in 4.2 s.');
  },
};

/** The person stopped the run. */
export const Aborted: Story = {
  args: { status: 'aborted', attempt: 1, startedAt },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Stopped.');
  },
};

/** The run failed. */
export const Failed: Story = { args: { status: 'error', attempt: 1, startedAt } };

/** In the dark theme. */
export const DarkTheme: Story = {
  args: { status: 'streaming', attempt: 1, startedAt },
  globals: { theme: 'dark' },
};

/** In a 320 px wide container. */
export const NarrowContainer: Story = {
  args: { status: 'streaming', attempt: 2, restarts: 3, startedAt },
  render: (args) => (
    <div style={{ width: 320 }}>
      <AgentRunStatus {...args} />
    </div>
  ),
};
