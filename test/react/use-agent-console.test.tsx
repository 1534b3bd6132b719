import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  AgentClientProvider,
  createAgentClient,
  useAgentConsole,
  type AgentClient,
  type UseAgentConsoleOptions,
} from 'agent-console-kit';
import { createRunStream } from 'agent-console-kit/core';
import type { AgentErrorTool } from '../../src/core/wire/tool-authorization.js';
import { demoAgents, type MockAgentDefinition } from 'agent-console-kit/testing';
import { setUpMockServer } from '../support/mock-server.js';
import { agentConsoleModeOf } from '../../src/core/console/console-options.js';

const chatAgent = demoAgents.find((definition) => definition.agent.agent_id === 'chat-agent');
if (!chatAgent) throw new Error('the demo agents lack chat-agent');
// Takes no messages, but its input schema has no field: a chat agent all the same.
const noFieldAgent: MockAgentDefinition = {
  ...chatAgent,
  agent: { agent_id: 'no-field-agent', name: 'No field', capabilities: {} },
  schemas: { input_schema: { type: 'object', properties: {} } },
};

const formAgent = demoAgents.find((definition) => definition.agent.agent_id === 'form-agent');
if (!formAgent) throw new Error('the demo agents lack form-agent');
const slowFormAgent: MockAgentDefinition = {
  ...formAgent,
  agent: { ...formAgent.agent, agent_id: 'slow-form-agent', name: 'Slow intake' },
  run: { ...formAgent.run, delayMs: 100, firstEventDelayMs: 100 },
};

const server = setUpMockServer({ agents: [...demoAgents, noFieldAgent, slowFormAgent] });

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await server.waitFor(() => server.openStreams === 0);
});

const intake = {
  title: 'New office',
  details: '',
  budget: '',
  headcount: 3,
  urgent: false,
  priority: 'medium',
  due_date: '2026-05-01',
  kickoff_at: '',
};

const tool: AgentErrorTool = { name: 'Jira', serverId: 'jira-server' };

function renderConsoleHook(
  agentId: string | undefined,
  options: UseAgentConsoleOptions = {},
  client: AgentClient = createAgentClient({ baseUrl: server.url, token: 'secret-token-1234' }),
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>{children}</AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>
  );
  return renderHook(() => useAgentConsole(agentId, options), { wrapper });
}

function badRequest(errors: { pointer: string; detail: string }[] = []) {
  return {
    status: 400,
    endpoint: 'run' as const,
    times: 1,
    contentType: 'application/problem+json',
    body: {
      type: 'about:blank',
      title: 'Invalid request',
      status: 400,
      detail: 'The input is not valid.',
      code: 'invalid_request',
      errors,
    },
  };
}

