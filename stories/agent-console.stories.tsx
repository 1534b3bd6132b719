import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import { AgentClientProvider, createAgentClient } from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import { AgentConsole, type AgentConsoleProps } from 'agent-console-kit/console';
import { createMockAgentService, textEvents } from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';
import 'agent-console-kit/styles.css';
import { runProjectIntake } from './play-steps';
import { mockOnlyStory } from '../.storybook/real-mode';

const meta = {
  title: 'Console/AgentConsole',
  component: AgentConsole,
  args: { agentId: 'form-agent' },
} satisfies Meta<typeof AgentConsole>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Waits for the console's status line to say the run is done. */
async function expectDone(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await expect(await canvas.findByText(/^Done/)).toBeVisible();
}

/** Checks that the output region holds the agent's answer. */
async function expectOutput(canvasElement: HTMLElement) {
  const output = within(canvasElement).getByRole('region', { name: 'Agent output' });
  await expect(output).not.toHaveTextContent('No output yet.');
  await expect(output.textContent?.trim()).not.toBe('');
}

/** Checks that a chat agent's thread holds an answer (issue 8: answers are in the thread). */
async function expectAnswer(canvasElement: HTMLElement, text?: string) {
  const answers = within(canvasElement)
    .getAllByRole('listitem')
    .filter((item) => item.getAttribute('data-role') === 'agent');
  const last = answers.at(-1);
  await expect(last).toBeDefined();
  if (text !== undefined) await expect(last).toHaveTextContent(text);
  else await expect(last?.querySelector('.ack-thread__text')?.textContent?.trim()).not.toBe('');
}

/** The form agent: fill in the form, run, and wait for the output. */
export const FormAgent: Story = mockOnlyStory({
  play: async ({ canvasElement }) => {
    await runProjectIntake(canvasElement);
    await expectDone(canvasElement);
    await expectOutput(canvasElement);
  },
});

/** The form agent, run without its required fields: the form says which are missing. */
export const FormAgentInvalid: Story = mockOnlyStory({
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const title = await canvas.findByLabelText(/^Title/);
    await userEvent.click(canvas.getByRole('button', { name: 'Run' }));
    await expect(title).toHaveAttribute('aria-invalid', 'true');
  },
});

/** The chat agent: type a message, send it, and wait for the answer. */
export const ChatAgent: Story = mockOnlyStory({
  args: { agentId: 'chat-agent' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Message'), 'Can you help me?');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expectDone(canvasElement);
    await expectAnswer(canvasElement);
  },
});

/** A slow agent, stopped while it streams. */
export const Stop: Story = mockOnlyStory({
  args: { agentId: 'slow-agent' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Message'), 'Think');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    // Stop replaces Send in the composer while the answer streams.
    const stop = await canvas.findByRole('button', { name: 'Stop' });
    await userEvent.click(stop);
    await expect(await canvas.findByText('Stopped.')).toBeVisible();
  },
});

/** An agent id the service does not know: a 404. */
export const NotFound: Story = mockOnlyStory({
  args: { agentId: 'no-such-agent' },
  play: async ({ canvasElement }) => {
    const alert = await within(canvasElement).findByRole('alert');
    await expect(alert).toHaveTextContent('no-such-agent');
  },
});

interface ScenarioArgs {
  /** Milliseconds between events. */
  eventDelayMs: number;
  /** Drop the connection once after this many events (0: never). */
  dropAfter: number;
}

const configurableFormSchema = {
  type: 'object',
  properties: {
    topic: { type: 'string', title: 'Topic' },
    notes: { type: 'string', format: 'textarea', title: 'Notes' },
  },
  required: ['topic'],
};

/**
 * The configurable agents live on a base URL of their own: on a docs page, where every story is
 * rendered at once, their handlers never answer for the other stories' agents.
 */
const configurableBaseUrl = (kind: 'chat' | 'form') => `https://configurable-${kind}.mock.test`;

