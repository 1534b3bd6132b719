import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AgentEventLog, type RunEvent } from 'agent-console-kit';
import { classifyEvent } from 'agent-console-kit/core';
import 'agent-console-kit/styles.css';

const startedAt = Date.UTC(2026, 0, 1, 12, 0, 0);

/** What `classifyEvent` takes: a frame as read off the wire, and how it arrived. */
type RunEventFrame = Parameters<typeof classifyEvent>[0];
type RunEventArrival = NonNullable<Parameters<typeof classifyEvent>[1]>;

/** A synthetic event, classified as the engine does. */
function frameEvent(
  sequence: number,
  frame: RunEventFrame,
  arrival: Partial<RunEventArrival> = {},
): RunEvent {
  return classifyEvent(
    { id: String(sequence), ...frame },
    { sequence, receivedAt: startedAt + sequence * 40, attempt: 1, restart: false, ...arrival },
  );
}

/** A synthetic `message` event carrying one word of agent output. */
function messageEvent(
  sequence: number,
  text: string,
  extra: Partial<RunEventArrival> = {},
): RunEvent {
  const payload = { messages: [{ role: 'AGENT', content: [{ type: 'text', text }] }] };
  return frameEvent(sequence, { event: 'message', data: JSON.stringify(payload) }, extra);
}

function words(sentence: string, from = 1, extra: Partial<RunEventArrival> = {}): RunEvent[] {
  return sentence
    .split(' ')
    .map((word, index) => messageEvent(from + index, index === 0 ? word : ` ${word}`, extra));
}

const streamingEvents = words('Hello! I can help with');
const doneEvents = words('Hello! I can help with that.');

const restartedEvents = [
  ...words('Every reconnect starts'),
  ...words('Every reconnect starts a new run.', 4, { attempt: 2 }).map((event, index) =>
    index === 0 ? { ...event, id: '1', restart: true } : { ...event, id: String(index + 1) },
  ),
];

const oddEvents: RunEvent[] = [
  ...words('Before the odd ones'),
  frameEvent(5, { event: 'message', data: 'not json {' }),
  frameEvent(6, { event: 'message', data: '{"unexpected":true}' }),
  frameEvent(7, { event: 'heartbeat', data: '{}' }),
];

const tenThousandEvents = Array.from({ length: 10_000 }, (_, index) =>
  messageEvent(index + 1, ` word${index + 1}`),
);

const meta = {
  title: 'Components/AgentEventLog',
  component: AgentEventLog,
  args: { events: [], startedAt },
} satisfies Meta<typeof AgentEventLog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** No events yet. */
export const Empty: Story = {
  args: { status: 'idle' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('log')).toBeVisible();
  },
};

/** Events arriving. */
export const Streaming: Story = {
  args: { events: streamingEvents, status: 'streaming' },
  play: async ({ canvasElement }) => {
    const items = await within(canvasElement).findAllByRole('listitem');
    await expect(items.length).toBeGreaterThan(0);
  },
};

/** The connection dropped; events so far are kept. */
export const Reconnecting: Story = {
  args: { events: streamingEvents.slice(0, 3), status: 'reconnecting' },
};

/** The server started the run over on a reconnect: a marker before the new attempt. */
export const Restarted: Story = {
  args: { events: restartedEvents, status: 'streaming' },
};

/** A resumed reconnect: duplicates counted, not shown twice. */
export const DuplicatesAndDropped: Story = {
  args: { events: doneEvents, status: 'done', duplicateEvents: 2, droppedEvents: 40 },
};

/** The run finished. */
export const Done: Story = {
  args: { events: doneEvents, status: 'done' },
};

/** The person stopped the run. */
export const Aborted: Story = {
  args: { events: streamingEvents.slice(0, 2), status: 'aborted' },
};

/** The run failed (`run.failed`). */
export const Failed: Story = {
  args: {
    events: [
      ...words('Starting the work'),
      frameEvent(4, { event: 'run.failed', data: '{"error":{"message":"The agent crashed."}}' }),
    ],
    status: 'error',
  },
};

/** Data that is not JSON, a payload that does not match, an unknown event name. */
export const OddEvents: Story = {
  args: { events: oddEvents, status: 'done' },
};

/** 10,000 events: the list is virtualized. */
export const TenThousandEvents: Story = {
  args: { events: tenThousandEvents, status: 'done' },
  play: async ({ canvasElement }) => {
    const items = await within(canvasElement).findAllByRole('listitem');
    await expect(items.length).toBeLessThan(1000);
  },
};

/** Markup in event data is shown as text. */
export const MarkupAsText: Story = {
  args: {
    events: words('<img src=x onerror=alert(1)> <script>alert(1)</script>'),
    status: 'done',
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('img, script')).toBeNull();
  },
};

/** In the dark theme. */
export const DarkTheme: Story = {
  args: { events: restartedEvents, status: 'done' },
  globals: { theme: 'dark' },
};

/** In a 320 px wide container. */
export const NarrowContainer: Story = {
  args: { events: oddEvents, status: 'done' },
  render: (args) => (
    <div style={{ width: 320 }}>
      <AgentEventLog {...args} />
    </div>
  ),
};
