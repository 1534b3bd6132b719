import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  agentKeys,
  agentSchemasQueryOptions,
  AgentValidationError,
  createAgentClient,
  groupAgentTools,
  type AgentApi,
  type AgentSchemas,
  type AgentTool,
  type AgentToolSummary,
} from 'agent-console-kit/core';
import { AgentToolAuthorizations } from '../../../src/core/wire/agent-tools.js';
import { demoAgents, demoToolServers } from 'agent-console-kit/testing';
import type {
  actionSummarySchema,
  agentSchemasSchema,
  agentSchemasToolsSchema,
} from '../../../src/core/wire/schemas.js';
import * as schemas from '../../../src/core/wire/schemas.js';
import {
  agentToolsCheckPath,
  agentToolsChecks,
  wireChecksModuleSource,
} from '../../../scripts/generate-validators.mjs';
import { setUpMockServer } from '../../support/mock-server.js';

/** A tool whose enum values and fields a future service may send; the client keeps them all. */
const futureTool = {
  tool_id: 'hologram',
  display_name: 'Hologram call',
  type: 'TELEPORT',
  auth_type: 'RETINA_SCAN',
  write_action_type: 'BROADCAST',
  is_setup_finished: true,
  data_source: 'galaxy',
  ranking: { score: 3 },
};

const server = setUpMockServer({
  agents: [
    ...demoAgents,
    {
      agent: { agent_id: 'future-agent', name: 'Future', capabilities: {} },
      schemas: {
        input_schema: {},
        tools: [futureTool],
      },
    },
  ],
});
/**
 * The person consents on the sign-in page `url` names (the mock's stands-in for it:
 * `…/__consent` with the same `server` and `return_to`).
 */
function consent(url: string): Promise<Response> {
  return fetch(`${server.url}/__consent${new URL(url).search}`, { redirect: 'manual' });
}

const clientFor = (api: AgentApi) =>
  createAgentClient({ baseUrl: server.url, api, token: 'tools-token-1234' });

describe('the types of the tools', () => {
  it('are what the schemas accept (the open enums are strings on the wire)', () => {
    expectTypeOf<z.infer<typeof actionSummarySchema>>().toExtend<AgentTool>();
    expectTypeOf<AgentTool>().toExtend<z.infer<typeof actionSummarySchema>>();
    // The tools are checked apart (agentSchemasToolsSchema); the rest of the answer as typed.
    expectTypeOf<AgentSchemas>().toExtend<z.infer<typeof agentSchemasSchema>>();
    expectTypeOf<AgentSchemas>().toExtend<z.infer<typeof agentSchemasToolsSchema>>();
  });

  it('are checked by what zod compiles from today’s schema (else: npm run generate:validators)', () => {
    expect(readFileSync(agentToolsCheckPath, 'utf8')).toBe(
      wireChecksModuleSource(schemas, agentToolsChecks),
    );
  });
});

