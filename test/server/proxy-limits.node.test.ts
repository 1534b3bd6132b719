/**
 * What the proxy checks, forwarded as it came; what it cannot check or filter, refused; and the
 * bounds of what it reads: a legacy run body byte for byte, a search answer of another shape, a
 * method no Fetch runtime can represent, a body nested too deep, an answer that never ends.
 */
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAgentProxy, toNodeHandler } from 'agent-console-kit/server';
import { demoAgents } from 'agent-console-kit/testing';
import { listenForTest } from '../support/listen-for-test.js';
import { setUpMockServer } from '../support/mock-server.js';

const token = 'server-secret-token-7Qx9';
const runPath = '/api/agent-service/rest/api/v1/agents/runs/stream';

const service = setUpMockServer({
  agents: demoAgents.filter((agent) => ['chat-agent', 'form-agent'].includes(agent.agent.agent_id)),
});

function post(handler: (request: Request) => Promise<Response>, path: string, body: string) {
  return handler(
    new Request(`http://app.example${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );
}

function emptyStream(response: ServerResponse) {
  response.writeHead(200, { 'content-type': 'text/event-stream' }).end();
}

/** A node:http service that records each body as received, byte for byte. */
async function bodyEcho() {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      emptyStream(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${address.port}`, bodies };
}

describe('given allowAgents and a legacy run body', () => {
  it('forwards the body it checked byte for byte: numbers, spacing and escapes unchanged', async () => {
    const echo = await bodyEcho();
    const proxy = createAgentProxy({ baseUrl: echo.url, token, allowAgents: ['chat-agent'] });
    const body =
      '{ "agent_id" : "chat-agent", "n": 12345678901234567890, "big": 1e400, "z": -0,\n' +
      '  "tiny": 5e-324, "s": "\\u0041\\/", "messages": [] }';

    const response = await post(proxy, runPath, body);
    await response.text();

    expect(response.status).toBe(200);
    expect(echo.bodies).toEqual([body]);
  });

  it('refuses a duplicate agent_id with 400 (parsers disagree on which one counts), sending nothing', async () => {
    const echo = await bodyEcho();
    const proxy = createAgentProxy({ baseUrl: echo.url, token, allowAgents: ['chat-agent'] });

    for (const body of [
      '{"agent_id":"form-agent","agent_id":"chat-agent","messages":[]}',
      '{"agent_id":"chat-agent","agent\\u005fid":"form-agent"}',
    ]) {
      const response = await post(proxy, runPath, body);
      expect(response.status, body).toBe(400);
    }
    expect(echo.bodies).toEqual([]);
  });

  it('answers a body nested 400,000 deep with 400, not 500, sending nothing', async () => {
    const deep = `{"agent_id":"chat-agent","x":${'['.repeat(400_000)}${']'.repeat(400_000)}}`;
    const proxy = createAgentProxy({
      baseUrl: service.url,
      token,
      allowAgents: ['chat-agent'],
    });

    const response = await post(proxy, runPath, deep);

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(service.requests).toHaveLength(0);
  });
});

describe('given allowAgents and a search answer the proxy cannot filter', () => {
  const shapes: [string, unknown][] = [
    ['a top-level array', [{ agent_id: 'form-agent' }]],
    ['agents that is not an array', { agents: { 'form-agent': { agent_id: 'form-agent' } } }],
    ['agents under another key', { results: [{ agent_id: 'form-agent', name: 'Form' }] }],
    [
      'an agent beside the filtered list',
      { agents: [{ agent_id: 'chat-agent' }], featured: { agent_id: 'form-agent' } },
    ],
    ['not JSON', 'agents: form-agent'],
  ];

  it.each(shapes)('refuses %s with a 502 problem', async (_label, answer) => {
    const search = await listenForTest((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
    const proxy = createAgentProxy({ baseUrl: search.url, token, allowAgents: ['chat-agent'] });

    const response = await post(proxy, '/api/agent-service/api/agents/search', '{}');
    const text = await response.text();

    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(text).not.toContain('form-agent');
  });

  it('filters and redacts an answer nested 400,000 deep (no recursion), not a 500', async () => {
    const deep = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
    const search = await listenForTest((request, response) => {
      const echoed = String(request.headers['authorization']).replace(/^Bearer /, '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        `{"agents":[{"agent_id":"chat-agent","nested":${deep}},{"agent_id":"form-agent"}],"echo":"${echoed.replace(/-/g, '\\u002d')}"}`,
      );
    });
    const proxy = createAgentProxy({ baseUrl: search.url, token, allowAgents: ['chat-agent'] });

    const response = await post(proxy, '/api/agent-service/api/agents/search', '{}');
    const text = await response.text();

    expect(response.status).toBe(200);
    expect(text).not.toContain('form-agent');
    expect(text.endsWith('"echo":"[redacted]"}')).toBe(true);
    expect(text).toContain(`"nested":${deep}`);
  });

  it('still filters the documented shape', async () => {
    const search = await listenForTest((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ agents: [{ agent_id: 'chat-agent' }, { agent_id: 'form-agent' }], n: 2 }),
      );
    });
    const proxy = createAgentProxy({ baseUrl: search.url, token, allowAgents: ['chat-agent'] });

    const response = await post(proxy, '/api/agent-service/api/agents/search', '{}');

    expect(await response.json()).toEqual({ agents: [{ agent_id: 'chat-agent' }], n: 2 });
  });
});

