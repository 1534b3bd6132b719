import { useMemo, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  AgentApprovalCard,
  AgentCancelConfirm,
  AgentClientProvider,
  createAgentClient,
  createMemoryThreadStore,
  createDurableRunStore,
  useDurableRun,
  type DurableRunStatus,
  type ThreadStore,
  settledDurableRunStatuses,
} from 'agent-console-kit';
import type { KeyValueStorage } from 'agent-console-kit/core';
import { AgentConsole } from 'agent-console-kit/console';
import {
  createMockAgentService,
  type MockAgentDefinition,
  type MockAgentService,
} from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';

/** A story's own storage: each story starts with no run records, whatever the browser holds. */
function memoryStorage(): KeyValueStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}
import 'agent-console-kit/styles.css';
import { mockOnlyStory } from '../.storybook/real-mode';

/**
 * The durable stories talk to a mock service of their own, on a base URL of their own (on a docs
 * page every story renders at once: their handlers never answer for the other stories' agents).
 * Its clock runs in real time, and a play moves it forward with `service.advance(ms)`; the
 * timelines are long (an hour) so that a state holds until the play moves on.
 */
const baseUrl = 'https://durable-stories.mock.test';
const hour = 60 * 60_000;
const chat = { 'ap.io.messages': true, 'ap.io.streaming': true };

/** A story's agent: `name` as a console shows it, and what its durable run does. */
function agent(
  agentId: string,
  name: string,
  does: string,
  durable: MockAgentDefinition['durable'],
): MockAgentDefinition {
  return {
    agent: {
      agent_id: agentId,
      name,
      description: `A durable run that ${does}.`,
      capabilities: chat,
    },
    durable,
  };
}

const reportChunks = [
  'Collecting the sources. ',
  'Reading the three newest reports. ',
  'Comparing their numbers. ',
  'Writing the summary: the answer is ready for review.',
];

const storyAgents: MockAgentDefinition[] = [
  agent('queued-agent', 'Queued report', 'waits an hour in the queue', {
    acceptAs: 'QUEUED',
    queuedMs: hour,
    turns: [{ runningMs: 1000, text: 'Done after the queue.' }],
  }),
  agent('hour-agent', 'Long report', 'writes for an hour', {
    turns: [{ runningMs: hour, text: reportChunks }],
  }),
  agent('quick-agent', 'Quick report', 'is done in a second', {
    turns: [{ runningMs: 1000, text: 'The report is ready: three sources were checked.' }],
  }),
  agent('failing-agent', 'Failing analysis', 'fails after a second', {
    turns: [
      {
        runningMs: 1000,
        text: 'Starting the analysis…',
        fail: { code: 'TOOL_ERROR', message: 'The agent failed while calling a tool.' },
      },
    ],
  }),
  agent('slow-cancel-agent', 'Slow to stop', 'takes an hour to stop', {
    cancel: { cancellingMs: hour },
    turns: [{ runningMs: hour, text: reportChunks }],
  }),
  agent('overdue-agent', 'Overdue report', 'runs past its deadline', {
    executionTimeoutMs: 1000,
    graceMs: 1000,
    expiredState: 'EXPIRED',
    turns: [{ runningMs: hour, text: 'This never finishes by itself.' }],
  }),
  agent('one-approval-agent', 'Slack notifier', 'asks for one approval', {
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
  }),
  agent('batch-approval-agent', 'Ticket triage', 'asks for two approvals at once', {
    turns: [
      {
        runningMs: 1000,
        text: 'Two actions need your approval.',
        approvals: [
          {
            displayName: 'Create Jira issue',
            description: 'Creates an issue in the SUPPORT project.',
            arguments: { project: 'SUPPORT', summary: 'Login fails after reset' },
          },
          {
            displayName: 'Email the customer',
            description: 'Sends an email from the support mailbox.',
            arguments: { to: 'customer@example.com', subject: 'We are on it' },
            expiresInMs: 10 * 60_000,
          },
        ],
      },
      { runningMs: 1000, text: 'Done: the approved actions ran.' },
    ],
  }),
];

