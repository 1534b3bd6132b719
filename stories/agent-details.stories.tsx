import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http } from 'msw';
import { expect, within } from 'storybook/test';
import { AgentDetails, useAgent, type Agent } from 'agent-console-kit';
import { mockOnlyStory } from '../.storybook/real-mode';

/** Retrieves an agent with `useAgent` and shows it, its loading state or its error. */
function AgentDetailsFromService({ agentId }: { agentId: string }) {
  const { data: agent, error, isPending } = useAgent(agentId);
  if (error) {
    return (
      <p role="alert">
        {error.kind === 'http' && 'status' in error && error.status === 404
          ? `No agent with the id “${agentId}”.`
          : error.message}
      </p>
    );
  }
  if (isPending) return <p role="status">Loading agent…</p>;
  return <AgentDetails agent={agent} />;
}

const meta = {
  title: 'Components/AgentDetails',
  component: AgentDetails,
  args: {
    agent: {
      agent_id: 'research-assistant',
      name: 'Research assistant',
      description: 'Answers questions from the company knowledge base.',
      capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
    } satisfies Agent,
  },
} satisfies Meta<typeof AgentDetails>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The record passed in as a prop. */
export const Default: Story = {};

/** An agent without description or capabilities. */
export const Minimal: Story = {
  args: { agent: { agent_id: 'bare-agent', name: 'Bare agent' } },
};

/** Retrieved from the embedded mock agent service with `useAgent`. */
export const FromService: Story = mockOnlyStory({
  render: () => <AgentDetailsFromService agentId="form-agent" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 2 })).toBeVisible();
    await expect(canvas.getByText('form-agent')).toBeVisible();
  },
});

/** While the request is in flight (this story's agent never answers). */
export const Loading: Story = mockOnlyStory({
  beforeEach({ msw }) {
    msw.use(http.get('*/agents/pending-agent', () => delay('infinite')));
  },
  render: () => <AgentDetailsFromService agentId="pending-agent" />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Loading agent…');
  },
});

/** An id the service does not know: a 404, shown once and not retried. */
export const NotFound: Story = mockOnlyStory({
  render: () => <AgentDetailsFromService agentId="no-such-agent" />,
  play: async ({ canvasElement }) => {
    const alert = await within(canvasElement).findByRole('alert');
    await expect(alert).toHaveTextContent('No agent with the id “no-such-agent”.');
  },
});

/** Markup in a record is shown as text. */
export const MarkupAsText: Story = {
  args: {
    agent: {
      agent_id: 'xss-agent',
      name: '<img src=x onerror=alert(1)>',
      description: '<script>alert(1)</script> javascript:alert(1)',
      capabilities: {},
    },
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('img, script')).toBeNull();
  },
};
