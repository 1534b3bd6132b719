import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import {
  AgentDetails,
  AgentTools,
  createAgentClient,
  type AgentTool,
  type AgentToolsProps,
} from 'agent-console-kit';
import { groupAgentTools, type AgentApi } from 'agent-console-kit/core';
import type { AgentConsoleProps } from 'agent-console-kit/console';
import { demoAgents, demoToolServers } from 'agent-console-kit/testing';
import { setUpMockServer } from '../support/mock-server.js';
import { renderAgentConsole } from '../support/console.js';

const server = setUpMockServer();
/**
 * The person consents on the sign-in page `url` names (the mock's stands-in for it:
 * `…/__consent` with the same `server` and `return_to`).
 */
function consent(url: string): Promise<Response> {
  return fetch(`${server.url}/__consent${new URL(url).search}`, { redirect: 'manual' });
}

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await server.waitFor(() => server.openStreams === 0);
});

function toolsOf(agentId: string): AgentTool[] {
  const tools = demoAgents.find((definition) => definition.agent.agent_id === agentId)?.schemas
    ?.tools;
  if (!tools) throw new Error(`the demo agent ${agentId} has no tools`);
  return tools as AgentTool[];
}

function renderTools(props: AgentToolsProps) {
  return render(
    <StrictMode>
      <AgentTools {...props} />
    </StrictMode>,
  );
}

const region = () => screen.getByRole('region', { name: 'Tools' });
const names = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.ack-tools__name')?.textContent);

