import { useMemo } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AgentInbox, createAgentClient, useAgentInbox } from 'agent-console-kit';
import {
  createMockAgentService,
  type MockAgentDefinition,
  type MockAgentService,
} from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';
import 'agent-console-kit/styles.css';
import { mockOnlyStory } from '../.storybook/real-mode';

/**
 * The approvals inbox over the proxy's run list (`createAgentProxy({ user, store })`): here msw
 * answers `{baseUrl}/runs` from a mock service of the story's own, in which the play's runs wait
 * for approval, and the agent operations from the same service. The real thing in one command:
 * `npx agent-console-kit dev --data ./.agent-data --allow-origin http://localhost:6006`.
 */
const baseUrl = 'https://inbox-stories.mock.test';
const chat = { 'ap.io.messages': true };

const storyAgents: MockAgentDefinition[] = [
  {
    agent: { agent_id: 'slack-agent', name: 'Slack notifier', capabilities: chat },
    durable: {
      turns: [
        {
          runningMs: 1000,
          text: 'I drafted the message and need your approval to send it.',
          approvals: [
            {
              displayName: 'Send Slack message to user',
              description: 'Glean will send a direct message in Slack to the current user.',
              arguments: { message: 'The weekly report is ready for review.' },
            },
          ],
        },
        { runningMs: 1000, text: 'Sent your Slack message.' },
      ],
    },
  },
  {
    agent: { agent_id: 'jira-agent', name: 'Ticket triage', capabilities: chat },
    durable: {
      turns: [
        {
          runningMs: 1000,
          text: 'One action needs your approval.',
          approvals: [
            {
              displayName: 'Create Jira issue',
              description: 'Creates an issue in the SUPPORT project.',
              arguments: { project: 'SUPPORT', summary: 'Login fails after reset' },
            },
          ],
        },
        { runningMs: 1000, text: 'Created SUPPORT-101.' },
      ],
    },
  },
];

let service: MockAgentService = createMockAgentService({ agents: storyAgents });
/** The runs the story started, oldest first: what `/runs` lists when they wait. */
let started: { agentId: string; runId: string; title: string; createdAt: number }[] = [];

type Msw = { use: (...handlers: ReturnType<typeof mockAgentHandlers>) => void };