describe('given the mode of an agent', () => {
  it('is unknown until the agent loads, then form for a form agent: no conversation is created', async () => {
    const { result } = renderConsoleHook('form-agent');

    expect(result.current.mode).toBeUndefined();
    await waitFor(() => expect(result.current.mode).toBe('form'));

    expect(result.current.conversation).toBeUndefined();
    expect(result.current.fields.map((field) => field.name)).toContain('title');
    expect(result.current.run.status).toBe('idle');
    expect(server.postCount()).toBe(0);
  });

  it('is chat for an agent that takes messages, and for one whose form has no field', async () => {
    const chat = renderConsoleHook('chat-agent');
    const noField = renderConsoleHook('no-field-agent');

    await waitFor(() => expect(chat.result.current.mode).toBe('chat'));
    await waitFor(() => expect(noField.result.current.mode).toBe('chat'));

    expect(chat.result.current.conversation?.messages).toEqual([]);
    expect(chat.result.current.history).toEqual([]);
    expect(noField.result.current.conversation).toBeDefined();
  });

  it('is undefined without an agent id, and nothing is created or sent', () => {
    const { result } = renderConsoleHook(undefined);

    expect(result.current.mode).toBeUndefined();
    expect(result.current.conversation).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  it('is decided by agentConsoleModeOf from the record and the schemas', () => {
    const agent = { agent_id: 'a', name: 'A' };
    const withField = { input_schema: { type: 'object', properties: { x: { type: 'string' } } } };

    expect(agentConsoleModeOf(undefined, undefined)).toBeUndefined();
    expect(agentConsoleModeOf(agent, undefined)).toBeUndefined();
    expect(agentConsoleModeOf(agent, withField)).toBe('form');
    expect(agentConsoleModeOf(agent, { input_schema: {} })).toBe('chat');
    expect(
      agentConsoleModeOf({ ...agent, capabilities: { 'ap.io.messages': true } }, undefined),
    ).toBe('chat');
  });
});

describe('given a form run refused once (400), under StrictMode', () => {
  it('retries the same input with one more POST', async () => {
    server.inject('form-agent', badRequest());
    const { result } = renderConsoleHook('form-agent');
    await waitFor(() => expect(result.current.mode).toBe('form'));

    act(() => void result.current.start(intake));
    await waitFor(() => expect(result.current.run.status).toBe('error'));
    expect(result.current.canRetry).toBe(true);
    expect(server.postCount('form-agent')).toBe(1);

    act(() => void result.current.retry());
    await waitFor(() => expect(result.current.run.status).toBe('done'));

    expect(server.postCount('form-agent')).toBe(2);
    const inputs = server.runRequests('form-agent').map((request) => {
      const body = request.body as Record<string, unknown>;
      return body['input'];
    });
    expect(inputs).toEqual([intake, intake]);
    expect(result.current.canRetry).toBe(false);
    expect(result.current.history.map((entry) => entry.status)).toEqual(['done', 'error']);
  });
});

describe('given a chat turn refused once (400), under StrictMode', () => {
  it('retries the last message with one more POST', async () => {
    server.inject('chat-agent', badRequest());
    const { result } = renderConsoleHook('chat-agent');
    await waitFor(() => expect(result.current.mode).toBe('chat'));

    act(() => void result.current.send('Hello'));
    await waitFor(() => expect(result.current.run.status).toBe('error'));
    expect(server.postCount('chat-agent')).toBe(1);

    act(() => void result.current.retry());
    await waitFor(() => expect(result.current.run.status).toBe('done'));

    expect(server.postCount('chat-agent')).toBe(2);
    expect(result.current.conversation?.messages.map((message) => message.status)).toEqual([
      'done',
      'done',
    ]);
  });
});

describe('given clear', () => {
  it('is not offered while a chat turn runs, and empties the thread once it was stopped', async () => {
    const { result } = renderConsoleHook('slow-agent');
    await waitFor(() => expect(result.current.mode).toBe('chat'));

    act(() => void result.current.send('Hello'));
    await waitFor(() => expect(result.current.active).toBe(true));
    // Clear would throw the answer away mid-sentence: Stop comes first.
    expect(result.current.canClear).toBe(false);

    act(() => result.current.stop());
    await waitFor(() => expect(result.current.active).toBe(false));
    expect(result.current.conversation?.messages.map((message) => message.status)).toEqual([
      'done',
      'stopped',
    ]);
    expect(result.current.canClear).toBe(true);
    act(() => result.current.clear());

    expect(result.current.conversation?.messages).toEqual([]);
    expect(result.current.run.status).toBe('idle');
    expect(result.current.canClear).toBe(false);
    expect(server.postCount('slow-agent')).toBe(1);
  });

  it('returns a form agent to idle and starts its form over', async () => {
    const { result } = renderConsoleHook('form-agent');
    await waitFor(() => expect(result.current.mode).toBe('form'));
    act(() => void result.current.start(intake));
    await waitFor(() => expect(result.current.run.status).toBe('done'));
    const resetKey = result.current.form.resetKey;

    act(() => result.current.clear());

    expect(result.current.run.status).toBe('idle');
    expect(result.current.form.resetKey).toBe(resetKey + 1);
    expect(result.current.canClear).toBe(false);
    // The run history keeps the run.
    expect(result.current.history).toHaveLength(1);
  });
});

describe('given field errors', () => {
  it('names the missing fields of an input and sends nothing', async () => {
    const { result } = renderConsoleHook('form-agent');
    await waitFor(() => expect(result.current.mode).toBe('form'));

    act(() => void result.current.start({ ...intake, title: '', due_date: '' }));

    await waitFor(() =>
      expect(result.current.form.errors).toEqual({
        title: 'Fill in this field.',
        due_date: 'Fill in this field.',
      }),
    );
    expect(server.postCount('form-agent')).toBe(0);
  });

  it("maps a problem's errors[] to the form's known fields", async () => {
    server.inject(
      'form-agent',
      badRequest([
        { pointer: '/input/title', detail: 'The title is taken.' },
        { pointer: '/input/unknown', detail: 'Not a field of the form.' },
        { pointer: '/metadata', detail: 'Not an input.' },
      ]),
    );
    const { result } = renderConsoleHook('form-agent');
    await waitFor(() => expect(result.current.mode).toBe('form'));

    act(() => void result.current.start(intake));

    await waitFor(() => expect(result.current.run.status).toBe('error'));
    expect(result.current.form.errors).toEqual({ title: 'The title is taken.' });
    expect(server.postCount('form-agent')).toBe(1);
  });
});

/** A service whose tool authorization answers `authorizationUrl`; it counts what reached it. */
async function serveToolAuthorization(authorizationUrl: string) {
  const reached: { method: string; url: string; body: string }[] = [];
  const service = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      reached.push({ method: request.method ?? '', url: request.url ?? '', body });
      response.setHeader('content-type', 'application/json');
      if (request.url === '/rest/api/v1/agents/chat') {
        response.end(
          JSON.stringify({
            agent_id: 'chat',
            name: 'Chat',
            capabilities: { 'ap.io.messages': true },
          }),
        );
      } else if (request.url === '/rest/api/v1/agents/chat/schemas') {
        response.end(JSON.stringify({ agent_id: 'chat', input_schema: {}, output_schema: {} }));
      } else if (request.url === '/rest/api/v1/tool-servers/jira-server/auth') {
        response.end(JSON.stringify({ authorizationUrl }));
      } else {
        response.statusCode = 404;
        response.end('"not found"');
      }
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => service.close(() => resolve())));
  const { port } = service.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, reached };
}