/** Serves one agent whose event rate and connection drop follow the story's controls. */
function serveConfigurableAgent(kind: 'chat' | 'form') {
  return function beforeEach({
    args,
    msw,
  }: {
    args: ScenarioArgs;
    msw: { use: (...handlers: ReturnType<typeof mockAgentHandlers>) => void };
  }) {
    const { eventDelayMs, dropAfter } = args;
    const service = createMockAgentService({
      agents: [
        {
          agent: {
            agent_id: 'configurable-agent',
            name: kind === 'chat' ? 'Configurable chat agent' : 'Configurable form agent',
            description: 'Its event rate and connection drop follow the controls.',
            capabilities: { 'ap.io.messages': kind === 'chat', 'ap.io.streaming': true },
          },
          schemas: {
            input_schema: kind === 'chat' ? {} : configurableFormSchema,
            output_schema: {},
          },
          run: {
            events: textEvents('A configurable answer, one word at a time.'),
            delayMs: eventDelayMs,
            ...(dropAfter > 0 ? { dropAfter, dropTimes: 1, onReconnect: 'resume' as const } : {}),
          },
        },
      ],
    });
    msw.use(...mockAgentHandlers(service, { baseUrl: configurableBaseUrl(kind) }));
  };
}

/** A console talking to the configurable agent's own base URL. */
function ConfigurableConsole({
  kind,
  agentId,
  api,
}: {
  kind: 'chat' | 'form';
  agentId: string | undefined;
  api: AgentApi;
}) {
  const client = useMemo(
    () => createAgentClient({ baseUrl: configurableBaseUrl(kind), api, token: 'storybook' }),
    [kind, api],
  );
  return (
    <AgentClientProvider client={client}>
      <AgentConsole agentId={agentId} />
    </AgentClientProvider>
  );
}

/**
 * A chat agent whose event rate and connection drop are controls (the API generation is the
 * toolbar's "API" menu).
 */
export const Configurable: StoryObj<AgentConsoleProps & ScenarioArgs> = mockOnlyStory({
  args: { agentId: 'configurable-agent', eventDelayMs: 100, dropAfter: 0 },
  argTypes: {
    eventDelayMs: { control: { type: 'range', min: 0, max: 1000, step: 50 } },
    dropAfter: { control: { type: 'number', min: 0 } },
  },
  beforeEach: serveConfigurableAgent('chat'),
  render: ({ agentId }, { globals }) => (
    <ConfigurableConsole kind="chat" agentId={agentId} api={globals['agentApi'] as AgentApi} />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Message'), 'Go');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expectDone(canvasElement);
  },
});

/** In the dark theme: the whole canvas follows (the toolbar's "Theme" menu does the same). */
export const DarkTheme: Story = mockOnlyStory({
  args: { agentId: 'chat-agent' },
  globals: { theme: 'dark' },
});

/** In a 320 px wide container. */
export const NarrowContainer: Story = mockOnlyStory({
  render: (args) => (
    <div style={{ width: 320 }}>
      <AgentConsole {...args} />
    </div>
  ),
});

/** Sends a message to a chat-style agent from its console. */
async function sendMessage(canvasElement: HTMLElement, text = 'Go') {
  const canvas = within(canvasElement);
  await userEvent.type(await canvas.findByLabelText('Message'), text);
  await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
}

/** The connection drops after 3 events; the reconnect resumes with `Last-Event-ID`. */
export const Reconnects: Story = mockOnlyStory({
  args: { agentId: 'flaky-agent' },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    await expectDone(canvasElement);
  },
});

/** The connection drops and the server starts the run over: the status line says so. */
export const Restarted: Story = mockOnlyStory({
  args: { agentId: 'restarting-agent', showEventLog: true },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    await expectDone(canvasElement);
    const canvas = within(canvasElement);
    await expect(
      canvas.getByText(/^Done in .* s\. The server started the run over once/),
    ).toBeVisible();
    // The log follows the tail, so the marker near the start is scrolled out of the virtual window.
    canvas.getByRole('log', { name: 'Run events' }).scrollTop = 0;
    await expect(
      await canvas.findByText('Attempt 2: the server started the run over'),
    ).toBeVisible();
  },
});