async function startRun(agentId: string, title: string) {
  const answer = await service.handle(
    new Request(`${baseUrl}/api/agents/${agentId}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'USER', content: [{ type: 'text', text: title }] }],
        stream: false,
        execution_mode: 'DURABLE',
      }),
    }),
  );
  const { run } = (await answer.json()) as { run: { run_id: string } };
  started.push({ agentId, runId: run.run_id, title, createdAt: service.now() });
}

/** `{baseUrl}/runs?group=waiting` as the proxy answers it: the started runs that wait now. */
const waitingRuns = http.get(`${baseUrl}/runs`, async () => {
  const runs = [];
  for (const run of [...started].reverse()) {
    const answer = await service.handle(
      new Request(`${baseUrl}/api/agents/${run.agentId}/runs/${run.runId}`),
    );
    const { run: read } = (await answer.json()) as { run: { state: string } };
    if (read.state !== 'REQUIRES_INPUT') continue;
    runs.push({ ...run, state: read.state, group: 'waiting', updatedAt: run.createdAt });
  }
  return HttpResponse.json({ runs });
});

/** A fresh service for each story, with `count` runs waiting for approval. */
function serveInbox(count: number, ...extra: ReturnType<typeof mockAgentHandlers>) {
  return async function beforeEach({ msw }: { msw: Msw }) {
    service = createMockAgentService({ agents: storyAgents });
    started = [];
    if (count > 0) await startRun('slack-agent', 'Tell the team the weekly report is ready');
    if (count > 1) await startRun('jira-agent', 'Open a ticket for the login failure');
    service.advance(2000);
    msw.use(...mockAgentHandlers(service, { baseUrl }), waitingRuns);
    if (extra.length > 0) msw.use(...extra);
  };
}

const agentNames: Record<string, string> = {
  'slack-agent': 'Slack notifier',
  'jira-agent': 'Ticket triage',
};

interface InboxDemoProps {
  /** Open the oldest waiting run on mount. */
  openFirst?: boolean;
}

/** `useAgentInbox` and `AgentInbox`, as an app mounts them. */
function InboxDemo({ openFirst = false }: InboxDemoProps) {
  const client = useMemo(() => createAgentClient({ baseUrl, api: 'platform' }), []);
  const inbox = useAgentInbox({ baseUrl, pollIntervalMs: 0 });
  return (
    <div style={{ maxWidth: '40rem' }}>
      <AgentInbox
        inbox={inbox}
        client={client}
        agentName={(agentId) => agentNames[agentId] ?? agentId}
        defaultOpenRunId={openFirst ? started[0]?.runId : undefined}
      />
    </div>
  );
}

const meta = {
  title: 'Durable runs/Approvals inbox',
  component: InboxDemo,
  tags: ['autodocs'],
  parameters: {
    docs: {
      description: {
        component:
          'Every durable run of the signed-in user waiting for their approval, across agents and devices (`useAgentInbox` over the proxy’s `/runs`). Arrow keys move between runs, Enter opens one with its approval card, Escape closes it.',
      },
    },
  },
} satisfies Meta<typeof InboxDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const inboxOf = (canvasElement: HTMLElement) =>
  within(canvasElement).getByRole('region', { name: 'Waiting for your approval' });

/** Nothing waits. */
export const Empty: Story = mockOnlyStory({
  beforeEach: serveInbox(0),
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByText('Nothing is waiting for your approval.');
    await expect(within(inboxOf(canvasElement)).queryAllByRole('button')).toHaveLength(0);
  },
});

/** Two runs of two agents wait; the arrow keys move between them. */
export const WaitingItems: Story = mockOnlyStory({
  beforeEach: serveInbox(2),
  play: async ({ canvasElement }) => {
    const inbox = within(inboxOf(canvasElement));
    const first = await inbox.findByRole('button', { name: /Open a ticket/ });
    const second = inbox.getByRole('button', { name: /Tell the team/ });
    await expect(first).toHaveTextContent('Ticket triage');
    first.focus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(second).toHaveFocus();
    await expect(second).toHaveAttribute('aria-expanded', 'false');
  },
});

/** One run open: its approval card; approved by keyboard, its answer shows and it leaves the list. */
export const OneOpen: Story = mockOnlyStory({
  beforeEach: serveInbox(2),
  args: { openFirst: true },
  play: async ({ canvasElement }) => {
    const inbox = within(inboxOf(canvasElement));
    const opened = await inbox.findByRole('region', {
      name: 'Tell the team the weekly report is ready',
    });
    const card = await within(opened).findByRole('region', { name: 'Approval needed' });
    const approve = within(card).getByRole('button', { name: 'Approve' });
    await waitFor(() => expect(approve).not.toHaveAttribute('aria-disabled', 'true'));
    approve.focus();
    await userEvent.keyboard('{Enter}');
    service.advance(2000);
    await within(opened).findByText('Done');
    await waitFor(() =>
      expect(inbox.queryAllByRole('button', { name: /Tell the team/ })).toHaveLength(0),
    );
  },
});

/** The list could not be read (the proxy answered 503): the reason, and Try again. */
export const ReadError: Story = mockOnlyStory({
  beforeEach: serveInbox(
    0,
    http.get(`${baseUrl}/runs`, () =>
      HttpResponse.json(
        {
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: 'The store is restarting.',
        },
        { status: 503, headers: { 'content-type': 'application/problem+json' } },
      ),
    ),
  ),
  play: async ({ canvasElement }) => {
    const alert = await within(inboxOf(canvasElement)).findByRole('alert');
    await expect(alert).toHaveTextContent('The inbox could not be read');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
  },
});
