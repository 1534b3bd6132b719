import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AgentRunOutput } from 'agent-console-kit';
import 'agent-console-kit/styles.css';

const longText = Array.from(
  { length: 200 },
  (_, index) =>
    `Paragraph ${index + 1}: the agent keeps writing, and the output keeps its whitespace and line breaks.`,
).join('\n\n');

const meta = {
  title: 'Components/AgentRunOutput',
  component: AgentRunOutput,
  args: { text: '', status: 'idle' },
} satisfies Meta<typeof AgentRunOutput>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Before any output: the placeholder. */
export const Idle: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('No output yet.')).toBeVisible();
  },
};

/** While the run streams: `aria-busy`. */
export const Streaming: Story = {
  args: { text: 'Hello! I can help', status: 'streaming' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('region')).toHaveAttribute('aria-busy', 'true');
  },
};

/** While the connection is re-established. */
export const Reconnecting: Story = {
  args: { text: 'The connection may', status: 'reconnecting' },
};

/** The finished output. */
export const Done: Story = {
  args: { text: 'Hello! I can help with that.', status: 'done' },
};

/** What came before the person stopped the run. */
export const Aborted: Story = {
  args: { text: 'Let me think', status: 'aborted' },
};

/** A long output. */
export const LongOutput: Story = {
  args: { text: longText, status: 'done' },
};

/** Markup in the output is shown as text. */
export const MarkupAsText: Story = {
  args: { text: '<img src=x onerror=alert(1)> <script>alert(1)</script>', status: 'done' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('img, script')).toBeNull();
  },
};

/** In the dark theme. */
export const DarkTheme: Story = {
  args: { text: 'Hello! I can help with that.', status: 'done' },
  globals: { theme: 'dark' },
};

/** In a 320 px wide container. */
export const NarrowContainer: Story = {
  args: { text: longText.slice(0, 2000), status: 'done' },
  render: (args) => (
    <div style={{ width: 320 }}>
      <AgentRunOutput {...args} />
    </div>
  ),
};