/** A raw request to a node:http server: any method, the answer's status and body. */
function rawRequest(origin: string, method: string, path: string) {
  const { hostname, port } = new URL(origin);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, path, method }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('given a method no Fetch Request can carry', () => {
  // TRACK and CONNECT never reach a handler: node:http refuses them itself.
  it('the node adapter answers TRACE with the documented 404', async () => {
    const handler = toNodeHandler(createAgentProxy({ baseUrl: service.url, token }));
    const proxy = await listenForTest((request, response) => void handler(request, response));

    const answer = await rawRequest(
      proxy.url,
      'TRACE',
      '/api/agent-service/rest/api/v1/agents/chat-agent',
    );

    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 404, code: 'resource_not_found' });
    expect(service.requests).toHaveLength(0);
  });
});

describe('given limits.maxAnswerBytes', () => {
  const cap = 64 * 1024;

  it('answers a 502 problem for an answer over the cap, with no part of it', async () => {
    const big = await listenForTest((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ text: 'y'.repeat(cap * 2) }));
    });
    const proxy = createAgentProxy({ baseUrl: big.url, token, limits: { maxAnswerBytes: cap } });

    const response = await proxy(
      new Request('http://app.example/api/agent-service/api/agents/chat-agent'),
    );
    const text = await response.text();

    expect(response.status).toBe(502);
    expect(text).not.toContain('yyyy');
    expect(JSON.parse(text)).toMatchObject({ status: 502, code: 'bad_gateway' });
  });

  it('answers a 502 problem for a body that never ends, and closes the request to the service', async () => {
    let written = 0;
    let closed: () => void = () => undefined;
    const serviceClosed = new Promise<void>((resolve) => (closed = resolve));
    const endless = await listenForTest((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.on('close', () => closed());
      const chunk = `"${'z'.repeat(8 * 1024)}",`;
      // Bounded: the service writes at most four times the cap, then waits without ending.
      const write = () => {
        if (response.destroyed || written > cap * 4) return;
        written += chunk.length;
        response.write(chunk, () => setImmediate(write));
      };
      response.write('[');
      write();
    });
    const proxy = createAgentProxy({
      baseUrl: endless.url,
      token,
      limits: { maxAnswerBytes: cap },
    });

    const response = await proxy(
      new Request('http://app.example/api/agent-service/api/agents/chat-agent'),
    );

    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ status: 502, code: 'bad_gateway' });
    await serviceClosed;
  });

  it('is checked at creation', () => {
    expect(() =>
      createAgentProxy({ baseUrl: service.url, limits: { maxAnswerBytes: Number.NaN } }),
    ).toThrow(TypeError);
  });
});

describe('given limits.maxAnswerBytes and an event stream', () => {
  it('breaks the stream off at an event longer than the cap (it is held whole to be checked)', async () => {
    const cap = 16 * 1024;
    const stream = await listenForTest((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: message\ndata: {"n":1}\n\n');
      response.end(`event: message\ndata: "${'w'.repeat(cap * 2)}"\n\n`);
    });
    const proxy = createAgentProxy({ baseUrl: stream.url, token, limits: { maxAnswerBytes: cap } });

    const response = await proxy(
      new Request('http://app.example/api/agent-service/api/agents/chat-agent/runs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );

    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('event: message\ndata: {"n":1}\n\n');
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow(/larger than the proxy reads/);
  });
});
