import { StrictMode } from 'react';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import {
  AgentClientProvider,
  createAgentClient,
  type AgentInputFormProps,
  type AgentThreadProps,
  type RunStatus,
} from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import { AgentConsole, type AgentConsoleProps } from 'agent-console-kit/console';
import { demoAgents, type MockAgentDefinition } from 'agent-console-kit/testing';
import { deadUrl as deadMockServerUrl, setUpMockServer } from '../../support/mock-server.js';
import { layOutEventLogs } from '../../support/event-log.js';

const summary =
  ' Here is a short summary: the request was understood, three sources were checked, and the answer is ready for review.';

const formAgent = demoAgents.find((definition) => definition.agent.agent_id === 'form-agent');
if (!formAgent) throw new Error('the demo agents lack form-agent');
const slowFormAgent: MockAgentDefinition = {
  ...formAgent,
  agent: { ...formAgent.agent, agent_id: 'slow-form-agent', name: 'Slow intake' },
  run: { ...formAgent.run, delayMs: 100, firstEventDelayMs: 100 },
};

const server = setUpMockServer({ agents: [...demoAgents, slowFormAgent] });
let deadUrl: string;

beforeAll(async () => {
  deadUrl = await deadMockServerUrl();
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  // Unmounting aborts the run: no socket may stay open.
  await server.waitFor(() => server.openStreams === 0);
});

// jsdom has no layout: the event log's scroller and rows get a size so its virtual rows render.
layOutEventLogs(600);

interface RenderOptions {
  api?: AgentApi;
  fetch?: typeof fetch;
  props?: Partial<AgentConsoleProps>;
}

function renderConsole(agentId: string, { api = 'rest-v1', fetch, props }: RenderOptions = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createAgentClient({
    baseUrl: server.url,
    api,
    token: 'secret-token-1234',
    ...(fetch ? { fetch } : {}),
  });
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>
          {/* The developer's view, log included (the end user's default is off: agent-console-end-user.test.tsx). */}
          <AgentConsole
            agentId={agentId}
            showEventLog
            runOptions={{ reconnect: { baseDelayMs: 20, maxDelayMs: 5_000 } }}
            {...props}
          />
        </AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

function statusLine() {
  return screen.getByText((_, element) => element?.classList.contains('ack-run-status') ?? false);
}

async function waitForStatus(text: string | RegExp, timeout = 5_000) {
  await waitFor(() => expect(statusLine()).toHaveTextContent(text), { timeout });
}

function output() {
  return screen.getByRole('region', { name: 'Agent output' });
}

/** A chat agent's answers are in the thread (issue 8): the newest one. */
function lastAnswer() {
  const answers = screen
    .getAllByRole('listitem')
    .filter((item) => item.getAttribute('data-role') === 'agent');
  const last = answers.at(-1);
  if (!last) throw new Error('No answer in the thread');
  return last;
}

function lastAnswerText() {
  return lastAnswer().querySelector('.ack-thread__text')?.textContent ?? '';
}

async function sendMessage(text: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: 'Message' }), `${text}{Enter}`);
}

async function fillIntake(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'New office');
  fireEvent.change(screen.getByLabelText(/^Due date/), { target: { value: '2026-05-01' } });
}

const intakeInput = {
  title: 'New office',
  details: '',
  budget: '',
  headcount: 3,
  urgent: false,
  priority: 'medium',
  due_date: '2026-05-01',
  kickoff_at: '',
};