/** The service of the story shown (a play moves its clock). */
let service: MockAgentService = createMockAgentService({ agents: storyAgents });

type Msw = { use: (...handlers: ReturnType<typeof mockAgentHandlers>) => void };

/** A fresh service for each story; `extra` handlers (a hanging POST, a network error) win. */
function serveDurableAgents(...extra: ReturnType<typeof mockAgentHandlers>) {
  return function beforeEach({ msw }: { msw: Msw }) {
    service = createMockAgentService({ agents: storyAgents });
    msw.use(...mockAgentHandlers(service, { baseUrl }));
    if (extra.length > 0) msw.use(...extra);
  };
}

const statusText: Record<DurableRunStatus, string> = {
  idle: 'Not started.',
  starting: 'Starting the run…',
  'start-unknown':
    'This run may have started: the answer to the start was lost. It was not sent again.',
  queued: 'Queued: the service will start the run soon.',
  running: 'Running.',
  'requires-input': 'Waiting for your approval.',
  responding: 'Sending your decisions to the service…',
  cancelling: 'Cancelling: the service is stopping the run.',
  succeeded: 'Succeeded.',
  failed: 'Failed.',
  cancelled: 'Cancelled.',
  expired: 'Expired: the run went past its deadline.',
  lost: 'Lost: the service no longer knows this run.',
  unknown: 'The service reported a state this version does not know.',
};

interface DurableRunPanelProps {
  /** The agent whose run the panel starts. */
  agentId: string;
  /** A run to attach instead of starting one. */
  runId?: string;
}

/**
 * A durable run as an app would show it with `useDurableRun`: its status, its output, the
 * approvals it waits for, Stop (asking first) and "Check now". Runs are kept in memory only, so
 * each story starts from nothing.
 */
function DurableRunPanel({ agentId, runId }: DurableRunPanelProps) {
  const client = useMemo(
    () => createAgentClient({ baseUrl, api: 'platform', token: 'storybook-durable' }),
    [],
  );
  const [store] = useState(() => createDurableRunStore({ storage: memoryStorage() }));
  const [confirming, setConfirming] = useState(false);
  const run = useDurableRun({
    agentId,
    client,
    store,
    resume: false,
    ...(runId === undefined ? {} : { runId }),
  });
  const idle = run.status === 'idle' || settledDurableRunStatuses.has(run.status);
  const underWay = !idle && run.status !== 'start-unknown' && run.status !== 'cancelling';
  const error = run.error;
  return (
    <section
      className="ack-root ack-durable-demo"
      aria-label="Durable run"
      data-status={run.status}
      style={{ display: 'grid', gap: '0.75rem', maxWidth: '40rem' }}
    >
      <p role="status" style={{ margin: 0, fontWeight: 600 }}>
        {statusText[run.status]}
      </p>
      <div className="ack-actions">
        <button
          type="button"
          data-variant="primary"
          disabled={!idle}
          onClick={() =>
            void run.start({
              messages: [{ role: 'USER', content: [{ type: 'text', text: 'Write the report' }] }],
            })
          }
        >
          Start run
        </button>
        <button type="button" disabled={!underWay} onClick={() => setConfirming(true)}>
          Stop
        </button>
        <button
          type="button"
          data-variant="quiet"
          disabled={run.runId === undefined}
          onClick={() => void run.refresh()}
        >
          Check now
        </button>
      </div>
      {confirming && underWay ? (
        <AgentCancelConfirm
          onConfirm={() => {
            setConfirming(false);
            void run.cancel();
          }}
          onDismiss={() => setConfirming(false)}
        />
      ) : null}
      {run.pendingInteractions.length > 0 ? (
        <AgentApprovalCard
          interactions={run.pendingInteractions}
          status={run.status === 'responding' ? 'responding' : 'idle'}
          onSubmit={(decisions) => void run.respond(decisions)}
        />
      ) : null}
      <section aria-label="Output" className="ack-run-output">
        <p style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
          {run.output.text === '' ? 'No output yet.' : run.output.text}
        </p>
      </section>
      {error !== undefined && (run.status === 'failed' || run.status === 'start-unknown') ? (
        <p role="alert" className="ack-thread__error">
          {error.message}
        </p>
      ) : null}
    </section>
  );
}