describe('given a tool to authorize', () => {
  it('refuses an authorization URL that is not http(s): nothing is opened', async () => {
    const service = await serveToolAuthorization('javascript:alert(document.cookie)');
    const opened: string[] = [];
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { result } = renderConsoleHook(
      'chat',
      {
        authorizationReturnUrl: 'https://app.example.com/back',
        toolAuthorization: (url) => opened.push(url),
      },
      createAgentClient({ baseUrl: service.url, token: 't' }),
    );
    await waitFor(() => expect(result.current.mode).toBe('chat'));

    await act(() => result.current.authorizeTool(tool));

    expect(result.current.toolStates).toEqual({
      'jira-server': {
        status: 'failed',
        message: 'the service answered an URL that is not http(s).',
      },
    });
    expect(result.current.toolOpened).toBe(false);
    expect(opened).toEqual([]);
    expect(open).not.toHaveBeenCalled();
    const asked = service.reached.filter((request) => request.url.endsWith('/auth'));
    expect(asked).toEqual([
      {
        method: 'POST',
        url: '/rest/api/v1/tool-servers/jira-server/auth',
        body: JSON.stringify({ returnUrl: 'https://app.example.com/back' }),
      },
    ]);
  });

  it('opens an http(s) sign-in page in a new window without opener, and says so', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { result } = renderConsoleHook('tool-auth-agent', {
      authorizationReturnUrl: 'https://app.example.com/back',
    });
    await waitFor(() => expect(result.current.mode).toBe('chat'));

    await act(() => result.current.authorizeTool(tool));

    expect(open).toHaveBeenCalledTimes(1);
    const [url, target, features] = open.mock.calls[0] ?? [];
    const consent = new URL(String(url));
    expect(consent.protocol).toBe('https:');
    expect(consent.searchParams.get('server')).toBe('jira-server');
    expect(consent.searchParams.get('return_to')).toBe('https://app.example.com/back');
    expect([target, features]).toEqual(['_blank', 'noopener,noreferrer']);
    expect(result.current.toolStates).toEqual({ 'jira-server': { status: 'opened' } });
    expect(result.current.toolOpened).toBe(true);
    expect(server.postCount('tool-auth-agent')).toBe(0);
  });
});

describe('given a shared run stream for a form agent', () => {
  it('runs on it, warns once about the options it keeps, and leaves it running on unmount', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const stream = createRunStream(
      createAgentClient({ baseUrl: server.url, token: 'secret-token-1234' }),
    );
    const { result, unmount } = renderConsoleHook('slow-form-agent', {
      runOptions: { stream, maxEvents: 10 },
    });
    await waitFor(() => expect(result.current.mode).toBe('form'));

    act(() => void result.current.start(intake));
    await waitFor(() => expect(stream.getSnapshot().status).toBe('streaming'));
    unmount();

    expect(stream.getSnapshot().status).toBe('streaming');
    stream.abort();
    expect(server.postCount('slow-form-agent')).toBe(1);
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
      expect.stringContaining('ignores `maxEvents` when a shared `stream` is passed'),
    ]);
  });
});
