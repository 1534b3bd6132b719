import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createAgentProxy, toNodeHandler, type AgentProxyOptions } from 'agent-console-kit/server';
import { demoAgents, textEvents } from 'agent-console-kit/testing';
import { setUpMockServer } from '../support/mock-server.js';

const token = 'server-secret-token-7Qx9';
const browserToken = 'browser-token-should-not-pass';
const runBody = JSON.stringify({
  messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }],
  stream: true,
});

const service = setUpMockServer({
  agents: [
    ...demoAgents.filter((agent) => ['chat-agent', 'form-agent'].includes(agent.agent.agent_id)),
    {
      agent: {
        agent_id: 'endless-agent',
        name: 'Endless',
        capabilities: { 'ap.io.messages': true },
      },
      run: { events: textEvents('first'), neverEnd: true },
    },
  ],
});

/** A node:http server on 127.0.0.1 serving `handler`, closed when the test ends. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function proxyOf(options: Partial<AgentProxyOptions> = {}) {
  return createAgentProxy({ baseUrl: service.url, token, ...options });
}

/** The Fetch handler called directly, as a route handler is: `path` under the app's origin. */
function callDirect(
  handler: (request: Request) => Promise<Response>,
  path: string,
  init: RequestInit = {},
) {
  return handler(new Request(`http://app.example${path}`, init));
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request: the target goes on the wire exactly as written (no URL parsing). */
function rawRequest(
  origin: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers },
      (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** Reads the first chunk of a streamed body as text. */
async function firstChunk(response: Response) {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  return { text: new TextDecoder().decode(value), reader };
}

describe('given requests that are not agent operations', () => {
  // What a Fetch runtime hands the handler after parsing the URL (dot segments already resolved).
  const refusedDirect: [string, string][] = [
    ['POST', '/api/agent-service/rest/api/v1/search'],
    ['POST', '/api/agent-service/rest/api/v1/indexing/document'],
    ['GET', '/api/agent-service/%2e%2e/%2e%2e/admin/secrets'],
    ['GET', '/api/agent-service/rest/api/v1/agents/..%2f..%2fadmin'],
    ['GET', '/api/agent-service/rest/api/v1/agents/chat-agent%2f..%2f..%2fsearch'],
    ['GET', '/api/agent-service/rest/api/v1/agents/a%5c..%5cb'],
    ['GET', '/api/agent-service/rest/api/v1/agents/%252e%252e'],
    ['GET', '/api/agent-service/rest/api/v1/agents/chat%00agent'],
    ['GET', '/api/agent-service/rest/api/v1/agents/chat%20agent'],
    ['GET', '/api/agent-service//evil.example/x'],
    ['GET', '/api/agent-service/http://evil/'],
    ['GET', '/api/agent-service/https:%2f%2fevil.example%2fx'],
    ['GET', '/api/agent-service/rest/api/v1//agents/chat-agent'],
    ['GET', '/api/agent-service/rest/api/v1/agents/chat-agent/'],
    ['GET', '/api/agent-service/rest/api/v1/agents/chat-agent/schemas/extra'],
    ['GET', '/api/agent-service/api/agents/chat-agent/runs/run_1/events'],
    ['GET', '/rest/api/v1/agents/chat-agent'],
    ['GET', '/api/agent-serviceX/rest/api/v1/agents/chat-agent'],
    ['GET', '/api/agent-service'],
    ['DELETE', '/api/agent-service/rest/api/v1/agents/chat-agent'],
    ['PUT', '/api/agent-service/api/agents/chat-agent/runs'],
    ['POST', '/api/agent-service/api/agents/chat-agent'],
    ['GET', '/api/agent-service/rest/api/v1/agents/runs/stream'],
    ['HEAD', '/api/agent-service/rest/api/v1/agents/chat-agent'],
    ['OPTIONS', '/api/agent-service/rest/api/v1/agents/chat-agent'],
  ];

  it.each(refusedDirect)(
    'the Fetch handler answers %s %s with a 404 problem, sending nothing',
    async (method, path) => {
      const hasBody = method === 'POST' || method === 'PUT';
      const response = await callDirect(proxyOf(), path, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(hasBody ? { body: '{}' } : {}),
      });

      expect(response.status).toBe(404);
      if (method !== 'HEAD') {
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(await response.json()).toMatchObject({
          type: 'about:blank',
          title: 'Resource Not Found',
          status: 404,
          code: 'resource_not_found',
          request_id: expect.any(String),
        });
      }
      expect(service.requests).toHaveLength(0);
    },
  );

  // The raw request target, as node:http receives it: here dot segments are still in the path.
  const refusedRaw = [
    '/api/agent-service/%2e%2e/%2e%2e/admin/secrets',
    '/api/agent-service/rest/api/v1/agents/chat-agent/../../search',
    '/api/agent-service/rest/api/v1/agents/x/%2e%2e/chat-agent',
    '/api/agent-service/rest/api/v1/agents/x/%2E%2e/chat-agent',
    '/api/agent-service/rest/api/v1/agents/x/.%2e/chat-agent',
    '/api/agent-service/rest/api/v1/agents/./chat-agent',
    '/api/agent-service/rest/api/v1/agents/..%2fchat-agent',
    '/api/agent-service/rest/api/v1/agents/x%5c..%5cchat-agent',
    '/api/agent-service/rest/api/v1/agents/x\\..\\chat-agent',
    '/api/agent-service\\rest\\api\\v1\\agents\\chat-agent',
    '//evil.example/api/agent-service/rest/api/v1/agents/chat-agent',
    'http://evil.example/api/agent-service/rest/api/v1/agents/chat-agent',
    '/api/agent-service//evil.example/x',
    '/api/agent-service/rest/api/v1//agents/chat-agent',
  ];

  it.each(refusedRaw)(
    'the node adapter answers GET %s with a 404 problem, sending nothing',
    async (target) => {
      const origin = await listen(toNodeHandler(proxyOf()));

      const answer = await rawRequest(origin, target);

      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 404, code: 'resource_not_found' });
      expect(service.requests).toHaveLength(0);
    },
  );

  it('drops every query parameter but the known ones', async () => {
    const proxy = proxyOf();
    await callDirect(
      proxy,
      '/api/agent-service/api/agents/chat-agent/schemas?include_tools=true&token=x&url=http://evil',
    );
    await callDirect(
      proxy,
      '/api/agent-service/api/agents/chat-agent/schemas?include_tools=../../x',
    );
    await callDirect(
      proxy,
      '/api/agent-service/rest/api/v1/agents/chat-agent?include_tools=true&x=1',
    );

    expect(service.requests.map((record) => record.search)).toEqual([
      '?include_tools=true',
      '',
      '',
    ]);
  });
});