describe.each<AgentApi>(['rest-v1', 'platform'])('given the mock service on %s', (api) => {
  it('retrieves the tools only with includeTools (include_tools=true), parsed and typed', async () => {
    const client = clientFor(api);

    const plain = await client.getAgentSchemas('chat-agent');
    const withTools = await client.getAgentSchemas('chat-agent', { includeTools: true });

    expect(plain.tools).toBeUndefined();
    expect(withTools.tools?.map((tool) => tool.tool_id)).toEqual([
      'company-search',
      'web-search',
      'zendesk-tickets',
      'servicenow-open-incident',
      'gmail-send',
      'pagerduty-page',
    ]);
    expect(server.requests.map((request) => request.search)).toEqual(['', '?include_tools=true']);
    const groups = groupAgentTools(withTools.tools);
    expect(groups.reads.map((tool) => tool.name)).toEqual([
      'Company search',
      'Web search',
      'Zendesk tickets',
    ]);
    expect(groups.changes.map((tool) => [tool.name, tool.writeAction])).toEqual([
      ['Open a ServiceNow incident', 'redirect'],
      ['Send an email', 'execution'],
      ['Page the on-call engineer', 'execution'],
    ]);
    expect(groups.notSetUp.map((tool) => tool.id)).toEqual(['pagerduty-page']);
    expect(groups.needsAuthorization).toEqual([]);
  });

  it('keeps enum values and fields it does not know', async () => {
    const schemas = await clientFor(api).getAgentSchemas('future-agent', { includeTools: true });

    expect(schemas.tools).toEqual([futureTool]);
    const [tool] = groupAgentTools(schemas.tools).other;
    expect(tool).toMatchObject({
      kind: 'unknown',
      writeAction: 'unknown',
      authorization: 'unknown',
      setUp: true,
    });
  });

  it('refuses a tool without its required fields, naming the path', async () => {
    server.inject('chat-agent', {
      endpoint: 'schemas',
      status: 200,
      body: { input_schema: {}, tools: [{ tool_id: 'x' }] },
    });

    const refused = clientFor(api).getAgentSchemas('chat-agent', { includeTools: true });

    await expect(refused).rejects.toBeInstanceOf(AgentValidationError);
    await expect(refused).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: 'tools.0.display_name' })],
    });
  });

  it('keeps the schemas with and without tools in two cache entries under one prefix', () => {
    const client = clientFor(api);
    const plain = agentSchemasQueryOptions(client, 'chat-agent');
    const withTools = agentSchemasQueryOptions(client, 'chat-agent', { includeTools: true });

    expect(withTools.queryKey).not.toEqual(plain.queryKey);
    expect(withTools.queryKey.slice(0, plain.queryKey.length)).toEqual([...plain.queryKey]);
    expect(withTools.queryKey).toEqual(agentKeys.schemasWithTools(client, 'chat-agent'));
  });

  it('authorizes a tool ahead of the run: the consent completes and the next run does not hit the 422', async () => {
    const client = clientFor(api);
    const schemas = await client.getAgentSchemas('tool-auth-agent', { includeTools: true });
    const groups = groupAgentTools(schemas.tools, {
      toolServerId: (tool) => demoToolServers[tool.tool_id],
    });
    expect(groups.needsAuthorization.map((tool) => [tool.name, tool.serverId])).toEqual([
      ['Create Jira issue', 'jira-server'],
      ['Confluence pages', 'confluence-server'],
    ]);
    const opened: string[] = [];
    const authorizations = new AgentToolAuthorizations(client, {
      authorizationReturnUrl: 'https://app.example.com/agents?back=1',
      toolAuthorization: (url) => opened.push(url),
    });

    for (const tool of groups.needsAuthorization) await authorizations.authorize(tool);

    expect(authorizations.getSnapshot()).toEqual({
      'jira-server': { status: 'opened' },
      'confluence-server': { status: 'opened' },
    });
    // The person consents on each sign-in page, which sends them back to the app.
    for (const url of opened) {
      const answer = await consent(url);
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toMatch(/^https:\/\/app\.example\.com\/agents\?/);
    }
    const status = await fetch(`${server.url}/rest/api/v1/tool-servers/jira-server/auth`, {
      headers: { Authorization: 'Bearer tools-token-1234' },
    });
    expect(await status.json()).toMatchObject({ authStatus: 'AUTHORIZED' });

    const events: string[] = [];
    const ended = await client.streamRun(
      {
        agentId: 'tool-auth-agent',
        messages: [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }],
      },
      {
        signal: new AbortController().signal,
        onMessage: (message) => void events.push(message.data),
      },
    );

    expect(ended).toMatchObject({ outcome: 'closed' });
    expect(server.runRequests('tool-auth-agent').map((request) => request.status)).toEqual([200]);
    const text = events
      .map((data) => (JSON.parse(data) as { messages: { content: { text: string }[] }[] }).messages)
      .flatMap((messages) =>
        messages.flatMap((message) => message.content.map((block) => block.text)),
      )
      .join('');
    expect(text).toContain('Jira is connected.');
  });

  it('keeps answering the 422 while a tool server is not authorized', async () => {
    const client = clientFor(api);
    const summary = (serverId: string): AgentToolSummary => ({
      ...groupAgentTools([{ tool_id: serverId, display_name: serverId, auth_type: 'OAUTH_USER' }])
        .all[0]!,
      serverId,
    });
    const opened: string[] = [];
    const authorizations = new AgentToolAuthorizations(client, {
      authorizationReturnUrl: 'https://app.example.com/',
      toolAuthorization: (url) => opened.push(url),
    });
    await authorizations.authorize(summary('jira-server'));
    await consent(opened[0] ?? '');

    const refused = client.streamRun(
      {
        agentId: 'tool-auth-agent',
        messages: [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }],
      },
      { signal: new AbortController().signal, onMessage: () => undefined },
    );

    await expect(refused).rejects.toMatchObject({ status: 422 });
  });
});
