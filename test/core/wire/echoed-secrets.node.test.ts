import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AgentHttpError, AgentInputError, createAgentClient } from 'agent-console-kit';
import { createRunStream, eventsToNdjson } from 'agent-console-kit/core';
import { listenForTest } from '../../support/listen-for-test.js';

// A service that echoes what it was sent: the token, X-Glean-ActAs and an app's own secret header
// come back inside events and inside run.failed. None of it may reach any text the library makes.

const token = 'tok-Secret42-abcdef';
const actAs = 'someone.secret@example.com';
const tenantKey = 'tenant-key-7f3a9c';

function sse(response: ServerResponse, frames: string[]) {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const frame of frames) response.write(frame);
  response.end();
}

/** What the service was sent, read back from the request: what it echoes. */
function echoed(request: IncomingMessage) {
  const authorization = String(request.headers['authorization'] ?? '');
  return {
    token: authorization.replace(/^Bearer /, ''),
    actAs: String(request.headers['x-glean-actas'] ?? ''),
    tenantKey: String(request.headers['x-tenant-key'] ?? ''),
  };
}

/** `text` with every character written as a `\u` escape, as some JSON encoders do. */
function unicodeEscaped(text: string): string {
  return [...text]
    .map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');
}

function echoingClient(url: string) {
  return createAgentClient({
    baseUrl: url,
    api: 'platform',
    token,
    headers: { 'X-Glean-ActAs': actAs, 'X-Tenant-Key': tenantKey },
    secretHeaders: ['X-Tenant-Key'],
  });
}

const run = {
  agentId: 'agent',
  messages: [{ role: 'USER' as const, content: [{ type: 'text' as const, text: 'Hi' }] }],
};

function expectNoSecret(text: string) {
  expect(text).not.toContain(token);
  expect(text).not.toContain('Secret42');
  expect(text).not.toContain(actAs);
  expect(text).not.toContain(tenantKey);
}

describe('given a service that echoes the token inside events and run.failed', () => {
  it('redacts the error (message, String, JSON, stack, inspect), the events, the text and the NDJSON export', async () => {
    const server = await listenForTest((request, response) => {
      const secrets = echoed(request);
      const message = (text: string) =>
        `event: message\ndata: ${JSON.stringify({ messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text }] }] })}\n\n`;
      sse(response, [
        message(`Your token is ${secrets.token}. `),
        `event: debug\nid: ${secrets.token}\ndata: {"headers":{"authorization":"Bearer ${secrets.token}","actAs":"${secrets.actAs}","tenant":"${secrets.tenantKey}"}}\n\n`,
        // The same token with every character escaped: only the parsed payload shows it.
        `event: debug\ndata: {"escaped":"${unicodeEscaped(secrets.token)}"}\n\n`,
        `event: run.failed\ndata: ${JSON.stringify({
          error: {
            type: 'about:blank',
            title: 'Internal Error',
            status: 500,
            detail: `The token ${secrets.token} acting as ${secrets.actAs} was refused`,
            code: 'internal_error',
            request_id: `req-${secrets.tenantKey}`,
          },
        })}\n\n`,
      ]);
    });
    const stream = createRunStream(echoingClient(server.url));

    const final = await stream.start(run);

    expect(final.status).toBe('error');
    const error = final.error;
    expect(error).toBeInstanceOf(AgentHttpError);
    if (!(error instanceof AgentHttpError)) return;
    expect(error.detail).toBe('The token [redacted] acting as [redacted] was refused');
    expectNoSecret(error.message);
    expectNoSecret(String(error));
    expectNoSecret(JSON.stringify(error));
    expectNoSecret(error.stack ?? '');
    expectNoSecret(inspect(error, { depth: Infinity }));
    expect(final.events).toHaveLength(4);
    expectNoSecret(JSON.stringify(final.events));
    expectNoSecret(final.text);
    expect(final.text).toBe('Your token is [redacted]. ');
    expectNoSecret(final.lastEventId ?? '');
    const ndjson = eventsToNdjson(final.events);
    expectNoSecret(ndjson);
    expect(ndjson).toContain('[redacted]');
    const escaped = JSON.parse(ndjson.split('\n')[2] ?? '') as { payload: { escaped: string } };
    expect(escaped.payload.escaped).toBe('[redacted]');
  });

  it('redacts a refreshed token of a reconnect and the error of a refused retrieval', async () => {
    let calls = 0;
    const server = await listenForTest((request, response) => {
      const secrets = echoed(request);
      response.writeHead(403, { 'content-type': 'application/problem+json' });
      response.end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Insufficient Permissions',
          status: 403,
          detail: `Token ${unicodeEscaped(secrets.token)} may not act as ${secrets.actAs}`,
          code: 'insufficient_permissions',
          request_id: 'r1',
        }).replaceAll('\\\\u', '\\u'),
      );
    });
    const client = createAgentClient({
      baseUrl: server.url,
      api: 'platform',
      token: () => `${token}-${(calls += 1)}`,
      headers: { 'X-Glean-ActAs': actAs },
    });

    const error: unknown = await client.getAgent('agent').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(AgentHttpError);
    if (!(error instanceof AgentHttpError)) return;
    expect(error.detail).toBe('Token [redacted] may not act as [redacted]');
    expectNoSecret(inspect(error, { depth: Infinity }));
    expectNoSecret(JSON.stringify(error));
  });
});

