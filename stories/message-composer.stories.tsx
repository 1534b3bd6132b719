import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { MessageComposer } from 'agent-console-kit';
import 'agent-console-kit/styles.css';

const meta = {
  title: 'Components/MessageComposer',
  component: MessageComposer,
  args: { onSend: fn() },
} satisfies Meta<typeof MessageComposer>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Empty, ready for a message. */
export const Idle: Story = {};

/** Typed and sent with the button. */
export const Sent: Story = {
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), '  Hello there  ');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(args.onSend).toHaveBeenCalledWith([
      { role: 'USER', content: [{ type: 'text', text: 'Hello there' }] },
    ]);
  },
};

/** A blank message is never sent. */
export const BlankNotSent: Story = {
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), '   ');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(args.onSend).not.toHaveBeenCalled();
  },
};

/** Disabled while a run is active. */
export const Disabled: Story = {
  args: { disabled: true, defaultValue: 'Waiting for the answer' },
};

/** Custom labels and a placeholder. */
export const CustomLabels: Story = {
  args: { label: 'Ask the helpdesk', sendLabel: 'Ask', placeholder: 'How do I…' },
};

/** In the dark theme. */
export const DarkTheme: Story = {
  args: { defaultValue: 'Hello!' },
  globals: { theme: 'dark' },
};

/** In a 320 px wide container. */
export const NarrowContainer: Story = {
  render: (args) => (
    <div style={{ width: 320 }}>
      <MessageComposer {...args} />
    </div>
  ),
};
