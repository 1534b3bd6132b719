import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AgentRedirectError, createAgentClient, createRunStream } from 'agent-console-kit/core';
import { listenForTest } from '../../support/listen-for-test.js';

// Two node:http servers on 127.0.0.1, on different ports: two origins. The service redirects; the
// other origin counts what reached it, which must be nothing.

const token = 'tok-Secret42-redirect';
const actAs = 'someone@example.com';

type Listening = Awaited<ReturnType<typeof listenForTest>>;

/** The other origin: it answers everything as the service would, and counts. */
function otherOrigin(): Promise<Listening> {
  return listenForTest((request, response) => {
    if ((request.url ?? '').includes('/runs')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        'data: {"messages":[{"role":"GLEAN_AI","content":[{"type":"text","text":"stolen"}]}]}\n\n',
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ agent_id: 'agent', name: 'Elsewhere', capabilities: {}, agents: [] }),
    );
  });
}

function redirectingTo(status: number, target: () => string): Promise<Listening> {
  return listenForTest((_request, response) => {
    response.writeHead(status, { location: target() });
    response.end();
  });
}

const run = {
  agentId: 'agent',
  messages: [{ role: 'USER' as const, content: [{ type: 'text' as const, text: 'Hi' }] }],
};

function client(url: string, api: 'rest-v1' | 'platform' = 'platform') {
  return createAgentClient({ baseUrl: url, api, token, headers: { 'X-Glean-ActAs': actAs } });
}

describe('given a service that redirects to another origin', () => {
  it.each([301, 302, 303, 307, 308])(
    'ends the run on a %i with a final AgentRedirectError, and nothing reaches the other origin',
    async (status) => {
      const other = await otherOrigin();
      const service = await redirectingTo(
        status,
        () => `${other.url}/api/agents/agent/runs?t=${token}`,
      );
      const stream = createRunStream(client(service.url), {
        reconnect: { baseDelayMs: 1, maxDelayMs: 1 },
      });

      const final = await stream.start(run);

      expect(final.status).toBe('error');
      expect(final.error).toBeInstanceOf(AgentRedirectError);
      const error = final.error as AgentRedirectError;
      expect(error.retryable).toBe(false);
      expect(error.reason).toBe('cross-origin');
      expect(error.redirectOrigin).toBe(other.url);
      expect(error.status).toBe(status);
      expect(error.message).toContain(other.url);
      expect(inspect(error, { depth: Infinity })).not.toContain(token);
      expect(error.stack).toContain(other.url);
      expect(other.received).toHaveLength(0);
      expect(service.received).toHaveLength(1);
      expect(final.text).toBe('');
    },
  );

  it('refuses it for a retrieval, a search and a tool authorization too', async () => {
    const other = await otherOrigin();
    const service = await redirectingTo(307, () => `${other.url}/elsewhere`);
    const legacy = client(service.url, 'rest-v1');

    const results = await Promise.all([
      legacy.getAgent('agent').catch((error: unknown) => error),
      legacy.getAgentSchemas('agent').catch((error: unknown) => error),
      legacy.searchAgents('a').catch((error: unknown) => error),
      legacy
        .authorizeToolServer('jira', { returnUrl: 'https://app.example/back' })
        .catch((error: unknown) => error),
    ]);

    for (const result of results) {
      expect(result).toBeInstanceOf(AgentRedirectError);
      expect((result as AgentRedirectError).redirectOrigin).toBe(other.url);
    }
    expect(other.received).toHaveLength(0);
    expect(service.received).toHaveLength(4);
  });
});

describe('given a service that redirects within its own origin', () => {
  it('follows a 307 with the same POST, body and headers, and streams the run', async () => {
    const service = await listenForTest((request, response) => {
      if (request.url === '/api/agents/agent/runs') {
        response.writeHead(307, { location: '/moved/api/agents/agent/runs' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        'id: 1\ndata: {"messages":[{"role":"GLEAN_AI","content":[{"type":"text","text":"Hello"}]}]}\n\n',
      );
    });

    const final = await createRunStream(client(service.url)).start(run);

    expect(final.status).toBe('done');
    expect(final.text).toBe('Hello');
    expect(service.received.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/api/agents/agent/runs'],
      ['POST', '/moved/api/agents/agent/runs'],
    ]);
    expect(service.received[1]?.headers['authorization']).toBe(`Bearer ${token}`);
  });

  it('follows a 301 of a retrieval', async () => {
    const service = await listenForTest((request, response) => {
      if (request.url === '/rest/api/v1/agents/agent') {
        response.writeHead(301, { location: '/rest/api/v1/agents/agent-renamed' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ agent_id: 'agent-renamed', name: 'Renamed', capabilities: {} }),
      );
    });

    const agent = await client(service.url, 'rest-v1').getAgent('agent');

    expect(agent.name).toBe('Renamed');
    expect(service.received).toHaveLength(2);
  });

  it('follows a 303 of a search as a GET without its body, as fetch does', async () => {
    const service = await listenForTest((request, response) => {
      if (request.method === 'POST') {
        response.writeHead(303, { location: '/rest/api/v1/agents/search-results' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ agents: [] }));
    });

    const agents = await client(service.url, 'rest-v1').searchAgents('a');

    expect(agents).toEqual([]);
    expect(service.received.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/rest/api/v1/agents/search'],
      ['GET', '/rest/api/v1/agents/search-results'],
    ]);
    expect(service.received[1]?.headers['content-type']).toBeUndefined();
    expect(service.received[1]?.headers['authorization']).toBe(`Bearer ${token}`);
  });

  it('stops a redirect loop after 5 redirects with a final AgentRedirectError', async () => {
    let hops = 0;
    const service = await listenForTest((_request, response) => {
      hops += 1;
      response.writeHead(308, { location: `/loop/${hops}` });
      response.end();
    });

    const error: unknown = await client(service.url, 'rest-v1')
      .getAgent('agent')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AgentRedirectError);
    expect((error as AgentRedirectError).reason).toBe('too-many');
    expect(service.received).toHaveLength(6);
  });
});