describe('given the agent operations of both generations', () => {
  const operations: [string, string, string | undefined][] = [
    ['GET', '/rest/api/v1/agents/chat-agent', undefined],
    ['GET', '/rest/api/v1/agents/form-agent/schemas', undefined],
    ['POST', '/rest/api/v1/agents/search', '{"name":"chat"}'],
    [
      'POST',
      '/rest/api/v1/agents/runs/stream',
      JSON.stringify({ agent_id: 'chat-agent', messages: [] }),
    ],
    ['POST', '/rest/api/v1/agents/runs/wait', JSON.stringify({ agent_id: 'chat-agent' })],
    ['GET', '/rest/api/v1/tool-servers/srv_1/auth', undefined],
    ['POST', '/rest/api/v1/tool-servers/srv_1/auth', '{"returnUrl":"https://app.example/back"}'],
    ['GET', '/api/agents/chat-agent', undefined],
    ['GET', '/api/agents/form-agent/schemas', undefined],
    ['POST', '/api/agents/search', '{}'],
    ['POST', '/api/agents/chat-agent/runs', runBody],
    ['GET', '/api/agents/chat-agent/runs/run_42', undefined],
    ['POST', '/api/agents/chat-agent/cancellations', '{"run_id":"run_42"}'],
    ['POST', '/api/agents/chat-agent/responses', '{"run_id":"run_42","responses":[]}'],
  ];

  it.each(operations)(
    'forwards %s %s once, with the server token, to the same path',
    async (method, path, body) => {
      const response = await callDirect(proxyOf(), `/api/agent-service${path}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
      await response.arrayBuffer();

      expect(service.requests).toHaveLength(1);
      expect(service.requests[0]).toMatchObject({
        method,
        path,
        authorizationScheme: 'Bearer',
        tokenFingerprint: token.slice(-4),
      });
      if (body !== undefined) expect(service.requests[0]?.body).toEqual(JSON.parse(body));
    },
  );

  it('passes the service answer through: status, JSON body, deprecation headers', async () => {
    const response = await callDirect(
      proxyOf(),
      '/api/agent-service/rest/api/v1/agents/chat-agent',
    );

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ agent_id: 'chat-agent', name: 'Helpdesk chat' });
  });
});

describe('given headers', () => {
  it("never forwards the browser's Authorization, cookies, ActAs or hop-by-hop headers", async () => {
    const response = await callDirect(proxyOf(), '/api/agent-service/api/agents/chat-agent/runs', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${browserToken}`,
        cookie: 'session=abc',
        'x-glean-actas': 'ceo@acme.example',
        'x-forwarded-for': '10.0.0.1',
        'proxy-authorization': 'Basic eDp5',
        te: 'trailers',
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'last-event-id': '3',
        'accept-language': 'fr',
      },
      body: runBody,
    });
    await response.text();

    const record = service.requests[0];
    expect(record?.tokenFingerprint).toBe(token.slice(-4));
    expect(Object.keys(record?.headers ?? {})).not.toEqual(expect.arrayContaining(['cookie']));
    for (const name of [
      'cookie',
      'x-glean-actas',
      'x-forwarded-for',
      'proxy-authorization',
      'te',
    ]) {
      expect(record?.headers[name], name).toBeUndefined();
    }
    expect(record?.headers).toMatchObject({
      accept: 'text/event-stream',
      'last-event-id': '3',
      'accept-language': 'fr',
    });
  });

  it('sends no Authorization at all without a token, even when the browser sends one', async () => {
    const response = await callDirect(
      createAgentProxy({ baseUrl: service.url }),
      '/api/agent-service/api/agents/chat-agent',
      { headers: { authorization: `Bearer ${browserToken}` } },
    );
    await response.text();

    expect(service.requests[0]?.hasAuthorization).toBe(false);
  });

  it('asks the token and headers functions with the incoming request, on every request', async () => {
    const proxy = proxyOf({
      token: (request) => `user-token-for-${request.headers.get('x-app-user') ?? 'nobody'}`,
      headers: async (request) => ({
        'X-Glean-ActAs': `${request.headers.get('x-app-user')}@acme.example`,
      }),
    });

    for (const user of ['anna', 'bert']) {
      const response = await callDirect(proxy, '/api/agent-service/api/agents/chat-agent', {
        headers: { 'x-app-user': user },
      });
      await response.text();
    }

    expect(service.requests.map((record) => record.tokenFingerprint)).toEqual(['anna', 'bert']);
    expect(service.requests.map((record) => record.headers['x-glean-actas'])).toEqual([
      'anna@acme.example',
      'bert@acme.example',
    ]);
    expect(service.requests.map((record) => record.headers['x-app-user'])).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('passes back only allowed response headers (no set-cookie)', async () => {
    service.inject('chat-agent', {
      status: 429,
      body: { message: 'slow down' },
      headers: { 'set-cookie': 'tracking=1', 'retry-after': '7', 'x-internal-host': 'node-12' },
    });

    const response = await callDirect(
      proxyOf(),
      '/api/agent-service/rest/api/v1/agents/chat-agent',
    );

    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('x-internal-host')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(await response.json()).toEqual({ message: 'slow down' });
  });

  it("serves a service's HTML page (a gateway error) sandboxed and uncached on the app's origin", async () => {
    service.inject('chat-agent', {
      status: 502,
      body: '<script>alert(document.cookie)</script>',
      contentType: 'text/html',
      headers: { 'cache-control': 'public, max-age=3600' },
    });

    const response = await callDirect(proxyOf(), '/api/agent-service/api/agents/chat-agent');

    expect(response.status).toBe(502);
    expect(response.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('given allowAgents and authorize', () => {
  it('refuses an agent off the list with 403, sending nothing, on every route that names one', async () => {
    const proxy = proxyOf({ allowAgents: ['chat-agent'] });
    const refused: [string, string, string | undefined][] = [
      ['GET', '/rest/api/v1/agents/form-agent', undefined],
      ['GET', '/api/agents/form-agent/schemas', undefined],
      ['POST', '/api/agents/form-agent/runs', runBody],
      ['GET', '/api/agents/form-agent/runs/run_1', undefined],
      ['POST', '/api/agents/form-agent/cancellations', '{"run_id":"run_1"}'],
      ['POST', '/api/agents/form-agent/responses', '{"run_id":"run_1","responses":[]}'],
      ['POST', '/rest/api/v1/agents/runs/stream', '{"agent_id":"form-agent"}'],
      ['POST', '/rest/api/v1/agents/runs/wait', '{"agent_id":"form-agent"}'],
    ];

    for (const [method, path, body] of refused) {
      const response = await callDirect(proxy, `/api/agent-service${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await response.json()).toMatchObject({
        status: 403,
        code: 'insufficient_permissions',
      });
    }
    expect(service.requests).toHaveLength(0);
  });

  it('refuses a legacy run whose body names no readable agent_id with 400, sending nothing', async () => {
    const proxy = proxyOf({ allowAgents: ['chat-agent'] });
    for (const body of ['not json', '[]', '{}', '{"agent_id":42}', '{"agent_id":"../x"}']) {
      const response = await callDirect(
        proxy,
        '/api/agent-service/rest/api/v1/agents/runs/stream',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        },
      );
      expect(response.status, body).toBe(400);
    }
    expect(service.requests).toHaveLength(0);
  });

  it('a duplicate or case-variant agent_id cannot name another agent: refused, nothing sent', async () => {
    const proxy = proxyOf({ allowAgents: ['chat-agent'] });
    const received: string[] = [];
    const echo = await listen((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(body);
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end();
      });
    });
    const toEcho = createAgentProxy({ baseUrl: echo, token, allowAgents: ['chat-agent'] });
    const path = '/api/agent-service/rest/api/v1/agents/runs/stream';
    const post = (handler: typeof proxy, body: string) =>
      callDirect(handler, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });

    // A parser that keeps the first of two keys would run form-agent; the body is forwarded as
    // it came, so what parsers could read differently is refused.
    const duplicate = '{"agent_id":"form-agent","agent_id":"chat-agent","messages":[]}';
    const refused = await post(toEcho, duplicate);
    expect(refused.status).toBe(400);
    expect(received).toEqual([]);
    // Go's decoder matches keys case-insensitively: refused before anything is sent.
    const caseVariant = await post(proxy, '{"agent_id":"chat-agent","AGENT_ID":"form-agent"}');
    expect(caseVariant.status).toBe(400);
    expect(service.requests).toHaveLength(0);
  });

  it('forwards an allowed agent, asking a function with the agent id and the request', async () => {
    const asked: [string, string][] = [];
    const proxy = proxyOf({
      allowAgents: (agentId, request) => {
        asked.push([agentId, new URL(request.url).pathname]);
        return agentId === 'chat-agent';
      },
    });

    const response = await callDirect(proxy, '/api/agent-service/rest/api/v1/agents/runs/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'chat-agent', messages: [] }),
    });
    await response.text();

    expect(response.status).toBe(200);
    expect(asked).toEqual([['chat-agent', '/api/agent-service/rest/api/v1/agents/runs/stream']]);
    expect(service.postCount('chat-agent')).toBe(1);
  });

  it('lists only allowed agents in a search answer', async () => {
    const proxy = proxyOf({ allowAgents: ['chat-agent', 'endless-agent'] });

    for (const path of ['/rest/api/v1/agents/search', '/api/agents/search']) {
      const response = await callDirect(proxy, `/api/agent-service${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const answer = (await response.json()) as { agents: { agent_id: string }[] };
      expect(answer.agents.map((agent) => agent.agent_id).sort()).toEqual([
        'chat-agent',
        'endless-agent',
      ]);
    }
  });

  it('asks authorize first: false answers 403, a Response is answered as is, nothing is sent', async () => {
    const denied = await callDirect(
      proxyOf({ authorize: (request) => request.headers.get('cookie') === 'session=valid' }),
      '/api/agent-service/api/agents/chat-agent',
      { headers: { cookie: 'session=stolen' } },
    );
    const custom = await callDirect(
      proxyOf({ authorize: () => new Response('sign in first', { status: 401 }) }),
      '/api/agent-service/api/agents/chat-agent/runs',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: runBody },
    );

    expect(denied.status).toBe(403);
    expect(custom.status).toBe(401);
    expect(await custom.text()).toBe('sign in first');
    expect(service.requests).toHaveLength(0);
  });

  it('lets an authorized request through', async () => {
    const response = await callDirect(
      proxyOf({ authorize: async (request) => request.headers.get('cookie') === 'session=valid' }),
      '/api/agent-service/api/agents/chat-agent',
      { headers: { cookie: 'session=valid' } },
    );

    expect(response.status).toBe(200);
    expect(service.requests).toHaveLength(1);
  });

  it('refuses a POST that is not JSON (a cross-site form) with 415, sending nothing', async () => {
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]) {
      const response = await callDirect(
        proxyOf(),
        '/api/agent-service/api/agents/chat-agent/runs',
        {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: runBody,
        },
      );
      expect(response.status, contentType).toBe(415);
    }
    expect(service.requests).toHaveLength(0);
  });
});

describe('given limits', () => {
  it('answers a body over maxBodyBytes with 413, sending nothing (declared or streamed length)', async () => {
    const proxy = proxyOf({ limits: { maxBodyBytes: 64 } });
    const big = JSON.stringify({
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'x'.repeat(200) }] }],
    });
    const direct = await callDirect(proxy, '/api/agent-service/api/agents/chat-agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    const origin = await listen(toNodeHandler(proxy));
    // Chunked: no Content-Length, so the limit is met while reading.
    const chunked = await rawRequest(origin, '/api/agent-service/api/agents/chat-agent/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: big,
    });

    expect(direct.status).toBe(413);
    expect(await direct.json()).toMatchObject({ status: 413, code: 'request_too_large' });
    expect(chunked.status).toBe(413);
    expect(service.requests).toHaveLength(0);
  });

  it('answers 504 when the service sends no headers within responseHeadersTimeoutMs, and aborts it', async () => {
    let seen = 0;
    let closed = 0;
    const silent = await listen((incoming) => {
      seen += 1;
      incoming.socket.on('close', () => (closed += 1));
    });
    const proxy = createAgentProxy({
      baseUrl: silent,
      token,
      limits: { responseHeadersTimeoutMs: 200 },
    });

    const response = await callDirect(proxy, '/api/agent-service/api/agents/chat-agent');

    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ status: 504, code: 'gateway_timeout' });
    // Every request that reached the silent service was aborted (none may have, on a slow machine).
    await expect.poll(() => closed).toBe(seen);
  });
});

