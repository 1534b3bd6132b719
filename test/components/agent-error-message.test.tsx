import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import {
  AgentErrorMessage,
  AgentHttpError,
  AgentNetworkError,
  describeAgentError,
} from 'agent-console-kit';
import type { AgentErrorTool } from '../../src/core/wire/tool-authorization.js';

function httpError(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new AgentHttpError({
    status,
    url: 'https://agents.example.com/api/agents/a/runs',
    method: 'POST',
    body,
    headers: new Headers(headers),
  });
}

const legacy422 = httpError(422, {
  message: 'Authorize the tools.',
  authenticationSuggestions: [
    { toolName: 'jira', toolDisplayName: 'Jira Cloud', serverId: 'jira-server' },
    { toolName: 'wiki' },
    { serverId: 'drive-server' },
  ],
});

const platform422 = httpError(422, {
  type: 'about:blank',
  title: 'Unprocessable Content',
  status: 422,
  detail: 'Authorize the tools.',
  code: 'tools_unauthorized',
  authentication_suggestions: [
    { tool_name: 'Jira', server_id: 'jira-server' },
    { server_id: 'drive-server' },
  ],
});

afterEach(() => {
  vi.useRealTimers();
});

describe('given a 422 of either generation', () => {
  it.each([
    ['legacy', legacy422, ['Jira Cloud', 'wiki', 'drive-server']],
    ['platform', platform422, ['Jira', 'drive-server']],
  ])('%s: names each tool by display name, else tool name, else server id', (_, error, names) => {
    expect(describeAgentError(error).tools.map((tool) => tool.name)).toEqual(names);
  });

  it('offers an Authorize button per tool that has a server id, and says where each stands', async () => {
    const user = userEvent.setup();
    const authorized: AgentErrorTool[] = [];
    const { container } = render(
      <StrictMode>
        <AgentErrorMessage
          error={legacy422}
          onAuthorizeTool={(tool) => authorized.push(tool)}
          toolStates={{ 'drive-server': { status: 'opened' } }}
          onRetry={() => {}}
          retryLabel="Run again"
        />
      </StrictMode>,
    );

    const alert = screen.getByRole('alert');
    expect(within(alert).getAllByRole('button', { name: /^Authorize/ })).toHaveLength(2);
    expect(within(alert).queryByRole('button', { name: 'Authorize wiki' })).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Authorize Jira Cloud' }));
    expect(authorized).toEqual([{ name: 'Jira Cloud', serverId: 'jira-server' }]);
    expect(alert).toHaveTextContent('Sign-in page opened.');
    expect(alert).toHaveTextContent('Once you have allowed access');
    expect(within(alert).getByRole('button', { name: 'Run again' })).toBeEnabled();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it("names a tool's button with the service's toolCta verb, as text, else Authorize", async () => {
    const user = userEvent.setup();
    const authorized: AgentErrorTool[] = [];
    const hostile = '<img src=x onerror=alert(1)>';
    const error = httpError(422, {
      message: 'Authorize the tools.',
      authenticationSuggestions: [
        {
          toolName: 'slack',
          toolDisplayName: 'Slack',
          toolType: 'MCP',
          requestType: 'AUTHENTICATION_SUGGESTION',
          requestId: 'r1',
          serverId: 'slack-server',
          toolCta: 'Connect',
          actionPreview: { description: 'Send messages in Slack.' },
        },
        {
          toolName: 'wiki',
          toolType: 'MCP',
          requestType: 'AUTHENTICATION_SUGGESTION',
          requestId: 'r2',
          serverId: 'wiki-server',
          toolCta: hostile,
        },
        {
          toolName: 'jira',
          toolType: 'MCP',
          requestType: 'AUTHENTICATION_SUGGESTION',
          requestId: 'r3',
          serverId: 'jira-server',
          toolCta: '  ',
        },
      ],
    });
    const { container } = render(
      <StrictMode>
        <AgentErrorMessage error={error} onAuthorizeTool={(tool) => authorized.push(tool)} />
      </StrictMode>,
    );

    const alert = screen.getByRole('alert');
    const connect = within(alert).getByRole('button', { name: 'Connect Slack' });
    expect(connect).toHaveTextContent(/^Connect$/);
    expect(within(alert).getByRole('button', { name: `${hostile} wiki` })).toHaveTextContent(
      hostile,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(within(alert).getByRole('button', { name: 'Authorize jira' })).toBeEnabled();
    await user.click(connect);
    expect(authorized).toEqual([{ name: 'Slack', serverId: 'slack-server', cta: 'Connect' }]);
  });

  it('lists the tools without buttons when nobody handles authorization', () => {
    render(<AgentErrorMessage error={platform422} />);

    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Jira',
      'drive-server',
    ]);
  });
});

describe('given a 429 with Retry-After', () => {
  it('counts down to when a retry may work, the announced text staying the same', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    render(<AgentErrorMessage error={httpError(429, {}, { 'retry-after': '3' })} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Try again in 3 s.');
    expect(alert).toHaveTextContent('You can try again in 3 s.');

    act(() => vi.advanceTimersByTime(1000));
    expect(alert).toHaveTextContent('You can try again in 2 s.');
    act(() => vi.advanceTimersByTime(2000));
    expect(alert).toHaveTextContent('You can try again now.');
    expect(alert.querySelector('.ack-error__countdown')).toHaveAttribute('aria-hidden', 'true');
  });
});

describe('given a network error', () => {
  it('follows the browser going offline and back', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    render(<AgentErrorMessage error={new AgentNetworkError('reset', { url: 'https://x' })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service');

    online.mockReturnValue(false);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });

    expect(screen.getByRole('alert')).toHaveTextContent('You are offline');
    online.mockRestore();
  });
});

describe('given a run that failed after it started', () => {
  it('says it failed partway and that the output is kept', () => {
    const error = httpError(500, { title: 'Internal Server Error', detail: 'A tool broke.' });
    render(<AgentErrorMessage error={error} midRun />);

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The run failed partway');
    expect(alert).toHaveTextContent('output so far is kept');
    expect(alert).toHaveTextContent('The service said: A tool broke.');
  });
});
