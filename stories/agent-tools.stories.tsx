import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  AgentTools,
  useAgentTools,
  type AgentTool,
  type UseAgentToolsOptions,
} from 'agent-console-kit';
import { AgentConsole } from 'agent-console-kit/console';
import { demoToolServers } from 'agent-console-kit/testing';
import { mockOnlyStory } from '../.storybook/real-mode';

/** The tool server of a demo tool: what an app that knows its tenant's tools gives. */
const toolServerId = (tool: AgentTool) => demoToolServers[tool.tool_id];

/**
 * The person's consent on the sign-in page, played by the mock: its `…/__consent` stands in for
 * the service's sign-in page the authorization URL names.
 */
const consentInMock: NonNullable<UseAgentToolsOptions['toolAuthorization']> = (url) => {
  void fetch(`${window.location.origin}/__consent${new URL(url).search}`, {
    redirect: 'manual',
  });
};

interface ToolsFromServiceProps {
  agentId: string;
  collapseAbove?: number;
  withToolServers?: boolean;
}

/** An agent's tools from the mock service: `useAgentTools` rendered by `AgentTools`. */
function ToolsFromService({ agentId, collapseAbove, withToolServers }: ToolsFromServiceProps) {
  const tools = useAgentTools(agentId, {
    toolServerId: withToolServers ? toolServerId : undefined,
    toolAuthorization: consentInMock,
    authorizationReturnUrl: window.location.href,
  });
  return (
    <AgentTools
      groups={tools}
      status={tools.status}
      onRetry={() => void tools.query.refetch()}
      onAuthorize={(tool) => void tools.authorize(tool)}
      authorizations={tools.authorizations}
      collapseAbove={collapseAbove}
    />
  );
}

const meta = {
  title: 'Components/AgentTools',
  component: ToolsFromService,
  args: { agentId: 'form-agent' },
} satisfies Meta<typeof ToolsFromService>;
export default meta;
type Story = StoryObj<typeof meta>;

const toolsRegion = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('region', { name: 'Tools' });

/** What the intake agent reads, and a write action that opens the service's page. */
export const ReadsAndChanges: Story = mockOnlyStory({
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    const changes = await within(region).findByRole('list', { name: 'What it can change' });
    await expect(changes).toHaveTextContent('Opens the service’s page to finish');
    await expect(within(region).getByRole('list', { name: 'What it reads' })).toBeVisible();
  },
});

/** While the tools are on their way (this story's schemas never answer). */
export const Loading: Story = mockOnlyStory({
  beforeEach({ msw }) {
    msw.use(http.get('*/agents/form-agent/schemas', () => delay('infinite')));
  },
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    await expect(region).toHaveAttribute('aria-busy', 'true');
    await expect(region).toHaveTextContent('Loading the agent’s tools…');
  },
});

/** Six tools: collapsed behind a disclosure that gives their count; one is not set up yet. */
export const ManyCollapsed: Story = mockOnlyStory({
  args: { agentId: 'chat-agent' },
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    const toggle = await within(region).findByText('Show all 6 tools');
    await userEvent.click(toggle);
    const changes = within(region).getByRole('list', { name: 'What it can change' });
    await expect(changes).toBeVisible();
    await expect(changes).toHaveTextContent('Not set up yet');
  },
});

/** An agent that uses no tools. */
export const NoTools: Story = mockOnlyStory({
  args: { agentId: 'slow-agent' },
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    await expect(await within(region).findByText('This agent uses no tools.')).toBeVisible();
  },
});

/** A tool the service says is not set up yet (the list shown open). */
export const NotSetUp: Story = mockOnlyStory({
  args: { agentId: 'chat-agent', collapseAbove: 10 },
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    await expect(await within(region).findByText('Not set up yet')).toBeVisible();
    await expect(region).toHaveTextContent('1 tool is not set up yet.');
  },
});

/**
 * Tools that may ask for the person's authorization. The wire does not say whether they gave it:
 * the part says "may ask", never "authorized". Without the app's tool server mapping there is no
 * button; see the next story.
 */
export const MayAskForAuthorization: Story = mockOnlyStory({
  args: { agentId: 'tool-auth-agent' },
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    await expect(await within(region).findAllByText('May ask for your authorization')).toHaveLength(
      2,
    );
    await expect(within(region).queryByRole('button')).toBeNull();
  },
});

/**
 * The same tools with the app's tool server mapping (`toolServerId`): Authorize opens the sign-in
 * page ahead of a run (here the mock's consent stands in for it).
 */
export const NeedsAuthorization: Story = mockOnlyStory({
  args: { agentId: 'tool-auth-agent', withToolServers: true },
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    const authorize = await within(region).findByRole('button', {
      name: 'Authorize Create Jira issue',
    });
    await userEvent.click(authorize);
    await expect(
      await within(region).findByText('Sign-in page opened: finish there, then ask.'),
    ).toBeVisible();
  },
});

/** The tools could not be retrieved: said in the part, with Try again. */
export const LoadError: Story = mockOnlyStory({
  beforeEach({ msw }) {
    msw.use(
      http.get('*/agents/form-agent/schemas', () =>
        HttpResponse.json({ message: 'unavailable' }, { status: 503 }),
      ),
    );
  },
  play: async ({ canvasElement }) => {
    const region = await toolsRegion(canvasElement);
    await expect(
      await within(region).findByText(
        'The agent’s tools could not be loaded.',
        {},
        { timeout: 20_000 },
      ),
    ).toBeVisible();
    await expect(within(region).getByRole('button', { name: 'Try again' })).toBeVisible();
  },
});

/**
 * In the console: the tools in the agent's details; authorize both ahead of the first question,
 * then ask: the run does not hit the 422.
 */
export const AuthorizeBeforeAsking: Story = mockOnlyStory({
  render: () => (
    <AgentConsole
      agentId="tool-auth-agent"
      toolServerId={toolServerId}
      toolAuthorization={consentInMock}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const region = await toolsRegion(canvasElement);
    for (const name of ['Create Jira issue', 'Confluence pages']) {
      await userEvent.click(
        await within(region).findByRole('button', { name: `Authorize ${name}` }),
      );
    }
    await waitFor(() =>
      expect(
        within(region).getAllByText('Sign-in page opened: finish there, then ask.'),
      ).toHaveLength(2),
    );
    await userEvent.type(
      canvas.getByRole('textbox', { name: 'Message' }),
      'Create the issue{Enter}',
    );
    await expect((await canvas.findAllByText(/Jira is connected\./))[0]).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
});