describe('given a service that fails', () => {
  it('answers a 502 problem when the service cannot be reached, with no token anywhere', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const deadPort = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const logs = ['log', 'info', 'warn', 'error', 'debug'].map((name) =>
      vi.spyOn(console, name as 'log').mockImplementation(() => undefined),
    );
    onTestFinished(() => logs.forEach((spy) => spy.mockRestore()));
    const proxy = createAgentProxy({ baseUrl: `http://127.0.0.1:${deadPort}`, token });

    const response = await callDirect(proxy, '/api/agent-service/api/agents/chat-agent');
    const text = await response.text();

    expect(response.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({
      status: 502,
      title: 'Bad Gateway',
      code: 'bad_gateway',
    });
    expect(text).not.toContain(token);
    expect(text).not.toContain(String(deadPort));
    expect([...response.headers.values()].join(' ')).not.toContain(token);
    for (const spy of logs) expect(JSON.stringify(spy.mock.calls)).not.toContain(token);
  });

  it('keeps the message of a failing token or authorize function (which may hold the token) on the server', async () => {
    const proxy = proxyOf({
      token: () => {
        throw new Error(`token ${token} expired`);
      },
    });

    const response = await callDirect(proxy, '/api/agent-service/api/agents/chat-agent');
    const text = await response.text();

    expect(response.status).toBe(500);
    expect(text).not.toContain(token);
    expect(text).not.toContain('expired');
    expect(service.requests).toHaveLength(0);
  });

  it('does not follow a redirect of the service (the token would go with it)', async () => {
    let redirected = 0;
    const target = await listen((_incoming, outgoing) => {
      redirected += 1;
      outgoing.end('{}');
    });
    const redirecting = await listen((_incoming, outgoing) => {
      outgoing.writeHead(302, { location: `${target}/steal` }).end();
    });
    const proxy = createAgentProxy({ baseUrl: redirecting, token });

    const response = await callDirect(proxy, '/api/agent-service/api/agents/chat-agent');

    expect(response.status).toBe(502);
    expect(response.headers.get('location')).toBeNull();
    expect(redirected).toBe(0);
  });
});

