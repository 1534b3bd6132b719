import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentValidationError,
  createAgentClient,
} from 'agent-console-kit';
import { createRunStream, type AgentApi } from 'agent-console-kit/core';
import type { DeprecationNotice } from '../../../src/core/wire/agent-client.js';
import { deadUrl, setUpMockServer } from '../../support/mock-server.js';

const formSchema = {
  type: 'object',
  properties: { topic: { type: 'string', title: 'Topic' }, depth: { type: 'integer' } },
  required: ['topic'],
};

const researcher = {
  agent: {
    agent_id: 'researcher',
    name: 'Researcher',
    description: 'Finds things out',
    capabilities: { 'ap.io.messages': false, 'ap.io.streaming': true, 'ap.io.future': 'soon' },
    owner_team: 'search',
  },
  schemas: { input_schema: formSchema, output_schema: {} },
};

const oddIds = ['a/b', 'a b', 'a?b#c%d', 'a/../b', '%2F', 'ümlaut'];

const server = setUpMockServer({
  agents: [
    researcher,
    ...oddIds.map((id) => ({
      agent: { agent_id: id, name: `Agent ${id}`, capabilities: {} },
    })),
  ],
});

describe.each<AgentApi>(['rest-v1', 'platform'])('given the %s generation', (api) => {
  it('retrieves an agent record and keeps unknown fields and capability keys', async () => {
    const client = createAgentClient({ baseUrl: server.url, api });

    const agent = await client.getAgent('researcher');

    expect(agent).toMatchObject({
      agent_id: 'researcher',
      name: 'Researcher',
      description: 'Finds things out',
      owner_team: 'search',
      capabilities: { 'ap.io.messages': false, 'ap.io.streaming': true, 'ap.io.future': 'soon' },
    });
    const expectedPath =
      api === 'rest-v1' ? '/rest/api/v1/agents/researcher' : '/api/agents/researcher';
    expect(server.requests.map((request) => request.path)).toEqual([expectedPath]);
  });

  it('retrieves the input and output schemas', async () => {
    const client = createAgentClient({ baseUrl: server.url, api });

    const schemas = await client.getAgentSchemas('researcher');

    expect(schemas.input_schema).toEqual(formSchema);
    expect(server.requests[0]?.path).toMatch(/\/agents\/researcher\/schemas$/);
  });

  it.each(oddIds)('encodes the id %j as one path segment that reaches that agent', async (id) => {
    const client = createAgentClient({ baseUrl: server.url, api });

    const agent = await client.getAgent(id);

    expect(agent.agent_id).toBe(id);
    expect(server.requests[0]?.agentId).toBe(id);
    expect(server.requests[0]?.path).toContain(encodeURIComponent(id));
  });

  it.each(['', '   ', '.', '..'])('refuses the id %j and sends nothing', async (id) => {
    const client = createAgentClient({ baseUrl: server.url, api });

    await expect(client.getAgent(id)).rejects.toBeInstanceOf(AgentInputError);
    await expect(client.prepareRun({ agentId: id, input: {} })).rejects.toBeInstanceOf(
      AgentInputError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('answers an unknown agent with a 404 AgentHttpError', async () => {
    const client = createAgentClient({ baseUrl: server.url, api });

    const error = await client.getAgent('nobody').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AgentHttpError);
    expect(error).toMatchObject({ status: 404, retryable: false });
  });
});

describe('given a base URL', () => {
  it.each([
    ['with a trailing slash', (url: string) => `${url}/`, '/rest/api/v1/agents/researcher'],
    ['with a path prefix', (url: string) => `${url}/proxy`, '/proxy/rest/api/v1/agents/researcher'],
    [
      'with a prefix and slashes',
      (url: string) => `${url}/proxy//`,
      '/proxy/rest/api/v1/agents/researcher',
    ],
  ])('%s, requests reach the intended path', async (_name, makeBaseUrl, expectedPath) => {
    const client = createAgentClient({ baseUrl: makeBaseUrl(server.url) });

    await client.getAgent('researcher');

    expect(server.requests[0]?.path).toBe(expectedPath);
  });

  // A path (`/api/agent-service`) is accepted since issue 18: the page's origin resolves it.
  it.each([
    'acme.example.com',
    'relative/path',
    '//evil.example/x',
    '/path\\x',
    '/path?token=x',
    'ftp://acme.example.com',
    'https://host/?token=x',
    '',
  ])('rejects %j at creation with an error that says what is wrong', (baseUrl) => {
    expect(() => createAgentClient({ baseUrl })).toThrow(/baseUrl/);
  });

  it('rejects an unknown API generation', () => {
    expect(() =>
      createAgentClient({ baseUrl: server.url, api: 'v2' as unknown as AgentApi }),
    ).toThrow(/api/);
  });
});

describe('given a run request', () => {
  const messages = [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }];

  it('maps to the legacy endpoint with agent_id in the body', async () => {
    const client = createAgentClient({ baseUrl: `${server.url}/proxy/`, token: 't0ken-1234' });

    const prepared = await client.prepareRun({
      agentId: 'a/b',
      input: { topic: 'x' },
      metadata: { source: 'test' },
    });

    expect(prepared.method).toBe('POST');
    expect(prepared.url).toBe(`${server.url}/proxy/rest/api/v1/agents/runs/stream`);
    expect(JSON.parse(prepared.body ?? '')).toEqual({
      agent_id: 'a/b',
      input: { topic: 'x' },
      metadata: { source: 'test' },
    });
    expect(prepared.headers).toMatchObject({
      Accept: 'text/event-stream',
      'Content-Type': 'application/json',
      Authorization: 'Bearer t0ken-1234',
    });
  });

  it('maps to the platform endpoint with the id in the path, stream true and no other field', async () => {
    const client = createAgentClient({ baseUrl: server.url, api: 'platform' });

    const prepared = await client.prepareRun({ agentId: 'a/b', messages });

    expect(prepared.url).toBe(`${server.url}/api/agents/a%2Fb/runs`);
    expect(JSON.parse(prepared.body ?? '')).toEqual({ messages, stream: true });
  });

  it.each([
    ['neither input nor messages', { agentId: 'a' }],
    ['an empty messages list', { agentId: 'a', messages: [] }],
    [
      'a role the platform does not take',
      { agentId: 'a', messages: [{ role: 'SYSTEM', content: [{ type: 'text', text: 'x' }] }] },
    ],
    ['a message without content', { agentId: 'a', messages: [{ role: 'USER', content: [] }] }],
  ])('refuses %s for the platform API before sending', async (_name, request) => {
    const client = createAgentClient({ baseUrl: server.url, api: 'platform' });

    await expect(client.prepareRun(request)).rejects.toBeInstanceOf(AgentInputError);
  });
});

describe('given a token and header functions', () => {
  it('asks each of them once per request and sends a fresh token every time', async () => {
    let tokenCalls = 0;
    let headerCalls = 0;
    const client = createAgentClient({
      baseUrl: server.url,
      token: async () => `secret-token-${++tokenCalls}xyz${tokenCalls}`,
      headers: () => {
        headerCalls += 1;
        return { 'X-Glean-ActAs': 'ada@example.com' };
      },
    });

    await client.getAgent('researcher');
    await client.getAgentSchemas('researcher');
    await client.prepareRun({ agentId: 'researcher', input: {} });

    expect(tokenCalls).toBe(3);
    expect(headerCalls).toBe(3);
    expect(server.requests.map((request) => request.tokenFingerprint)).toEqual(['xyz1', 'xyz2']);
    expect(server.requests[0]?.headers['x-glean-actas']).toBe('ada@example.com');
  });

  it('sends no Authorization header without a token', async () => {
    const client = createAgentClient({ baseUrl: server.url, token: () => undefined });

    await client.getAgent('researcher');

    expect(server.requests[0]?.headers['authorization']).toBeUndefined();
  });
});

describe('given error responses', () => {
  const token = 'super-secret-token-0042';
  const client = () => createAgentClient({ baseUrl: server.url, api: 'platform', token });

  async function failure(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }

  it('parses an RFC 9457 problem with errors[]', async () => {
    server.inject('researcher', {
      status: 400,
      contentType: 'application/problem+json',
      body: {
        type: 'https://developers.example.com/errors/invalid_request',
        title: 'Invalid request',
        status: 400,
        detail: 'The body is not valid.',
        code: 'invalid_request',
        request_id: 'req-77',
        errors: [{ pointer: '/input/topic', detail: 'must be a string', code: 'type' }],
      },
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toBeInstanceOf(AgentHttpError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      title: 'Invalid request',
      detail: 'The body is not valid.',
      requestId: 'req-77',
      retryable: false,
      fieldErrors: [{ pointer: '/input/topic', detail: 'must be a string', code: 'type' }],
    });
    expect(error.message).toContain('The body is not valid.');
  });

  it('parses the legacy 404 bare-string body', async () => {
    const legacy = createAgentClient({ baseUrl: server.url, token });

    const error = await failure(legacy.getAgent('nobody'));

    expect(error).toBeInstanceOf(AgentHttpError);
    const httpError = error as AgentHttpError;
    expect(httpError.status).toBe(404);
    expect(typeof httpError.body).toBe('string');
    expect(httpError.detail).toBe(httpError.body);
  });

  it('parses a 422 tool-authorization body', async () => {
    server.inject('researcher', {
      status: 422,
      body: {
        message: 'Authorize Jira to run this agent',
        authenticationSuggestions: [{ toolName: 'Jira', authUrl: 'https://jira.example.com/auth' }],
      },
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toMatchObject({
      status: 422,
      code: 'tools_unauthorized',
      detail: 'Authorize Jira to run this agent',
      authenticationSuggestions: [{ toolName: 'Jira', authUrl: 'https://jira.example.com/auth' }],
    });
  });

  it('reads the tools of a platform tools_unauthorized problem as authenticationSuggestions', async () => {
    server.inject('researcher', {
      status: 422,
      contentType: 'application/problem+json',
      body: {
        title: 'Tools need authorization',
        status: 422,
        code: 'tools_unauthorized',
        tools: [{ name: 'Jira', auth_url: 'https://example.com/oauth/jira' }, 'Confluence', 7],
      },
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toMatchObject({
      status: 422,
      code: 'tools_unauthorized',
      authenticationSuggestions: [
        { toolName: 'Jira', name: 'Jira', auth_url: 'https://example.com/oauth/jira' },
        { toolName: 'Confluence' },
      ],
    });
  });

  it('reads a platform 422 problem with authentication_suggestions (tool_name?, server_id)', async () => {
    server.inject('researcher', {
      status: 422,
      contentType: 'application/problem+json',
      body: {
        title: 'Unprocessable Content',
        status: 422,
        code: 'tools_unauthorized',
        authentication_suggestions: [
          { tool_name: 'Jira', server_id: 'jira-server' },
          { server_id: 'wiki-server' },
          'not an object',
        ],
      },
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toMatchObject({ status: 422, code: 'tools_unauthorized' });
    expect((error as AgentHttpError).authenticationSuggestions).toEqual([
      { tool_name: 'Jira', server_id: 'jira-server', toolName: 'Jira', serverId: 'jira-server' },
      { server_id: 'wiki-server', toolName: undefined, serverId: 'wiki-server' },
    ]);
  });

  it('keeps a legacy 422 toolDisplayName and serverId', async () => {
    server.inject('researcher', {
      status: 422,
      body: {
        message: 'Authorize',
        authenticationSuggestions: [
          { toolName: 'jira', toolDisplayName: 'Jira Cloud', serverId: 'jira-server' },
        ],
      },
    });

    const error = await failure(client().getAgent('researcher'));

    expect((error as AgentHttpError).authenticationSuggestions).toEqual([
      { toolName: 'jira', toolDisplayName: 'Jira Cloud', serverId: 'jira-server' },
    ]);
  });

  it('keeps a 500 HTML page from a proxy as text and summarizes it', async () => {
    server.inject('researcher', {
      status: 500,
      contentType: 'text/html',
      body: '<html><body><h1>Bad gateway</h1><p>upstream died</p></body></html>',
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toMatchObject({ status: 500, retryable: false });
    expect((error as AgentHttpError).body).toContain('<h1>Bad gateway</h1>');
    expect(error.message).toContain('Bad gateway upstream died');
    expect(error.message).not.toContain('<h1>');
  });

  it('reads Retry-After of a 429 and marks it retryable', async () => {
    server.inject('researcher', {
      status: 429,
      headers: { 'Retry-After': '7' },
      contentType: 'application/problem+json',
      body: { title: 'Too many requests', status: 429, code: 'rate_limit_exceeded' },
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toMatchObject({ status: 429, retryAfterMs: 7000, retryable: true });
  });

  it('reports a refused connection as a retryable AgentNetworkError', async () => {
    const error = await failure(
      createAgentClient({ baseUrl: await deadUrl(), token }).getAgent('researcher'),
    );

    expect(error).toBeInstanceOf(AgentNetworkError);
    expect(error).toMatchObject({ retryable: true });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('reports a body that is not JSON as an AgentValidationError', async () => {
    server.inject('researcher', {
      status: 200,
      contentType: 'application/json',
      body: '{"agent_id": "researcher", ',
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toBeInstanceOf(AgentValidationError);
    expect(error.message).toMatch(/not JSON/);
  });

  it('reports a record missing its name as an AgentValidationError naming the path', async () => {
    server.inject('researcher', {
      status: 200,
      body: { agent: { agent_id: 'researcher', capabilities: {} }, request_id: 'r' },
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toBeInstanceOf(AgentValidationError);
    expect((error as AgentValidationError).issues).toEqual([
      expect.objectContaining({ path: 'agent.name' }),
    ]);
    expect(error.message).toContain('agent.name');
  });

  it('never puts the token into an error message, even when the server echoes it', async () => {
    server.inject('researcher', {
      status: 401,
      contentType: 'application/problem+json',
      body: {
        title: 'Unauthorized',
        status: 401,
        code: 'token_expired',
        detail: `token ${token} expired`,
      },
    });

    const error = await failure(client().getAgent('researcher'));

    expect(error).toMatchObject({ status: 401, code: 'token_expired' });
    expect(error.message).not.toContain(token);
    expect(JSON.stringify((error as AgentHttpError).body)).not.toContain(token);
    expect(String(error.stack)).not.toContain(token);
  });
});

describe.each<AgentApi>(['rest-v1', 'platform'])('given agents to search on %s', (api) => {
  it('finds agents by a case-insensitive part of their name, validated', async () => {
    const client = createAgentClient({ baseUrl: server.url, api, token: 'search-token' });

    const agents = await client.searchAgents('  SEARCH');

    expect(agents.map((agent) => agent.agent_id)).toEqual(['researcher']);
    expect(agents[0]).toMatchObject({ name: 'Researcher', owner_team: 'search' });
    const request = server.requests.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: api === 'platform' ? '/api/agents/search' : '/rest/api/v1/agents/search',
      body: { name: 'SEARCH' },
      hasAuthorization: true,
    });
  });

  it('lists every agent for a blank name, sending no name', async () => {
    const client = createAgentClient({ baseUrl: server.url, api });

    const agents = await client.searchAgents(' ');

    expect(agents).toHaveLength(1 + oddIds.length);
    expect(server.requests.at(-1)?.body).toEqual({});
  });
});

describe.each<AgentApi>(['rest-v1', 'platform'])(
  'given a tool server to authorize on %s',
  (api) => {
    it('asks the legacy path for the authorization URL with the return URL', async () => {
      const client = createAgentClient({ baseUrl: server.url, api, token: 'auth-token' });

      const url = await client.authorizeToolServer('jira/server', {
        returnUrl: 'https://app.example.com/console?back=1',
      });

      const consent = new URL(url);
      expect(consent.protocol).toBe('https:');
      expect(consent.searchParams.get('server')).toBe('jira/server');
      expect(consent.searchParams.get('return_to')).toBe('https://app.example.com/console?back=1');
      expect(server.requests.at(-1)).toMatchObject({
        method: 'POST',
        path: '/rest/api/v1/tool-servers/jira%2Fserver/auth',
        body: { returnUrl: 'https://app.example.com/console?back=1' },
      });
    });

    it('refuses an empty server id before sending', async () => {
      const client = createAgentClient({ baseUrl: server.url, api });
      const before = server.requests.length;

      await expect(
        client.authorizeToolServer(' ', { returnUrl: 'https://x.example' }),
      ).rejects.toBeInstanceOf(AgentInputError);
      expect(server.requests.length).toBe(before);
    });

    it('turns a 400 (a return URL off the allowlist) into an AgentHttpError', async () => {
      const client = createAgentClient({ baseUrl: server.url, api });

      const error = await client
        .authorizeToolServer('jira', { returnUrl: 'ftp://x' })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(AgentHttpError);
      expect((error as AgentHttpError).status).toBe(400);
    });

    it('rejects an answer without authorizationUrl as a validation error', async () => {
      // A service that answers 200 with another shape, on a real socket.
      const odd = createServer((_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ url: 'https://elsewhere.example' }));
      });
      await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
      const { port } = odd.address() as AddressInfo;
      const client = createAgentClient({ baseUrl: `http://127.0.0.1:${port}`, api });

      const error = await client
        .authorizeToolServer('jira', { returnUrl: 'https://app.example.com' })
        .catch((caught: unknown) => caught);
      odd.closeAllConnections();
      await new Promise((resolve) => odd.close(resolve));

      expect(error).toBeInstanceOf(AgentValidationError);
      expect((error as AgentValidationError).issues[0]?.path).toBe('authorizationUrl');
    });
  },
);

describe('given a deprecated legacy endpoint', () => {
  it('tells the user of Deprecation and Sunset headers', async () => {
    const notices: unknown[] = [];
    const client = createAgentClient({
      baseUrl: server.url,
      onDeprecation: (notice) => notices.push(notice),
    });
    server.inject('researcher', {
      status: 200,
      headers: { Deprecation: 'true', Sunset: 'Wed, 01 Jul 2026 00:00:00 GMT' },
      body: researcher.agent,
    });

    await client.getAgent('researcher');

    expect(client.deprecation).toMatchObject({
      deprecation: 'true',
      sunset: 'Wed, 01 Jul 2026 00:00:00 GMT',
    });
    expect(notices).toHaveLength(1);
  });
});

describe('given the client object', () => {
  it('exposes neither its fetch nor its deprecation hook', () => {
    const ownFetch: typeof fetch = (input, init) => fetch(input, init);
    const client = createAgentClient({ baseUrl: server.url, fetch: ownFetch });

    expect('fetch' in client).toBe(false);
    expect('noteDeprecation' in client).toBe(false);
    expect(Object.getOwnPropertySymbols(client)).toEqual([]);
    const descriptors = Object.values(Object.getOwnPropertyDescriptors(client));
    expect(descriptors.map((descriptor) => descriptor.value)).not.toContain(ownFetch);
    // @ts-expect-error fetch is private to the client
    expect(client.fetch).toBeUndefined();
    // @ts-expect-error noteDeprecation is private to the client
    expect(client.noteDeprecation).toBeUndefined();
  });

  it('runs through the fetch it was given', async () => {
    const calls: string[] = [];
    const ownFetch: typeof fetch = (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    };
    const client = createAgentClient({ baseUrl: server.url, api: 'platform', fetch: ownFetch });

    const snapshot = await createRunStream(client).start({
      agentId: 'researcher',
      input: { topic: 'bees', depth: 1 },
    });

    expect(snapshot.status).toBe('done');
    expect(calls).toEqual(['POST /api/agents/researcher/runs']);
  });

  it('tells the user of Deprecation headers on a run response', async () => {
    const notices: DeprecationNotice[] = [];
    const client = createAgentClient({
      baseUrl: server.url,
      onDeprecation: (notice) => notices.push(notice),
    });
    server.inject('researcher', {
      status: 200,
      endpoint: 'run',
      contentType: 'text/event-stream',
      headers: { Deprecation: 'true', Sunset: 'Wed, 01 Jul 2026 00:00:00 GMT' },
      body: 'event: message\ndata: {}\n\n',
    });

    const snapshot = await createRunStream(client).start({
      agentId: 'researcher',
      input: { topic: 'bees', depth: 1 },
    });

    expect(snapshot.status).toBe('done');
    expect(notices).toEqual([
      {
        url: `${server.url}/rest/api/v1/agents/runs/stream`,
        deprecation: 'true',
        deprecatedAt: undefined,
        sunset: 'Wed, 01 Jul 2026 00:00:00 GMT',
        sunsetAt: new Date('2026-07-01T00:00:00Z'),
        link: undefined,
      },
    ]);
    expect(client.deprecation).toEqual(notices[0]);
  });
});