describe.each<AgentApi>(['rest-v1', 'platform'])('given the form agent on %s', (api) => {
  it('has no axe violations', async () => {
    const { container } = renderConsole('form-agent', { api });
    await screen.findByRole('textbox', { name: /^Title/ });

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('shows the agent and its form, and runs it with every field', async () => {
    const user = userEvent.setup();
    renderConsole('form-agent', { api });

    expect(await screen.findByRole('heading', { level: 2, name: 'Project intake' })).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    await fillIntake(user);
    await user.click(screen.getByRole('button', { name: 'Run' }));

    await waitForStatus(/^Done in \d+\.\d s\.$/);
    expect(output().textContent).toBe(`Thanks, the project intake is filed.${summary}`);
    expect(server.postCount('form-agent')).toBe(1);
    const body = server.runRequests('form-agent')[0]?.body as Record<string, unknown>;
    expect(body['input']).toEqual(intakeInput);
    expect(screen.getByRole('log', { name: 'Run events' })).toBeInTheDocument();
    expect(screen.getByText(/^\d+ events\.$/)).toBeInTheDocument();
  });
});

describe('given a form agent whose run takes a while', () => {
  it('has no axe violations mid-run', async () => {
    const user = userEvent.setup();
    const { container } = renderConsole('slow-form-agent');
    await fillIntake(user);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitForStatus('Running…');

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('disables the form while the run is active, hands focus to Stop and back', async () => {
    const user = userEvent.setup();
    renderConsole('slow-form-agent');
    await fillIntake(user);
    const run = screen.getByRole('button', { name: 'Run' });

    await user.click(run);

    await waitForStatus('Running…');
    expect(screen.getByRole('textbox', { name: /^Title/ })).toBeDisabled();
    expect(run).toBeDisabled();
    expect(output()).toHaveAttribute('aria-busy', 'true');
    const stop = screen.getByRole('button', { name: 'Stop' });
    expect(stop).toHaveFocus();

    await waitForStatus(/^Done/, 10_000);
    expect(run).toBeEnabled();
    expect(run).toHaveFocus();
    // Stop is there only while a run is active: no disabled Stop left behind.
    expect(stop).not.toBeInTheDocument();
    expect(server.postCount('slow-form-agent')).toBe(1);
  });
  it('leaves focus where the reader moved it during the run', async () => {
    const user = userEvent.setup();
    renderConsole('slow-form-agent');
    await fillIntake(user);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await waitForStatus('Running…');
    // The log's toolbar comes with the first event.
    const search = await screen.findByRole('searchbox', { name: 'Search payloads' });

    await user.click(search);

    await waitForStatus(/^Done/, 10_000);
    expect(search).toHaveFocus();
  });
});

describe('given the chat agent', () => {
  it('has no axe violations', async () => {
    const { container } = renderConsole('chat-agent');
    await screen.findByRole('textbox', { name: 'Message' });

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('sends a message from the composer and shows the answer', async () => {
    renderConsole('chat-agent', { api: 'platform' });
    expect(await screen.findByRole('heading', { name: 'Helpdesk chat' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Run' })).toBeNull();

    await sendMessage('Hello');

    await waitForStatus(/^Done/);
    // The demo chat agent answers from the history it was sent (issue 8), in the thread.
    expect(screen.getByRole('listitem', { name: 'You said' })).toHaveTextContent('Hello');
    expect(lastAnswerText()).toBe(
      `Hello! I can help with that. You asked "Hello": this is turn 1 of our conversation.${summary}`,
    );
    const body = server.runRequests('chat-agent')[0]?.body as Record<string, unknown>;
    expect(body['messages']).toEqual([
      { role: 'USER', content: [{ type: 'text', text: 'Hello' }] },
    ]);
    expect(body['stream']).toBe(true);
  });

  it('clears the run and returns to ready', async () => {
    const user = userEvent.setup();
    renderConsole('chat-agent');
    await sendMessage('Hello');
    await waitForStatus(/^Done/);

    await user.click(screen.getByRole('button', { name: 'Clear' }));

    expect(statusLine()).toHaveTextContent('Ready.');
    // Back to the state before any run: an empty thread, no log, no Clear (issues 8 and 9).
    expect(screen.getByText('No messages yet.')).toBeInTheDocument();
    expect(screen.queryByRole('log', { name: 'Run events' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
  });
});

describe('given a run stopped midway', () => {
  it('has no axe violations once stopped', async () => {
    const user = userEvent.setup();
    const { container } = renderConsole('slow-agent');
    await sendMessage('Think');
    await waitFor(() => expect(lastAnswerText()).toMatch(/^Let/));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitForStatus('Stopped.');

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('closes the socket, keeps the partial output, and retries on request', async () => {
    const user = userEvent.setup();
    renderConsole('slow-agent');
    await sendMessage('Think');
    await waitFor(() => expect(lastAnswerText()).toMatch(/^Let/));

    await user.click(screen.getByRole('button', { name: 'Stop' }));

    await waitForStatus('Stopped.');
    await server.waitFor(() => server.openStreams === 0);
    expect(server.runRequests('slow-agent')[0]?.closedByClient).toBe(true);
    const partial = lastAnswerText();
    expect(partial.length).toBeGreaterThan(0);
    expect(`Let me think about it.${summary}`.startsWith(partial)).toBe(true);
    expect(lastAnswer()).toHaveAttribute('data-status', 'stopped');
    expect(server.postCount('slow-agent')).toBe(1);

    // Retry is on the stopped answer in the thread (issue 8).
    await user.click(within(lastAnswer()).getByRole('button', { name: 'Retry' }));

    await waitFor(() => expect(server.postCount('slow-agent')).toBe(2));
    const bodies = server.runRequests('slow-agent').map((request) => request.body);
    expect(bodies[1]).toEqual(bodies[0]);
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitForStatus('Stopped.');
  });
});

describe('given a connection that drops and resumes', () => {
  it('has no axe violations after the reconnect', async () => {
    const { container } = renderConsole('flaky-agent');
    await sendMessage('Go');
    await waitForStatus(/^Done/);

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('reconnects with Last-Event-ID, shows the attempt boundary and every word once', async () => {
    const statuses: RunStatus[] = [];
    renderConsole('flaky-agent', {
      props: {
        runOptions: {
          reconnect: { baseDelayMs: 20 },
          onStatusChange: (status) => statuses.push(status),
        },
      },
    });

    await sendMessage('Go');

    await waitForStatus(/^Done/);
    expect(statuses).toEqual(['connecting', 'streaming', 'reconnecting', 'streaming', 'done']);
    expect(lastAnswerText()).toBe(`The connection may drop.${summary}`);
    expect(server.postCount('flaky-agent')).toBe(2);
    expect(server.runRequests('flaky-agent')[1]?.lastEventId).toBe('3');
    expect(screen.getByText('Attempt 2: reconnected')).toBeInTheDocument();
  });
});

describe('given a server that starts the run over on a reconnect', () => {
  it('has no axe violations after the restart', async () => {
    const { container } = renderConsole('restarting-agent');
    await sendMessage('Go');
    await waitForStatus(/^Done/);

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('says so, marks the restart in the log and shows the new attempt’s output once', async () => {
    renderConsole('restarting-agent');

    await sendMessage('Go');

    await waitForStatus(
      /^Done in .* s\. The server started the run over once: the output shows the last attempt\.$/,
    );
    expect(lastAnswerText()).toBe(`Every reconnect starts a new run.${summary}`);
    expect(screen.getByText('Attempt 2: the server started the run over')).toBeInTheDocument();
  });
});

describe('given a rate-limited first attempt (429, Retry-After: 2)', () => {
  it('has no axe violations while waiting', async () => {
    const { container } = renderConsole('rate-limited-agent');
    await sendMessage('Go');
    await waitForStatus(/Reconnecting in 2 s/);

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('says how long it waits, then runs', async () => {
    renderConsole('rate-limited-agent');

    await sendMessage('Go');

    await waitForStatus(/^The service asked to wait \(429\)\. Reconnecting in 2 s \(attempt 2\)…$/);
    await waitForStatus(/^Done/, 8_000);
    expect(server.postCount('rate-limited-agent')).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe.each<AgentApi>(['rest-v1', 'platform'])('given each error on %s', (api) => {
  it('has no axe violations with an error shown', async () => {
    const { container } = renderConsole('tool-auth-agent', { api });
    await sendMessage('Go');
    await screen.findByRole('alert');

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('401: says the token is missing or expired', async () => {
    server.inject('chat-agent', { status: 401, endpoint: 'run' });
    renderConsole('chat-agent', { api });

    await sendMessage('Go');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in needed');
    expect(alert).toHaveTextContent('The access token is missing or expired.');
    expect(alert).not.toHaveTextContent('secret-token-1234');
    expect(statusLine()).toHaveTextContent('The run failed.');
    expect(server.postCount('chat-agent')).toBe(1);
    // Retry is on the failed answer in the thread (issue 8).
    expect(within(lastAnswer()).getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('401 while retrieving the agent: says so instead of showing the console', async () => {
    server.inject('chat-agent', { status: 401, endpoint: 'agent' });
    renderConsole('chat-agent', { api });

    const alert = await screen.findByRole('alert');

    expect(alert).toHaveTextContent('Sign-in needed');
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
  });

  it('403: says the token is not allowed to use the agent', async () => {
    server.inject('chat-agent', { status: 403, endpoint: 'run' });
    renderConsole('chat-agent', { api });

    await sendMessage('Go');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not allowed');
    expect(alert).toHaveTextContent('This token is not allowed to use this agent.');
  });

  it('404: says there is no agent with this id', async () => {
    renderConsole('no-such-agent', { api });

    const alert = await screen.findByRole('alert');

    expect(alert).toHaveTextContent('Agent not found');
    expect(alert).toHaveTextContent('There is no agent with the id “no-such-agent”.');
  });

  it('422: lists the tools to authorize, each with an Authorize button', async () => {
    renderConsole('tool-auth-agent', { api });

    await sendMessage('Go');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Tools need authorizing');
    // Legacy: the display name "Jira"; platform: the tool name "Jira"; then a server id alone.
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.ack-error__tool-name')?.textContent),
    ).toEqual(['Jira', api === 'platform' ? 'confluence-server' : 'confluence']);
    expect(within(alert).getByRole('button', { name: 'Authorize Jira' })).toBeEnabled();
    expect(alert).toHaveTextContent('The service said: Authorize the Jira tool to run this agent.');
    expect(server.postCount('tool-auth-agent')).toBe(1);
  });

  it('429 with a long Retry-After: says when to try again', async () => {
    server.inject('chat-agent', { status: 429, endpoint: 'run', headers: { 'Retry-After': '7' } });
    renderConsole('chat-agent', {
      api,
      props: { runOptions: { reconnect: { baseDelayMs: 20, maxDelayMs: 1_000 } } },
    });

    await sendMessage('Go');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many runs');
    expect(alert).toHaveTextContent('Try again in 7 s.');
    expect(server.postCount('chat-agent')).toBe(1);
  });

  it('a run that fails midway: says it failed partway, quotes the service and keeps the output marked partial', async () => {
    renderConsole('failing-agent', { api });

    await sendMessage('Go');

    await waitForStatus(api === 'platform' ? 'The run failed.' : /^Done/);
    if (api === 'platform') {
      const alert = screen.getByRole('alert');
      expect(alert).toHaveTextContent('The run failed partway');
      expect(alert).toHaveTextContent('The service said: The agent failed while calling a tool.');
      expect(lastAnswer()).toHaveAttribute('data-status', 'error');
    }
    expect(lastAnswerText()).toContain('Starting the analysis of the');
  });

  it('network: retries, then says the service cannot be reached', async () => {
    const statuses: RunStatus[] = [];
    const deadEnd: typeof fetch = (input, init) =>
      init?.method === 'POST'
        ? fetch(String(input).replace(server.url, deadUrl), init)
        : fetch(input, init);
    renderConsole('chat-agent', {
      api,
      fetch: deadEnd,
      props: {
        runOptions: {
          reconnect: { maxAttempts: 2, baseDelayMs: 20 },
          onStatusChange: (status) => statuses.push(status),
        },
      },
    });

    await sendMessage('Go');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cannot reach the service');
    expect(statuses).toEqual(['connecting', 'reconnecting', 'error']);
  });

  it('network while offline: says the device is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    // TanStack Query's online manager heard the event too: tell it the network is back afterwards.
    onTestFinished(() => {
      onlineManager.setOnline(true);
    });
    const deadEnd: typeof fetch = (input, init) =>
      init?.method === 'POST'
        ? fetch(String(input).replace(server.url, deadUrl), init)
        : fetch(input, init);
    renderConsole('chat-agent', {
      api,
      fetch: deadEnd,
      props: { runOptions: { reconnect: { maxAttempts: 1 } } },
    });
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });

    await sendMessage('Go');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You are offline');
    expect(statusLine()).toHaveAttribute('data-offline', '');
  });

  it('an input missing fields: names them and sends nothing', async () => {
    const user = userEvent.setup();
    function SubmitsNothing({ onSubmit }: AgentInputFormProps) {
      return (
        <button type="button" onClick={() => onSubmit({ title: 'Only a title' })}>
          Send an incomplete input
        </button>
      );
    }
    renderConsole('form-agent', { api, props: { components: { InputForm: SubmitsNothing } } });

    await user.click(await screen.findByRole('button', { name: 'Send an incomplete input' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Some fields are missing');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Details',
      'Budget (EUR)',
      'Headcount',
      'Urgent',
      'Priority',
      'Due date',
      'Kick-off',
    ]);
    expect(server.postCount('form-agent')).toBe(0);
  });
});

describe('given parts hidden or replaced', () => {
  // A chat agent's answers are in the thread (issue 8): the replaced part is the thread.
  function PlainThread({ messages, status }: AgentThreadProps) {
    return (
      <p data-testid="plain-thread" data-status={status}>
        {messages.at(-1)?.text.toUpperCase()}
      </p>
    );
  }

  it('has no axe violations', async () => {
    const { container } = renderConsole('chat-agent', {
      props: { components: { EventLog: null, Details: null, Thread: PlainThread } },
    });
    await screen.findByRole('textbox', { name: 'Message' });

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('leaves out a part set to null and renders a replacement with the part’s props', async () => {
    renderConsole('chat-agent', {
      props: {
        components: { EventLog: null, Details: null, Thread: PlainThread },
        theme: 'dark',
        className: 'mine',
      },
    });

    await sendMessage('Hi');

    await waitForStatus(/^Done/);
    expect(screen.queryByRole('log')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Helpdesk chat' })).toBeNull();
    expect(screen.getByTestId('plain-thread')).toHaveTextContent('HELLO! I CAN HELP WITH THAT.');
    expect(screen.getByTestId('plain-thread')).toHaveAttribute('data-status', 'idle');
    const root = screen.getByRole('region', { name: 'Agent console: Helpdesk chat' });
    expect(root).toHaveAttribute('data-theme', 'dark');
    expect(root).toHaveAttribute('data-status', 'done');
    expect(root).toHaveClass('ack-console', 'mine');
  });
});

describe('given no agent id', () => {
  it('has no axe violations', async () => {
    const { container } = renderConsole(' ');
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('says so and sends nothing', () => {
    renderConsole(' ');

    expect(screen.getByText('No agent id given.')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });
});
