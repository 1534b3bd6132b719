import type { Meta, StoryObj } from '@storybook/react-vite';
import { AgentConsole } from 'agent-console-kit/console';
import { renderMarkdown } from 'agent-console-kit/markdown';
import { realAgentId, realMode } from '../.storybook/real-mode';

/**
 * The story to open against a real deployment (`STORYBOOK_AGENT_BASE_URL`): the agent
 * `STORYBOOK_AGENT_ID`, or the agent picker when it is not set. On the mock service it shows the
 * picker over the demo agents.
 */
const meta = {
  title: 'Console/Real deployment',
  component: AgentConsole,
  args: { agentId: realMode ? realAgentId : undefined },
} satisfies Meta<typeof AgentConsole>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The console, as an app would embed it. */
export const Console: Story = {};

/** The same, rendering the agent's answer as Markdown (`agent-console-kit/markdown`). */
export const WithMarkdown: Story = {
  args: { renderText: renderMarkdown },
};
