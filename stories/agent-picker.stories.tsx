import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { AgentPicker, type Agent } from 'agent-console-kit';
import { mockOnlyStory } from '../.storybook/real-mode';

/** Finds an agent by name: the demo agents on the mock, the deployment's in real mode. */
function PickerDemo() {
  const [agent, setAgent] = useState<Agent>();
  return (
    <div style={{ minHeight: 340 }}>
      <AgentPicker value={agent?.agent_id} onChange={setAgent} />
      <p>{agent ? `Chosen: ${agent.name} (${agent.agent_id})` : 'No agent chosen yet.'}</p>
    </div>
  );
}

const meta = {
  title: 'Components/AgentPicker',
  component: AgentPicker,
  args: { onChange: () => {} },
  render: () => <PickerDemo />,
} satisfies Meta<typeof AgentPicker>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Closed, before anything is typed. */
export const Closed: Story = {};

/** Open on every agent. */
export const Open: Story = mockOnlyStory({
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('combobox', { name: 'Agent' }));
    await expect(await canvas.findByRole('option', { name: /Helpdesk chat/ })).toBeVisible();
  },
});

/** Typed, then chosen with ArrowDown and Enter. */
export const ChosenByKeyboard: Story = mockOnlyStory({
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const combobox = canvas.getByRole('combobox', { name: 'Agent' });
    await userEvent.type(combobox, 'thinker');
    await canvas.findByRole('option', { name: /Slow thinker/ });
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await expect(canvas.getByText(/^Chosen: Slow thinker/)).toBeVisible();
  },
});

/** A name no agent has. */
export const NoMatch: Story = mockOnlyStory({
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('combobox', { name: 'Agent' }), 'zzz');
    await expect(await canvas.findByText('No agent matches “zzz”.')).toBeVisible();
  },
});