const meta = {
  title: 'Durable runs/States',
  component: DurableRunPanel,
  args: { agentId: 'hour-agent' },
  parameters: { docs: { story: { height: '24rem' } } },
} satisfies Meta<typeof DurableRunPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Waits until the panel's status line says `status`'s text and the panel carries `data-status`. */
async function expectStatus(canvasElement: HTMLElement, status: DurableRunStatus) {
  const canvas = within(canvasElement);
  // The panel's status line comes first (the approval card has a live region of its own).
  await waitFor(() =>
    expect(canvas.getAllByRole('status')[0]).toHaveTextContent(statusText[status]),
  );
  await expect(canvas.getByRole('region', { name: 'Durable run' })).toHaveAttribute(
    'data-status',
    status,
  );
}

async function start(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('button', { name: 'Start run' }));
}

/** Moves the service's clock, then reads the run at once (rather than at the next poll). */
async function advanceAndCheck(canvasElement: HTMLElement, ms: number) {
  service.advance(ms);
  const check = within(canvasElement).getByRole('button', { name: 'Check now' });
  await waitFor(() => expect(check).toBeEnabled());
  await userEvent.click(check);
}

async function stopAndConfirm(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
  const dialog = await canvas.findByRole('alertdialog', { name: 'Cancel this run?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel run' }));
}

const durableStory = (story: Story): Story =>
  mockOnlyStory({ ...story, beforeEach: story.beforeEach ?? serveDurableAgents() });

/** The start POST is on its way (here it never answers). */
export const Starting: Story = durableStory({
  beforeEach: serveDurableAgents(
    http.post(`${baseUrl}/api/agents/:agentId/runs`, () => delay('infinite')),
  ),
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await expectStatus(canvasElement, 'starting');
    await expect(within(canvasElement).getByRole('button', { name: 'Start run' })).toBeDisabled();
  },
});

/** The start POST was sent and its answer lost (a network error): never sent again. */
export const StartOutcomeUnknown: Story = durableStory({
  beforeEach: serveDurableAgents(
    http.post(`${baseUrl}/api/agents/:agentId/runs`, () => HttpResponse.error()),
  ),
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await expectStatus(canvasElement, 'start-unknown');
    await expect(service.durableStats.runsStarted).toBe(0);
  },
});

/** Accepted as QUEUED: the service starts it within the hour. */
export const Queued: Story = durableStory({
  args: { agentId: 'queued-agent' },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await expectStatus(canvasElement, 'queued');
    await expect(service.durableStats.runsStarted).toBe(1);
  },
});

/** Running, with the output so far (half an hour into an hour-long run). */
export const Running: Story = durableStory({
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await expectStatus(canvasElement, 'running');
    await advanceAndCheck(canvasElement, hour / 2);
    const output = within(canvasElement).getByRole('region', { name: 'Output' });
    await waitFor(() => expect(output).toHaveTextContent('Collecting the sources.'));
    await expect(output).not.toHaveTextContent('Writing the summary');
    await expectStatus(canvasElement, 'running');
  },
});

/** Paused for one approval (REQUIRES_INPUT): the card asks Approve or Reject. */
export const RequiresInputOne: Story = durableStory({
  args: { agentId: 'one-approval-agent' },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await advanceAndCheck(canvasElement, 2000);
    await expectStatus(canvasElement, 'requires-input');
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Send Slack message to user' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Approve' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Reject' })).toBeVisible();
  },
});