describe('given an agent’s tools', () => {
  it('lists what it reads and what it can change, each write action marked', async () => {
    const { container } = renderTools({ groups: groupAgentTools(toolsOf('form-agent')) });

    expect(region()).toHaveTextContent(
      'This agent reads 1 source and can change data with 1 action.',
    );
    const reads = screen.getByRole('list', { name: 'What it reads' });
    const changes = screen.getByRole('list', { name: 'What it can change' });
    expect(names(reads)).toEqual(['Company search']);
    expect(names(changes)).toEqual(['Create an Asana project']);
    expect(within(changes).getByRole('listitem')).toHaveTextContent(
      'Opens the service’s page to finish',
    );
    expect(screen.queryByRole('group')).toBeNull();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('collapses more than five behind a disclosure that gives their count', async () => {
    const user = userEvent.setup();
    const { container } = renderTools({ groups: groupAgentTools(toolsOf('chat-agent')) });

    const toggle = screen.getByText('Show all 6 tools');
    expect(toggle.closest('details')).not.toHaveAttribute('open');
    expect(screen.getByRole('list', { name: 'What it can change' })).not.toBeVisible();
    await user.click(toggle);
    expect(screen.getByRole('list', { name: 'What it can change' })).toBeVisible();
    expect(names(screen.getByRole('list', { name: 'What it can change' }))).toEqual([
      'Open a ServiceNow incident',
      'Send an email',
      'Page the on-call engineer',
    ]);
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('says which tool is not set up yet', () => {
    renderTools({ groups: groupAgentTools(toolsOf('chat-agent')), collapseAbove: 10 });

    expect(region()).toHaveTextContent('1 tool is not set up yet.');
    const item = within(screen.getByRole('list', { name: 'What it can change' }))
      .getAllByRole('listitem')
      .find((entry) => entry.textContent?.includes('Page the on-call engineer'));
    expect(item).toHaveTextContent('Not set up yet');
    expect(item?.querySelector('[data-not-set-up]')).not.toBeNull();
    // An admin's or the organization's credentials are what a tool uses, not a status it has.
    expect(region()).toHaveTextContent('Uses an admin’s sign-in');
    expect(region()).not.toHaveTextContent(/\bauthorized\b/i);
  });

  it('says a tool may ask for the person’s authorization, never that it is authorized, and has no button without a tool server', async () => {
    const { container } = renderTools({
      groups: groupAgentTools(toolsOf('tool-auth-agent')),
      onAuthorize: () => undefined,
    });

    expect(region()).toHaveTextContent('2 tools may ask for your authorization.');
    expect(screen.getAllByText('May ask for your authorization')).toHaveLength(2);
    expect(region()).not.toHaveTextContent(/\bauthorized\b/i);
    expect(screen.queryByRole('button')).toBeNull();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('offers Authorize for a tool mapped to its tool server, and says where it stands', async () => {
    const onAuthorize = vi.fn();
    const groups = groupAgentTools(toolsOf('tool-auth-agent'), {
      toolServerId: (tool) => demoToolServers[tool.tool_id],
    });
    const { container, rerender } = renderTools({ groups, onAuthorize });

    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Authorize Create Jira issue' }));
    expect(onAuthorize).toHaveBeenCalledWith(groups.needsAuthorization[0]);

    rerender(
      <StrictMode>
        <AgentTools
          groups={groups}
          onAuthorize={onAuthorize}
          authorizations={{
            'jira-server': { status: 'opened' },
            'confluence-server': { status: 'failed', message: 'the service refused.' },
          }}
        />
      </StrictMode>,
    );
    expect(screen.getByText('Sign-in page opened: finish there, then ask.')).toBeVisible();
    expect(screen.getByText('Could not start: the service refused.')).toBeVisible();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('says so while loading, when none, and after an error with Try again', async () => {
    const onRetry = vi.fn();
    const { rerender, container } = renderTools({ status: 'loading' });
    expect(region()).toHaveTextContent('Loading the agent’s tools…');
    expect(region()).toHaveAttribute('aria-busy', 'true');

    rerender(
      <StrictMode>
        <AgentTools status="ready" groups={groupAgentTools([])} />
      </StrictMode>,
    );
    expect(region()).toHaveTextContent('This agent uses no tools.');

    rerender(
      <StrictMode>
        <AgentTools status="error" onRetry={onRetry} />
      </StrictMode>,
    );
    expect(region()).toHaveTextContent('The agent’s tools could not be loaded.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('shows markup from the service as text and creates no element from it', () => {
    const { container } = renderTools({
      groups: groupAgentTools(toolsOf('xss-agent'), { toolServerId: () => 'x' }),
      onAuthorize: () => undefined,
    });

    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeVisible();
    expect(screen.getByText('Data: <script>alert(1)</script>')).toBeVisible();
    expect(container.querySelector('img, script, a')).toBeNull();
  });

  it('is shown inside AgentDetails as its children', () => {
    render(
      <StrictMode>
        <AgentDetails agent={{ agent_id: 'form-agent', name: 'Project intake' }}>
          <AgentTools groups={groupAgentTools(toolsOf('form-agent'))} />
        </AgentDetails>
      </StrictMode>,
    );

    const details = screen.getByRole('region', { name: 'Project intake' });
    expect(within(details).getByRole('region', { name: 'Tools' })).toBeVisible();
  });
});

function renderConsole(agentId: string, api: AgentApi, props: Partial<AgentConsoleProps> = {}) {
  const client = createAgentClient({ baseUrl: server.url, api, token: 'tools-token-1234' });
  return renderAgentConsole(client, { agentId, ...props });
}

describe.each<AgentApi>(['rest-v1', 'platform'])('given the console on %s', (api) => {
  it('shows the agent’s tools in its details, collapsed when there are many', async () => {
    const { container } = renderConsole('chat-agent', api);

    const details = await screen.findByRole('region', { name: 'Helpdesk chat' });
    const tools = await within(details).findByRole('region', { name: 'Tools' });
    await within(tools).findByText('Show all 6 tools');
    expect(tools).toHaveTextContent(
      'This agent reads 3 sources and can change data with 3 actions. 1 tool is not set up yet.',
    );
    expect(
      server.requests.filter((request) => request.search === '?include_tools=true'),
    ).toHaveLength(1);
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('hides the tools and asks for none with components.Tools null', async () => {
    renderConsole('chat-agent', api, { components: { Tools: null } });

    await screen.findByRole('region', { name: 'Helpdesk chat' });
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('region', { name: 'Tools' })).toBeNull();
    expect(server.requests.some((request) => request.search.includes('include_tools'))).toBe(false);
  });

  it('authorizes the tools before the first question; the run that follows does not hit the 422', async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    const { container } = renderConsole('tool-auth-agent', api, {
      toolServerId: (tool) => demoToolServers[tool.tool_id],
      authorizationReturnUrl: 'https://app.example.com/agents',
      toolAuthorization: (url) => opened.push(url),
    });
    const tools = await screen.findByRole('region', { name: 'Tools' });
    await waitFor(() => expect(tools).toHaveTextContent('2 tools may ask for your authorization.'));
    expect((await axe.run(container)).violations).toEqual([]);

    await user.click(within(tools).getByRole('button', { name: 'Authorize Create Jira issue' }));
    await user.click(within(tools).getByRole('button', { name: 'Authorize Confluence pages' }));
    await waitFor(() => expect(opened).toHaveLength(2));
    expect(within(tools).getAllByText('Sign-in page opened: finish there, then ask.')).toHaveLength(
      2,
    );
    // The person consents on both sign-in pages (the mock's), then asks.
    for (const url of opened) expect((await consent(url)).status).toBe(302);
    expect(server.postCount('tool-auth-agent')).toBe(0);

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Create the issue{Enter}');

    expect(await screen.findAllByText(/Jira is connected\./)).not.toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.runRequests('tool-auth-agent').map((request) => request.status)).toEqual([200]);
  });

  it('without a tool server mapping says the tools may ask, and the run’s 422 still offers Authorize', async () => {
    const user = userEvent.setup();
    renderConsole('tool-auth-agent', api);
    const tools = await screen.findByRole('region', { name: 'Tools' });
    expect(await within(tools).findAllByText('May ask for your authorization')).toHaveLength(2);
    expect(within(tools).queryByRole('button', { name: /^Authorize/ })).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Go{Enter}');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Authorize Jira' })).toBeEnabled();
  });
});
