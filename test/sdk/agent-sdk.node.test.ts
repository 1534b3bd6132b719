/**
 * The service's own TypeScript SDK (`@gleanwork/api-client`), pointed at the mock server: every agent
 * operation it has, of both generations, must read the mock's answers, and every error path must
 * raise the SDK's own typed error. An answer the SDK cannot read raises its ResponseValidationError
 * (or a GleanError "Unexpected Status or Content-Type"), and the test fails.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Glean, HTTPClient } from '@gleanwork/api-client';
import {
  ErrorResponse,
  GleanError,
  PlatformProblemDetailError,
  PlatformProblemDetailError$inboundSchema,
  PlatformUnauthorizedAgentToolsProblemError,
  UnauthorizedAgentToolsError,
} from '@gleanwork/api-client/models/errors';
import {
  createMockAgentServer,
  demoAgents,
  type MockAgentDefinition,
  type MockAgentServer,
} from 'agent-console-kit/testing';

/** The service's codes, statuses and titles (agent-api.md, "Errors"). */
const serviceCodes: Record<string, { status: number; title: string }> = {
  invalid_request: { status: 400, title: 'Invalid Request' },
  missing_required_field: { status: 400, title: 'Missing Required Field' },
  invalid_parameter: { status: 400, title: 'Invalid Parameter' },
  invalid_cursor: { status: 400, title: 'Invalid Pagination Cursor' },
  expired_cursor: { status: 400, title: 'Expired Pagination Cursor' },
  invalid_filter: { status: 400, title: 'Invalid Filter' },
  invalid_datasource: { status: 400, title: 'Invalid Datasource' },
  authentication_required: { status: 401, title: 'Authentication Required' },
  token_expired: { status: 401, title: 'Token Expired' },
  insufficient_permissions: { status: 403, title: 'Insufficient Permissions' },
  spend_limit_exceeded: { status: 403, title: 'Spend Limit Exceeded' },
  resource_not_found: { status: 404, title: 'Resource Not Found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  request_timeout: { status: 408, title: 'Request Timeout' },
  conflict: { status: 409, title: 'Conflict' },
  gone: { status: 410, title: 'Gone' },
  request_too_large: { status: 413, title: 'Request Too Large' },
  token_limit_exceeded: { status: 413, title: 'Token Limit Exceeded' },
  unprocessable_query: { status: 422, title: 'Unprocessable Query' },
  tools_unauthorized: { status: 422, title: 'Tools Unauthorized' },
  rate_limit_exceeded: { status: 429, title: 'Rate Limit Exceeded' },
  internal_error: { status: 500, title: 'Internal Error' },
  service_unavailable: { status: 503, title: 'Service Unavailable' },
};

const token = 'sdk-token-7f3a';
const userMessages = [
  { role: 'USER' as const, content: [{ text: 'Hi there', type: 'text' as const }] },
];

const failingAgent = (agentId: string, status: number): MockAgentDefinition => ({
  agent: { agent_id: agentId, name: `Fails with ${status}`, capabilities: {} },
  run: { failFirst: { attempts: Infinity, status } },
});

let server: MockAgentServer;
let glean: Glean;
/** Every response the SDK received, in order (read through the SDK's own response hook). */
const responses: Response[] = [];

beforeAll(async () => {
  server = await createMockAgentServer({
    agents: [
      ...demoAgents,
      failingAgent('refusing-agent', 400),
      failingAgent('timeout-agent', 408),
      failingAgent('unavailable-agent', 503),
    ],
    deprecationHeaders: true,
  });
  const httpClient = new HTTPClient();
  httpClient.addHook('response', (response) => {
    responses.push(response);
  });
  glean = new Glean({ serverURL: server.url, apiToken: token, httpClient });
});
beforeEach(() => {
  server.reset();
  responses.length = 0;
});
afterAll(() => server.close());

/** The rejection of `promise` (fails the test when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the SDK call to fail');
}

/** The SSE frames of a stream text, each as its event name and its parsed data. */
function framesOf(text: string): { event: string; data: unknown }[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}

function deltasOf(text: string): string {
  return framesOf(text)
    .filter((frame) => frame.event === 'message')
    .map((frame) => {
      const data = frame.data as { messages?: { content?: { text?: string }[] }[] };
      return data.messages?.[0]?.content?.[0]?.text ?? '';
    })
    .join('');
}

function expectServiceProblem(
  error: PlatformProblemDetailError | PlatformUnauthorizedAgentToolsProblemError,
  code: string,
) {
  const known = serviceCodes[code];
  expect(known, `${code} is one of the service's codes`).toBeDefined();
  expect(error.code).toBe(code);
  expect(error.status).toBe(known?.status);
  expect(error.statusCode).toBe(known?.status);
  expect(error.title).toBe(known?.title);
  expect(error.type).toEqual(expect.any(String));
  expect(error.detail).toEqual(expect.any(String));
  expect(error.detail).not.toBe('');
  expect(error.request_id).toMatch(/^req_mock_/);
  for (const fieldError of error.errors ?? []) {
    expect(Object.keys(serviceCodes)).toContain(fieldError.code);
  }
}

describe('given the legacy agent operations (glean.client.agents, deprecated)', () => {
  it('retrieve reads the bare agent record', async () => {
    const agent = await glean.client.agents.retrieve('chat-agent');
    expect(agent).toMatchObject({ agent_id: 'chat-agent', name: 'Helpdesk chat' });
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: '/rest/api/v1/agents/chat-agent',
      authorizationScheme: 'Bearer',
      tokenFingerprint: token.slice(-4),
    });
  });

  it('retrieveSchemas reads the schemas', async () => {
    const schemas = await glean.client.agents.retrieveSchemas('form-agent');
    expect(schemas.agent_id).toBe('form-agent');
    expect(schemas.input_schema).toBeDefined();
    expect(schemas.output_schema).toBeDefined();
  });

  it('list searches by name, and with no name lists every agent', async () => {
    const found = await glean.client.agents.list({ name: 'HELPDESK' });
    expect(found.agents?.map((agent) => agent.agent_id)).toEqual(['chat-agent']);
    const all = await glean.client.agents.list({});
    expect(all.agents).toHaveLength(demoAgents.length + 3);
  });

  it('runStream reads the stream as text: message deltas', async () => {
    const text = await glean.client.agents.runStream({
      agent_id: 'chat-agent',
      messages: userMessages,
    });
    expect(deltasOf(text)).toMatch(/^Hello! I can help with that\./);
    expect(server.postCount('chat-agent')).toBe(1);
  });

  it('run waits for the answer: the GLEAN_AI messages and the run', async () => {
    const answer = await glean.client.agents.run({
      agent_id: 'chat-agent',
      messages: userMessages,
    });
    expect(answer.messages?.[0]?.role).toBe('GLEAN_AI');
    expect(answer.messages?.[0]?.content?.[0]?.text).toMatch(/^Hello! I can help with that\./);
    expect(answer.run?.agent_id).toBe('chat-agent');
    expect(server.runRequests('chat-agent')).toHaveLength(1);
    expect(server.requests[0]?.path).toBe('/rest/api/v1/agents/runs/wait');
  });

  it('every legacy answer carries the deprecation dates (2026-08-25, sunset 2027-04-15)', async () => {
    await glean.client.agents.retrieve('chat-agent');
    await glean.client.agents.retrieveSchemas('chat-agent');
    await glean.client.agents.list({});
    await glean.client.agents.runStream({ agent_id: 'chat-agent', messages: userMessages });
    await glean.client.agents.run({ agent_id: 'chat-agent', messages: userMessages });
    expect(responses).toHaveLength(5);
    for (const response of responses) {
      expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 7, 25) / 1000}`);
      expect(response.headers.get('sunset')).toBe('Thu, 15 Apr 2027 00:00:00 GMT');
      expect(new Date(response.headers.get('sunset') ?? '').toISOString()).toBe(
        '2027-04-15T00:00:00.000Z',
      );
      expect(response.headers.get('link')).toMatch(/rel="successor-version"/);
    }
  });

  it('404: retrieve and retrieveSchemas of an unknown agent raise ErrorResponse', async () => {
    for (const call of [
      glean.client.agents.retrieve('nobody'),
      glean.client.agents.retrieveSchemas('nobody'),
    ]) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(ErrorResponse);
      expect((error as ErrorResponse).statusCode).toBe(404);
    }
  });

  it('422: runStream and run raise UnauthorizedAgentToolsError with typed suggestions', async () => {
    for (const call of [
      glean.client.agents.runStream({ agent_id: 'tool-auth-agent', messages: userMessages }),
      glean.client.agents.run({ agent_id: 'tool-auth-agent', messages: userMessages }),
    ]) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(UnauthorizedAgentToolsError);
      const typed = error as UnauthorizedAgentToolsError;
      expect(typed.statusCode).toBe(422);
      expect(typed.message).toBe('Authorize the Jira tool to run this agent.');
      expect(typed.authenticationSuggestions).toHaveLength(2);
      expect(typed.authenticationSuggestions[0]).toMatchObject({
        requestType: 'AUTHENTICATION_SUGGESTION',
        requestId: expect.any(String) as unknown,
        toolDisplayName: 'Jira',
        serverId: 'jira-server',
        toolCta: expect.any(String) as unknown,
        actionPreview: { description: expect.any(String) as unknown },
      });
      expect(typed.authenticationSuggestions[1]).toMatchObject({
        requestType: 'AUTHENTICATION_SUGGESTION',
        requestId: expect.any(String) as unknown,
        serverId: 'confluence-server',
      });
      // toolName and toolType are required by the service; the SDK's model drops them
      const entries = (JSON.parse(typed.body) as { authenticationSuggestions: unknown[] })
        .authenticationSuggestions;
      for (const entry of entries) {
        expect(entry).toMatchObject({
          toolName: expect.any(String) as unknown,
          toolType: expect.any(String) as unknown,
          requestType: expect.any(String) as unknown,
          requestId: expect.any(String) as unknown,
        });
      }
    }
  });

  it('400 and 429 raise the SDK GleanError with the status and Retry-After', async () => {
    const refused = await rejectionOf(
      glean.client.agents.runStream({ agent_id: 'refusing-agent', messages: userMessages }),
    );
    expect(refused).toBeInstanceOf(GleanError);
    expect((refused as GleanError).statusCode).toBe(400);
    expect((refused as GleanError).message).toMatch(/^API error occurred: Status 400/);

    const limited = await rejectionOf(
      glean.client.agents.runStream({ agent_id: 'rate-limited-agent', messages: userMessages }),
    );
    expect(limited).toBeInstanceOf(GleanError);
    expect((limited as GleanError).statusCode).toBe(429);
    expect((limited as GleanError).headers.get('retry-after')).toBe('2');
    expect((limited as GleanError).message).toMatch(/^API error occurred: Status 429/);
  });
});

describe('given the platform agent operations (glean.agents)', () => {
  it('get reads the wrapped agent and its request_id', async () => {
    const answer = await glean.agents.get('chat-agent');
    expect(answer.agent).toMatchObject({ agent_id: 'chat-agent', name: 'Helpdesk chat' });
    expect(answer.request_id).toMatch(/^req_mock_/);
    expect(responses[0]?.headers.get('deprecation')).toBeNull();
  });

  it('getSchemas reads the schemas, with include_tools', async () => {
    const schemas = await glean.agents.getSchemas('form-agent', true);
    expect(schemas).toMatchObject({ agent_id: 'form-agent', request_id: expect.any(String) });
    expect(schemas.input_schema).toMatchObject({ type: 'object' });
    expect(server.requests[0]?.search).toBe('?include_tools=true');
  });

  it('search finds by name and adds request_id', async () => {
    const found = await glean.agents.search({ name: 'slow' });
    expect(found.agents.map((agent) => agent.agent_id)).toEqual(['slow-chat-agent', 'slow-agent']);
    expect(found.request_id).toEqual(expect.any(String));
  });

  it('createRun with stream: true (execution_mode REQUEST_BOUND) reads the stream', async () => {
    const answer = await glean.agents.createRun(
      { messages: userMessages, stream: true },
      'chat-agent',
    );
    expect(typeof answer).toBe('string');
    expect(deltasOf(answer as string)).toMatch(/^Hello! I can help with that\./);
    expect(server.requests[0]?.body).toEqual({
      messages: userMessages,
      stream: true,
      execution_mode: 'REQUEST_BOUND',
    });
  });

  it('createRun with stream: false waits for the answer', async () => {
    const answer = await glean.agents.createRun({ messages: userMessages }, 'chat-agent');
    expect(typeof answer).toBe('object');
    const waited = answer as { messages?: { role: string; content: { text: string }[] }[] };
    expect(waited.messages?.[0]?.role).toBe('GLEAN_AI');
    expect(waited.messages?.[0]?.content[0]?.text).toMatch(/^Hello! I can help with that\./);
    expect(answer).toMatchObject({ request_id: expect.any(String) });
    expect(server.requests[0]?.body).toMatchObject({
      stream: false,
      execution_mode: 'REQUEST_BOUND',
    });
  });

  it('createRun of a form agent sends input', async () => {
    const input = {
      title: 'x',
      details: '',
      budget: '',
      headcount: '',
      urgent: '',
      priority: 'low',
      due_date: '2026-12-01',
      kickoff_at: '',
    };
    const answer = await glean.agents.createRun({ input, stream: true }, 'form-agent');
    expect(deltasOf(answer as string)).toMatch(/^Thanks, the project intake is filed\./);
  });

  it('createRun with execution_mode DURABLE reads the 201 run; getRun, respondToRun and cancelRun read theirs', async () => {
    const created = await glean.agents.createRun(
      { messages: userMessages, execution_mode: 'DURABLE' },
      'approval-agent',
    );
    expect(responses[0]?.status).toBe(201);
    const { run } = created as { run: { run_id: string; agent_id: string; state: string } };
    expect(run).toMatchObject({ agent_id: 'approval-agent', state: 'RUNNING' });
    expect(server.requests[0]?.body).toEqual({
      messages: userMessages,
      stream: false,
      execution_mode: 'DURABLE',
    });

    server.service.advance(1500);
    const paused = await glean.agents.getRun('approval-agent', run.run_id);
    expect(paused.run.state).toBe('REQUIRES_INPUT');
    const [approval] = paused.run.pending_interactions;
    expect(approval).toMatchObject({
      type: 'TOOL_APPROVAL',
      display_name: 'Send Slack message to user',
      arguments: { message: 'The weekly report is ready for review.' },
    });

    const answered = await glean.agents.respondToRun(
      {
        run_id: run.run_id,
        responses: [{ interaction_id: approval?.interaction_id ?? '', decision: 'APPROVE' }],
      },
      'approval-agent',
    );
    expect(answered.run.state).toBe('RUNNING');
    expect(server.service.durableStats.toolsExecuted).toBe(1);

    server.service.advance(1000);
    const cancelled = await glean.agents.cancelRun({ run_id: run.run_id }, 'approval-agent');
    expect(cancelled.run.state).toBe('RUNNING');
    server.service.advance(1000);
    const done = await glean.agents.getRun('approval-agent', run.run_id);
    // completion won the race with the cancellation
    expect(done.run.state).toBe('SUCCEEDED');
    const texts = (done.run.output as { messages: { content: { text: string }[] }[] }).messages.map(
      (message) => message.content[0]?.text,
    );
    expect(texts.at(-1)).toBe('Sent your Slack message.');
  });

  it('getRun, cancelRun and respondToRun of a run that does not exist: 404 problem', async () => {
    for (const call of [
      glean.agents.getRun('chat-agent', 'run_1'),
      glean.agents.cancelRun({ run_id: 'run_1' }, 'chat-agent'),
      glean.agents.respondToRun(
        { run_id: 'run_1', responses: [{ interaction_id: 'call_1', decision: 'APPROVE' }] },
        'chat-agent',
      ),
    ]) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(PlatformProblemDetailError);
      expectServiceProblem(error as PlatformProblemDetailError, 'resource_not_found');
    }
  });

  it('409 to a stale batch raises PlatformProblemDetailError conflict', async () => {
    const created = await glean.agents.createRun(
      { messages: userMessages, execution_mode: 'DURABLE' },
      'approval-agent',
    );
    const runId = (created as { run: { run_id: string } }).run.run_id;
    const error = await rejectionOf(
      glean.agents.respondToRun(
        { run_id: runId, responses: [{ interaction_id: 'call_stale', decision: 'APPROVE' }] },
        'approval-agent',
      ),
    );
    expect(error).toBeInstanceOf(PlatformProblemDetailError);
    expectServiceProblem(error as PlatformProblemDetailError, 'conflict');
  });

  it('404: get, getSchemas and createRun of an unknown agent raise PlatformProblemDetailError', async () => {
    for (const call of [
      glean.agents.get('nobody'),
      glean.agents.getSchemas('nobody'),
      glean.agents.createRun({ messages: userMessages, stream: true }, 'nobody'),
    ]) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(PlatformProblemDetailError);
      expectServiceProblem(error as PlatformProblemDetailError, 'resource_not_found');
    }
  });

  it('422: createRun raises PlatformUnauthorizedAgentToolsProblemError', async () => {
    const error = await rejectionOf(
      glean.agents.createRun({ messages: userMessages, stream: true }, 'tool-auth-agent'),
    );
    expect(error).toBeInstanceOf(PlatformUnauthorizedAgentToolsProblemError);
    const problem = error as PlatformUnauthorizedAgentToolsProblemError;
    expectServiceProblem(problem, 'tools_unauthorized');
    expect(problem.authentication_suggestions).toEqual([
      { tool_name: 'Jira', server_id: 'jira-server' },
      { server_id: 'confluence-server' },
    ]);
  });

  it('400: an invalid body raises PlatformProblemDetailError with errors[] from the list', async () => {
    const error = await rejectionOf(
      glean.agents.createRun(
        { messages: [{ role: 'USER', content: [] }], stream: true },
        'chat-agent',
      ),
    );
    expect(error).toBeInstanceOf(PlatformProblemDetailError);
    const problem = error as PlatformProblemDetailError;
    expectServiceProblem(problem, 'invalid_request');
    expect(problem.errors?.[0]?.pointer).toBe('/messages/0/content');
  });

  it('429: rate_limit_exceeded with Retry-After', async () => {
    const error = await rejectionOf(
      glean.agents.createRun({ messages: userMessages, stream: true }, 'rate-limited-agent'),
    );
    expect(error).toBeInstanceOf(PlatformProblemDetailError);
    const problem = error as PlatformProblemDetailError;
    expectServiceProblem(problem, 'rate_limit_exceeded');
    expect(problem.headers.get('retry-after')).toBe('2');
  });

  it.each([
    ['refusing-agent', 'invalid_request'],
    ['timeout-agent', 'request_timeout'],
    ['unavailable-agent', 'service_unavailable'],
  ])(
    '%s: a scripted failure is the problem of its code (%s) at its own status',
    async (agentId, code) => {
      const error = await rejectionOf(
        glean.agents.createRun({ messages: userMessages, stream: true }, agentId),
      );
      expect(error).toBeInstanceOf(PlatformProblemDetailError);
      expectServiceProblem(error as PlatformProblemDetailError, code);
    },
  );

  it('run.failed: the error is a full problem the SDK reads', async () => {
    const text = await glean.agents.createRun(
      { messages: userMessages, stream: true },
      'failing-agent',
    );
    const failed = framesOf(text as string).filter((frame) => frame.event === 'run.failed');
    expect(failed).toHaveLength(1);
    const { error } = failed[0]?.data as { error: Record<string, unknown> };
    const problem = PlatformProblemDetailError$inboundSchema.parse({
      ...error,
      request$: new Request(server.url),
      // the stream's own status was 200: the problem's status stands in for the error's
      response$: new Response(null, { status: Number(error['status']) }),
      body$: JSON.stringify(error),
    });
    expectServiceProblem(problem, 'internal_error');
  });
});