/** Paused for a batch of two approvals, one with a deadline: one Submit answers both. */
export const RequiresInputBatch: Story = durableStory({
  args: { agentId: 'batch-approval-agent' },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await advanceAndCheck(canvasElement, 2000);
    await expectStatus(canvasElement, 'requires-input');
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('listitem', { name: 'Create Jira issue' })).toBeVisible();
    await expect(canvas.getByRole('listitem', { name: 'Email the customer' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Submit decisions' })).toBeVisible();
  },
});

/** The answer to an approval is on its way (here it never arrives): the card waits. */
export const Responding: Story = durableStory({
  args: { agentId: 'one-approval-agent' },
  beforeEach: serveDurableAgents(
    http.post(`${baseUrl}/api/agents/:agentId/responses`, () => delay('infinite')),
  ),
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await advanceAndCheck(canvasElement, 2000);
    const canvas = within(canvasElement);
    const approve = await canvas.findByRole('button', { name: 'Approve' });
    await waitFor(() => expect(approve).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(approve);
    await expectStatus(canvasElement, 'responding');
    await expect(canvas.getByText('Sending your answer…')).toBeVisible();
  },
});

/** Stop was confirmed; the service takes its time to stop the run (CANCELLING). */
export const Cancelling: Story = durableStory({
  args: { agentId: 'slow-cancel-agent' },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await expectStatus(canvasElement, 'running');
    await stopAndConfirm(canvasElement);
    await expectStatus(canvasElement, 'cancelling');
    // The status says cancelling once the request is sent; the service counts it on arrival.
    await waitFor(() => expect(service.durableStats.cancels).toBe(1));
  },
});

/** Done: the whole output. */
export const Succeeded: Story = durableStory({
  args: { agentId: 'quick-agent' },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await advanceAndCheck(canvasElement, 2000);
    await expectStatus(canvasElement, 'succeeded');
    await expect(within(canvasElement).getByRole('region', { name: 'Output' })).toHaveTextContent(
      'The report is ready: three sources were checked.',
    );
  },
});

/** The run failed at the service: the alert says why, the output so far stays. */
export const Failed: Story = durableStory({
  args: { agentId: 'failing-agent' },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await advanceAndCheck(canvasElement, 2000);
    await expectStatus(canvasElement, 'failed');
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(
      'The agent failed while calling a tool.',
    );
  },
});

/** Stop was confirmed and the service stopped the run. */
export const Cancelled: Story = durableStory({
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await expectStatus(canvasElement, 'running');
    await stopAndConfirm(canvasElement);
    await advanceAndCheck(canvasElement, 2000);
    await expectStatus(canvasElement, 'cancelled');
  },
});

/** The run went past its execution deadline: the service marked it EXPIRED. */
export const Expired: Story = durableStory({
  args: { agentId: 'overdue-agent' },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await advanceAndCheck(canvasElement, 5000);
    await expectStatus(canvasElement, 'expired');
  },
});

/** A run the service does not know (404: gone past retention, or never there). */
export const Lost: Story = durableStory({
  args: { runId: 'run_no_longer_there' },
  play: async ({ canvasElement }) => {
    await expectStatus(canvasElement, 'lost');
  },
});

function seededThreads(): ThreadStore {
  const threadStore = createMemoryThreadStore();
  const createdAt = Date.UTC(2026, 10, 23, 12, 0, 0);
  for (const [id, title, question, answer] of [
    ['thread-laptop', 'Laptop order', 'Where is my laptop order?', 'It shipped on Monday.'],
    ['thread-vpn', 'VPN access', 'How do I get VPN access?', 'Ask IT through the portal.'],
  ] as const) {
    void threadStore.save({
      id,
      agentId: 'hour-agent',
      title,
      messages: [
        { id: `${id}-q`, role: 'USER', text: question, status: 'done', createdAt },
        { id: `${id}-a`, role: 'GLEAN_AI', text: answer, status: 'done', createdAt },
      ],
    });
  }
  return threadStore;
}