/**
 * The run fails mid-stream with a `run.failed` event (platform API, whatever the toolbar says: the
 * legacy API has no documented failure event). The output so far stays; the alert says why.
 */
export const RunFailed: Story = mockOnlyStory({
  args: { agentId: 'failing-agent' },
  globals: { agentApi: 'platform' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await sendMessage(canvasElement);
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent(
      'The service said: The agent failed while calling a tool.',
    );
    // Said once: the alert explains; the partial answer stays in the thread, marked as failed.
    await expectAnswer(canvasElement, 'Starting the analysis of the');
  },
});

/** The first attempt is answered 429 with `Retry-After: 2`; the run goes through after the wait. */
export const RateLimited: Story = mockOnlyStory({
  args: { agentId: 'rate-limited-agent' },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    await expect(await within(canvasElement).findByText(/^Done/)).toBeVisible();
  },
});

/** The service answers 422: tools to authorize first. */
export const ToolAuthorization: Story = mockOnlyStory({
  args: { agentId: 'tool-auth-agent' },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    await expect(await within(canvasElement).findByRole('alert')).toBeVisible();
  },
});

/** 10,000 events in one run. */
export const TenThousandEvents: Story = mockOnlyStory({
  args: { agentId: 'ten-thousand-agent' },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    // Work in proportion to the 10,000 events: 2 s on an idle machine, over 20 s on a loaded one
    // (the storybook project allows a story 60 s).
    await expect(
      await within(canvasElement).findByText(/^Done/, {}, { timeout: 50_000 }),
    ).toBeVisible();
  },
});

/** An agent whose output holds markup: shown as text. */
export const MarkupAsText: Story = mockOnlyStory({
  args: { agentId: 'xss-agent' },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    await expectDone(canvasElement);
    await expect(canvasElement.querySelector('img, script, iframe')).toBeNull();
  },
});

/**
 * A form agent whose event rate and connection drop are controls (the API generation is the
 * toolbar's "API" menu).
 */
export const ConfigurableFormAgent: StoryObj<AgentConsoleProps & ScenarioArgs> = mockOnlyStory({
  args: { agentId: 'configurable-agent', eventDelayMs: 100, dropAfter: 0 },
  argTypes: {
    eventDelayMs: { control: { type: 'range', min: 0, max: 1000, step: 50 } },
    dropAfter: { control: { type: 'number', min: 0 } },
  },
  beforeEach: serveConfigurableAgent('form'),
  render: ({ agentId }, { globals }) => (
    <ConfigurableConsole kind="form" agentId={agentId} api={globals['agentApi'] as AgentApi} />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText(/Topic/), 'Storybook');
    await userEvent.click(canvas.getByRole('button', { name: 'Run' }));
    await expectDone(canvasElement);
  },
});

/**
 * The console as end users see it (the default): the conversation and its answers, no developer
 * event log and no "Show run" on an answer.
 */
export const ForEndUsers: Story = mockOnlyStory({
  args: { agentId: 'chat-agent' },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    await expectDone(canvasElement);
    await expectAnswer(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole('region', { name: /^Run events/ })).toBeNull();
    await expect(
      canvas.queryByRole('button', { name: 'Show run events of this answer' }),
    ).toBeNull();
  },
});

/**
 * The console for the people who build the agent (`showEventLog`): the event log of the run under
 * the thread, and "Show run" on each answer to see that answer's events.
 */
export const WithEventLog: Story = mockOnlyStory({
  args: { agentId: 'chat-agent', showEventLog: true },
  play: async ({ canvasElement }) => {
    await sendMessage(canvasElement);
    await expectDone(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('region', { name: 'Run events' })).toBeVisible();
    await expect(
      canvas.getByRole('button', { name: 'Show run events of this answer' }),
    ).toBeVisible();
  },
});
