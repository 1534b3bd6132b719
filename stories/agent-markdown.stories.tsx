import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AgentRunOutput } from 'agent-console-kit';
import { AgentMarkdown, renderMarkdown } from 'agent-console-kit/markdown';

const answer = `## Summary

The request was **understood**, three sources were checked:

1. The *intake* form
2. The project wiki ([docs](https://example.com/docs))
3. \`jira\` tickets

> Everything is ready for review.

\`\`\`json
{ "status": "ready" }
\`\`\`
`;

const hostile = `Raw HTML stays text: <img src=x onerror="alert(1)"> <script>alert(1)</script>

[a javascript: link](javascript:alert(1)) · [a data: link](data:text/html,hi) · ![an image](https://tracker.example/pixel.png)`;

const meta = {
  title: 'Components/AgentMarkdown',
  component: AgentMarkdown,
  args: { text: answer },
} satisfies Meta<typeof AgentMarkdown>;
export default meta;
type Story = StoryObj<typeof meta>;

/** An answer with headings, lists, a quote, code and a link. */
export const Answer: Story = {};

/** Inside the output, as `renderText={renderMarkdown}` renders it. */
export const InTheOutput: Story = {
  render: ({ text }) => <AgentRunOutput text={text} status="done" renderText={renderMarkdown} />,
};

/** Markup and script links from the agent: shown as text, links dropped, the image a link. */
export const HostileMarkdown: Story = {
  args: { text: hostile },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('img, script')).toBeNull();
    const links = within(canvasElement).getAllByRole('link');
    await expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://tracker.example/pixel.png',
    ]);
  },
};