/** A durable console with its saved threads (the list is above the thread when narrow). */
function DurableConsole({ width }: { width?: number }) {
  const client = useMemo(
    () => createAgentClient({ baseUrl, api: 'platform', token: 'storybook-durable' }),
    [],
  );
  const [threadStore] = useState(seededThreads);
  const [runStore] = useState(() => createDurableRunStore({ storage: memoryStorage() }));
  return (
    <div style={width === undefined ? undefined : { maxWidth: width }}>
      <AgentClientProvider client={client}>
        <AgentConsole
          agentId="hour-agent"
          executionMode="durable"
          threadStore={threadStore}
          threadId="thread-laptop"
          durableRun={{ store: runStore }}
        />
      </AgentClientProvider>
    </div>
  );
}

/** The console of a durable agent with two saved threads; switching shows the other one. */
export const ConsoleWithThreads: StoryObj = mockOnlyStory({
  beforeEach: serveDurableAgents(),
  render: () => <DurableConsole />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const threads = await canvas.findByRole('navigation', { name: /^Threads with / });
    const list = within(within(threads).getByRole('list'));
    await expect(list.getByRole('button', { name: 'Laptop order' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await userEvent.click(list.getByRole('button', { name: 'VPN access' }));
    const conversation = canvas.getByRole('region', { name: /^Conversation with / });
    await waitFor(() => expect(conversation).toHaveTextContent('How do I get VPN access?'));
    await expect(list.getByRole('button', { name: 'VPN access' })).toHaveAttribute(
      'aria-current',
      'true',
    );
  },
});

/** At 360 px: the thread list sits above the conversation. Stop asks before it cancels. */
export const ConsoleNarrowStopAsksFirst: StoryObj = mockOnlyStory({
  beforeEach: serveDurableAgents(),
  render: () => <DurableConsole width={360} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(
      await canvas.findByRole('textbox', { name: 'Message' }),
      'Write the report{Enter}',
    );
    await userEvent.click(await canvas.findByRole('button', { name: /stop/i }));
    const dialog = await canvas.findByRole('alertdialog', { name: 'Cancel this run?' });
    await expect(within(dialog).getByRole('button', { name: 'Keep running' })).toHaveFocus();
    await expect(service.durableStats.cancels).toBe(0);
  },
});

/** A durable console whose agent pauses for one approval (no thread store: nothing is kept). */
function ApprovalConsole() {
  const client = useMemo(
    () => createAgentClient({ baseUrl, api: 'platform', token: 'storybook-durable' }),
    [],
  );
  const [runStore] = useState(() => createDurableRunStore({ storage: memoryStorage() }));
  return (
    <AgentClientProvider client={client}>
      <AgentConsole
        agentId="one-approval-agent"
        executionMode="durable"
        durableRun={{ store: runStore }}
      />
    </AgentClientProvider>
  );
}

/**
 * The turn waits for approval: the answer says so and the card sits under the thread, above the
 * composer, which keeps the focus of the person who typed there.
 */
export const ConsoleWaitingForApproval: StoryObj = mockOnlyStory({
  beforeEach: serveDurableAgents(),
  render: () => <ApprovalConsole />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const box = await canvas.findByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'Tell me on Slack{Enter}');
    // Should it not start, the failure says where the console is.
    const said = () => canvas.queryAllByRole('status').map((status) => status.textContent);
    await waitFor(() =>
      expect(service.durableStats.runsStarted, `runs started (${said().join(' | ')})`).toBe(1),
    );
    service.advance(2000);
    const card = await canvas.findByRole('region', { name: 'Approval needed' });
    await expect(
      within(card).getByRole('heading', { name: 'Send Slack message to user' }),
    ).toBeVisible();
    // The agent's name heads the console, as a person would name it.
    await expect(canvas.getByRole('heading', { name: 'Slack notifier', level: 2 })).toBeVisible();
    await expect(within(card).getByRole('button', { name: 'Approve' })).toBeVisible();
    await expect(within(card).getByRole('button', { name: 'Reject' })).toBeVisible();
    await expect(canvas.getByText('The answer is waiting for your approval.')).toBeVisible();
    await expect(box).toHaveFocus();
    await expect(service.durableStats.toolsExecuted).toBe(0);
  },
});
