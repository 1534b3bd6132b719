import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { AgentInputForm } from 'agent-console-kit';
import 'agent-console-kit/styles.css';

/** An input schema with every kind of field. */
const inputSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Title', description: 'A short name for the project.' },
    details: {
      type: 'string',
      title: 'Details',
      description: 'What should be done, and why.',
      format: 'textarea',
    },
    budget: { type: 'number', title: 'Budget (EUR)', minimum: 0 },
    headcount: { type: 'integer', title: 'Headcount', default: 3, minimum: 1, maximum: 50 },
    urgent: { type: 'boolean', title: 'Urgent', default: false },
    priority: {
      type: 'string',
      title: 'Priority',
      enum: ['low', 'medium', 'high'],
      default: 'medium',
    },
    due_date: { type: 'string', title: 'Due date', format: 'date' },
  },
  required: ['title', 'priority'],
};

const meta = {
  title: 'Components/AgentInputForm',
  component: AgentInputForm,
  args: { inputSchema, onSubmit: fn() },
} satisfies Meta<typeof AgentInputForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every kind of field, with the schema's defaults. */
export const Idle: Story = {};

/** Filled in and submitted: `onSubmit` receives the run's input. */
export const Submitted: Story = {
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText(/^Title/), 'New website');
    await userEvent.click(canvas.getByRole('button', { name: 'Run' }));
    await expect(args.onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'New website', priority: 'medium' }),
    );
  },
};

/** Submitted with a required field empty: the field is marked invalid and nothing is sent. */
export const Invalid: Story = {
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Run' }));
    await expect(await canvas.findByLabelText(/^Title/)).toHaveAttribute('aria-invalid', 'true');
    await expect(args.onSubmit).not.toHaveBeenCalled();
  },
};

/** Messages from outside (e.g. a problem detail's `errors[]`). */
export const ExternalErrors: Story = {
  args: { errors: { title: 'This title is already taken.' } },
};

/** Disabled while a run is active. */
export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Run' })).toBeDisabled();
  },
};

/** An agent without input fields. */
export const NoFields: Story = { args: { inputSchema: {} } };

/** In the dark theme. */
export const DarkTheme: Story = {
  globals: { theme: 'dark' },
};

/** In a 320 px wide container. */
export const NarrowContainer: Story = {
  render: (args) => (
    <div style={{ width: 320 }}>
      <AgentInputForm {...args} />
    </div>
  ),
};