describe('given a streamed run', () => {
  it('passes the first event on before the service ends the stream (Fetch handler)', async () => {
    const response = await callDirect(
      proxyOf(),
      '/api/agent-service/api/agents/endless-agent/runs',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: runBody,
      },
    );
    const { text, reader } = await firstChunk(response);

    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text).toContain('id: 1');
    expect(service.openStreams).toBe(1);
    await reader.cancel();
    await service.waitFor(() => service.runRequests('endless-agent')[0]?.closedByClient === true);
  });

  it('aborts the request to the service when the request signal aborts', async () => {
    const controller = new AbortController();
    const response = await callDirect(
      proxyOf(),
      '/api/agent-service/rest/api/v1/agents/runs/stream',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ agent_id: 'endless-agent', messages: [] }),
        signal: controller.signal,
      },
    );
    await firstChunk(response);

    controller.abort();

    await service.waitFor(() => service.runRequests('endless-agent')[0]?.closedByClient === true);
    expect(service.openStreams).toBe(0);
  });

  it('under node:http: streams unbuffered, and a browser that goes away closes the service stream', async () => {
    const origin = await listen(toNodeHandler(proxyOf()));
    const controller = new AbortController();

    const response = await fetch(`${origin}/api/agent-service/api/agents/endless-agent/runs`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${browserToken}`,
      },
      body: runBody,
      signal: controller.signal,
    });
    const { text } = await firstChunk(response);

    expect(response.status).toBe(200);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(text).toContain('first');
    expect(service.openStreams).toBe(1);
    expect(service.runRequests('endless-agent')[0]?.tokenFingerprint).toBe(token.slice(-4));

    controller.abort();

    await service.waitFor(() => service.runRequests('endless-agent')[0]?.closedByClient === true);
    expect(service.openStreams).toBe(0);
  });

  it('under node:http: a stream the service drops breaks off for the browser too (no clean end)', async () => {
    service.service.setAgent({
      agent: { agent_id: 'dropping-agent', name: 'Dropping', capabilities: {} },
      run: { events: textEvents('one two three four'), dropAfter: 2, dropTimes: Infinity },
    });
    const origin = await listen(toNodeHandler(proxyOf()));

    const response = await fetch(`${origin}/api/agent-service/rest/api/v1/agents/runs/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ agent_id: 'dropping-agent' }),
    });

    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('under node:http: forwards a whole run and the answers of retrieval, token never echoed', async () => {
    const origin = await listen(toNodeHandler(proxyOf()));

    const agent = await fetch(`${origin}/api/agent-service/api/agents/chat-agent`);
    const run = await fetch(`${origin}/api/agent-service/rest/api/v1/agents/runs/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        agent_id: 'chat-agent',
        messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }],
      }),
    });
    const stream = await run.text();

    expect(agent.status).toBe(200);
    expect(await agent.json()).toMatchObject({ agent: { agent_id: 'chat-agent' } });
    expect(stream).toMatch(/event: message/);
    expect(stream).not.toContain(token);
    expect(service.requests).toHaveLength(2);
  });
});

describe('given a service that echoes what it was sent', () => {
  const actAs = 'someone@acme.example';
  /** A service that writes the request's Authorization and ActAs back, as JSON and as events. */
  async function echoService() {
    return listen((request, response) => {
      const echoed = `${request.headers['authorization']} ${request.headers['x-glean-actas']}`;
      if (request.url?.includes('/runs/stream')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const escaped = JSON.stringify(echoed).replace(/-/g, '\\u002d');
        response.write(`id: 1\nevent: message\ndata: {"text":${JSON.stringify(echoed)}}\n\n`);
        response.write(`id: 2\nevent: message\ndata: {"text":${escaped}}\n\n`);
        // An event split in the middle of the token.
        const split = `id: 3\nevent: message\ndata: {"text":${JSON.stringify(echoed)}}\n\n`;
        const middle = split.indexOf(token) + 5;
        response.write(split.slice(0, middle));
        setTimeout(() => response.end(split.slice(middle)), 20);
        return;
      }
      response.writeHead(403, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify({ status: 403, detail: `Refused: ${echoed}` }));
    });
  }

  it('never hands the token or the headers it adds to the browser, JSON or stream', async () => {
    const echo = await echoService();
    const proxy = createAgentProxy({ baseUrl: echo, token, headers: { 'X-Glean-ActAs': actAs } });

    const problem = await callDirect(proxy, '/api/agent-service/rest/api/v1/agents/chat-agent');
    const problemText = await problem.text();
    expect(problem.status).toBe(403);
    expect(problemText).toContain('Refused: Bearer [redacted] [redacted]');

    const stream = await callDirect(proxy, '/api/agent-service/rest/api/v1/agents/runs/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'chat-agent', messages: [] }),
    });
    const streamText = await stream.text();
    for (const text of [problemText, streamText]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(actAs);
      expect(text).not.toContain('7Qx9');
    }
    expect(streamText.match(/\[redacted\]/g)).toHaveLength(6);
    expect(streamText).toContain('id: 3\nevent: message\n');
  });
});

describe('given options that cannot work', () => {
  it.each([
    [{ baseUrl: 'acme.example.com' }],
    [{ baseUrl: 'https://acme.example.com/?token=x' }],
    [{ baseUrl: 'ftp://acme.example.com' }],
    [{ baseUrl: 'https://acme.example.com', basePath: 'api/agent-service' }],
    [{ baseUrl: 'https://acme.example.com', basePath: '/api/../admin' }],
    [{ baseUrl: 'https://acme.example.com', limits: { maxBodyBytes: 0 } }],
    [{ baseUrl: 'https://acme.example.com', limits: { responseHeadersTimeoutMs: Number.NaN } }],
  ])('throws at creation for %j', (options) => {
    expect(() => createAgentProxy(options)).toThrow(TypeError);
  });
});

// A proxy mounted at the root, as Express mounts it with app.use('/api/agent-service', ...).
describe('given Express-style mounting', () => {
  let origin = '';
  let server: Server | undefined;
  beforeAll(async () => {
    const handler = toNodeHandler(proxyOf());
    server = createServer((incoming, outgoing) => {
      // What Express does under app.use('/api/agent-service', ...): url stripped, originalUrl kept.
      const original = incoming.url ?? '/';
      Object.assign(incoming, {
        originalUrl: original,
        url: original.replace(/^\/api\/agent-service/, '') || '/',
      });
      void handler(incoming, outgoing);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('says so, sending nothing, when a body parser read the body before the proxy', async () => {
    const handler = toNodeHandler(proxyOf());
    const parsed = await listen((incoming, outgoing) => {
      // What express.json() does: read the whole body, then call the next handler.
      incoming.resume();
      incoming.on('end', () => void handler(incoming, outgoing));
    });

    const response = await fetch(`${parsed}/api/agent-service/api/agents/chat-agent/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: runBody,
    });

    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ detail: expect.stringMatching(/body parser/) });
    expect(service.requests).toHaveLength(0);
  });

  it('matches the full path (originalUrl) against basePath', async () => {
    const response = await fetch(`${origin}/api/agent-service/api/agents/chat-agent`);

    expect(response.status).toBe(200);
    expect(service.requests[0]?.path).toBe('/api/agents/chat-agent');
  });
});
