/**
 * What the client reads of the service's contract (Client API 0.9.0, Platform API 2026-04-01): the
 * deprecation dates of the legacy operations, the legacy search answer `{}`, and the `toolCta` and
 * `actionPreview` of a legacy 422's entries.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AgentHttpError, AgentValidationError, createAgentClient } from 'agent-console-kit';
import { createRunStream } from 'agent-console-kit/core';
import type { DeprecationNotice } from '../../../src/core/wire/agent-client.js';
import { demoAgents } from 'agent-console-kit/testing';
import { serveForTest } from '../../support/mock-server.js';

const userMessages = [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }];

/** A node:http server on 127.0.0.1 that answers every request with `body` as JSON. */
async function answering(body: string): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

describe('given the deprecated legacy operations', () => {
  it('reports the dates: deprecated on 2026-08-25, sunset on 2027-04-15, raw headers kept', async () => {
    const mock = await serveForTest({ agents: demoAgents, deprecationHeaders: true });
    const notices: DeprecationNotice[] = [];
    const client = createAgentClient({
      baseUrl: mock.url,
      onDeprecation: (notice) => notices.push(notice),
    });

    await client.getAgent('chat-agent');
    const final = await createRunStream(client).start({
      agentId: 'chat-agent',
      messages: userMessages,
    });

    expect(final.status).toBe('done');
    expect(notices).toHaveLength(2);
    for (const notice of notices) {
      expect(notice).toMatchObject({
        deprecation: '@1787616000',
        sunset: 'Thu, 15 Apr 2027 00:00:00 GMT',
        link: expect.stringContaining('rel="successor-version"') as unknown,
      });
      expect(notice.deprecatedAt?.toISOString()).toBe('2026-08-25T00:00:00.000Z');
      expect(notice.sunsetAt?.toISOString()).toBe('2027-04-15T00:00:00.000Z');
    }
    expect(client.deprecation).toEqual(notices[1]);
  });

  it.each([
    ['true', 'soon', undefined, undefined],
    ['@x1', '1', undefined, undefined],
    ['Tue, 25 Aug 2026 00:00:00 GMT', 'Thu, 15 Apr 2027 00:00:00 GMT', '2026-08-25', '2027-04-15'],
  ])(
    'Deprecation %j, Sunset %j: dates %s and %s, the raw values kept',
    async (deprecation, sunset, deprecatedDay, sunsetDay) => {
      const mock = await serveForTest({ agents: demoAgents });
      mock.inject('chat-agent', {
        status: 200,
        endpoint: 'agent',
        headers: { Deprecation: deprecation, Sunset: sunset },
        body: demoAgents[1]?.agent,
      });
      const client = createAgentClient({ baseUrl: mock.url });

      await client.getAgent('chat-agent');

      expect(client.deprecation).toMatchObject({ deprecation, sunset });
      expect(client.deprecation).toHaveProperty('deprecatedAt');
      expect(client.deprecation).toHaveProperty('sunsetAt');
      expect(client.deprecation?.deprecatedAt?.toISOString().slice(0, 10)).toBe(deprecatedDay);
      expect(client.deprecation?.sunsetAt?.toISOString().slice(0, 10)).toBe(sunsetDay);
    },
  );
});

describe('given a legacy search answer', () => {
  it('reads {} as no agents (the contract requires no field), and still refuses a non-list', async () => {
    const empty = await answering('{}');
    await expect(createAgentClient({ baseUrl: empty.url }).searchAgents('jira')).resolves.toEqual(
      [],
    );
    expect(empty.requests).toEqual(['POST /rest/api/v1/agents/search']);

    const hostile = await answering('{"agents":"all of them"}');
    await expect(createAgentClient({ baseUrl: hostile.url }).searchAgents()).rejects.toBeInstanceOf(
      AgentValidationError,
    );
    expect(hostile.requests).toHaveLength(1);
  });
});

describe('given a legacy 422 with toolCta and actionPreview', () => {
  it('keeps them on the typed error, and drops either when of the wrong type', async () => {
    const mock = await serveForTest({ agents: demoAgents });
    const demo = await createRunStream(createAgentClient({ baseUrl: mock.url })).start({
      agentId: 'tool-auth-agent',
      messages: userMessages,
    });
    expect(demo.error).toBeInstanceOf(AgentHttpError);
    expect((demo.error as AgentHttpError).authenticationSuggestions[0]).toMatchObject({
      toolName: 'jira',
      toolDisplayName: 'Jira',
      serverId: 'jira-server',
      toolCta: 'Authorize',
      actionPreview: { description: 'Read and create Jira issues.' },
    });

    mock.inject('chat-agent', {
      status: 422,
      endpoint: 'run',
      body: {
        message: 'Authorize the tools.',
        authenticationSuggestions: [
          {
            toolName: 'slack',
            toolType: 'MCP',
            requestType: 'EXECUTION',
            requestId: 'r1',
            serverId: 'slack-server',
            toolCta: { html: '<b>Send</b>' },
            actionPreview: '<img src=x onerror=alert(1)>',
          },
          {
            toolName: 'mail',
            toolType: 'MCP',
            requestType: 'EXECUTION',
            requestId: 'r2',
            toolCta: 'Send',
            actionPreview: { markdown: '**Sends** a mail', description: 42 },
          },
        ],
      },
    });
    const final = await createRunStream(createAgentClient({ baseUrl: mock.url })).start({
      agentId: 'chat-agent',
      messages: userMessages,
    });

    const [slack, mail] = (final.error as AgentHttpError).authenticationSuggestions;
    expect(slack?.toolCta).toBeUndefined();
    expect(slack?.actionPreview).toBeUndefined();
    expect(mail?.toolCta).toBe('Send');
    expect(mail?.actionPreview).toEqual({ markdown: '**Sends** a mail', description: undefined });
    expect(mock.postCount()).toBe(2);
  });
});
