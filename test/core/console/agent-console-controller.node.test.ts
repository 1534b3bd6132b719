import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createAgentConsoleController,
  type AgentClient,
} from 'agent-console-kit/core';
import type {
  AgentErrorTool,
  ToolAuthorizationNavigation,
} from '../../../src/core/wire/tool-authorization.js';

import { demoAgents } from 'agent-console-kit/testing';
import { setUpMockServer } from '../../support/mock-server.js';

const server = setUpMockServer({ agents: demoAgents });

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

function client(): AgentClient {
  return createAgentClient({ baseUrl: server.url, token: 'secret-token-1234' });
}

async function loaded(agentId: string, options = {}) {
  const agentClient = client();
  const controller = createAgentConsoleController(agentClient, agentId, options);
  const [agent, schemas] = await Promise.all([
    agentClient.getAgent(agentId),
    agentClient.getAgentSchemas(agentId),
  ]);
  controller.setAgent(agent, schemas);
  return controller;
}

describe('given a form agent, in Node without React', () => {
  it('runs it once through the controller and records the run', async () => {
    const controller = await loaded('form-agent');
    const disconnect = controller.connect();

    const done = await controller.start(intake);

    expect(done?.status).toBe('done');
    expect(controller.getSnapshot()).toMatchObject({ mode: 'form', conversation: undefined });
    expect(controller.getSnapshot().history).toHaveLength(1);
    expect(server.postCount('form-agent')).toBe(1);
    disconnect();
  });

  it('ends a run started while disconnected before its request goes out', async () => {
    const controller = await loaded('form-agent');
    controller.connect()();

    const done = await controller.start(intake);

    expect(done?.status).toBe('aborted');
    expect(server.postCount('form-agent')).toBe(0);
  });
});

describe('given a tool to authorize, in Node without React', () => {
  it("redirects through the navigation given, to the service's http(s) URL", async () => {
    const redirected: string[] = [];
    const navigation: ToolAuthorizationNavigation = {
      currentUrl: () => 'https://app.example.com/here',
      openWindow: () => expect.fail('a redirect opens no window'),
      redirect: (url) => redirected.push(url),
    };
    const controller = await loaded('tool-auth-agent', {
      toolAuthorization: 'redirect',
      navigation,
    });

    await controller.authorizeTool(tool);

    expect(redirected).toHaveLength(1);
    expect(new URL(redirected[0] ?? '').searchParams.get('return_to')).toBe(
      'https://app.example.com/here',
    );
    expect(controller.getSnapshot().toolStates).toEqual({ 'jira-server': { status: 'opened' } });
  });

  it('says it failed when nothing can open a page, after asking once', async () => {
    const controller = await loaded('tool-auth-agent', {
      authorizationReturnUrl: 'https://app.example.com/back',
    });

    await controller.authorizeTool(tool);

    expect(controller.getSnapshot().toolStates['jira-server']).toEqual({
      status: 'failed',
      message: "no navigation was given to open the sign-in page ('window').",
    });
    expect(server.requests.filter((request) => request.path.endsWith('/auth'))).toHaveLength(1);
  });
});