describe('given a token or a header value that no HTTP header can carry', () => {
  it.each([
    ['a token with CR/LF', { token: 'abc\r\nSecret42-injected' }],
    ['a token with NUL', { token: 'abc\u0000Secret42' }],
    ['a token outside Latin-1', { token: 'abcSecret42\u0100' }],
    [
      'a header value with LF',
      { token: 'fine-token', headers: { 'X-Glean-ActAs': 'a\nSecret42' } },
    ],
  ])(
    'ends the run on %s as a final configuration error, sending nothing',
    async (_name, config) => {
      const server = await listenForTest((_request, response) => sse(response, ['data: {}\n\n']));
      const client = createAgentClient({ baseUrl: server.url, api: 'platform', ...config });
      const stream = createRunStream(client, { reconnect: { baseDelayMs: 1, maxDelayMs: 1 } });

      const final = await stream.start(run);

      expect(final.status).toBe('error');
      expect(final.error).toBeInstanceOf(AgentInputError);
      expect(final.error?.retryable).toBe(false);
      expect(final.error?.message).toMatch(/nothing was sent/);
      expect(final.attempt).toBe(0);
      expect(server.requests()).toBe(0);
      expect(inspect(final.error, { depth: Infinity })).not.toContain('Secret42');
      const retrieval: unknown = await client.getAgent('agent').catch((caught: unknown) => caught);
      expect(retrieval).toBeInstanceOf(AgentInputError);
      expect(inspect(retrieval, { depth: Infinity })).not.toContain('Secret42');
      expect(server.requests()).toBe(0);
    },
  );

  it('still sends a token that only ends with a line break (fetch drops it), and redacts it', async () => {
    const server = await listenForTest((request, response) => {
      const secrets = echoed(request);
      sse(response, [
        `event: run.failed\ndata: {"error":{"title":"Refused","status":401,"detail":"bad ${secrets.token}"}}\n\n`,
      ]);
    });
    const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: `${token}\n` });

    const final = await createRunStream(client).start(run);

    expect(server.requests()).toBe(1);
    expect(final.error).toBeInstanceOf(AgentHttpError);
    expectNoSecret(inspect(final.error, { depth: Infinity }));
    expect((final.error as AgentHttpError).detail).toBe('bad [redacted]');
  });
});

describe('given a connection that drops mid-stream with the token in its reason', () => {
  it('shows the reason redacted in the error and its cause', async () => {
    const service = await listenForTest((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('id: 1\nevent: message\ndata: {"messages":[]}\n\n');
    });
    // The real response, whose body then fails with a reason naming the token (as a proxy or a
    // runtime may write a request's header into an error).
    const client = createAgentClient({
      baseUrl: service.url,
      token,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const reader = response.body!.getReader();
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { value, done } = await reader.read();
            if (done || value === undefined) return controller.close();
            controller.enqueue(value);
            await reader.cancel();
            controller.error(new Error(`socket reset while sending Bearer ${token}`));
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    const stream = createRunStream(client, { reconnect: { maxAttempts: 1 } });

    const final = await stream.start({ agentId: 'chat-agent', messages: [] });

    expect(final.status).toBe('error');
    const shown = inspect(final.error, { depth: 5 });
    expect(shown).toContain('[redacted]');
    expect(shown).not.toContain(token);
  });
});
