import 'agent-console-kit/styles.css';
import { describe, expect, inject, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { within } from '@testing-library/react';
import axe from 'axe-core';
import { createAgentClient } from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import type { AgentErrorTool } from '../../src/core/wire/tool-authorization.js';
import { renderAgentConsole } from '../support/console.js';

describe.each<AgentApi>(['rest-v1', 'platform'])(
  'given an agent whose tools need authorizing (422 on %s), in Chromium',
  (api) => {
    it('authorizes a tool through the service and offers to run again', async () => {
      const opened: { url: string; tool: AgentErrorTool }[] = [];
      const runPosts: string[] = [];
      const client = createAgentClient({
        baseUrl: inject('mockServerUrl'),
        api,
        token: 't',
        fetch: (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          if (init?.method === 'POST' && /\/runs/.test(url)) runPosts.push(url);
          return fetch(input, init);
        },
      });
      const { container } = renderAgentConsole(client, {
        agentId: 'tool-auth-agent',
        authorizationReturnUrl: 'https://app.example.com/agents?back=1',
        toolAuthorization: (url, tool) => opened.push({ url, tool }),
      });
      await userEvent.fill(page.getByRole('textbox', { name: 'Message' }), 'Go');
      await userEvent.keyboard('{Enter}');

      const alert = page.getByRole('alert');
      await expect.element(alert).toHaveTextContent('Tools need authorizing');
      expect((await axe.run(container)).violations).toEqual([]);
      await userEvent.click(page.getByRole('button', { name: 'Authorize Jira' }));

      await expect.poll(() => opened.length).toBe(1);
      const consent = new URL(opened[0]?.url ?? '');
      expect(consent.searchParams.get('server')).toBe('jira-server');
      expect(consent.searchParams.get('return_to')).toBe('https://app.example.com/agents?back=1');
      // The legacy 422 entry names the button's verb (toolCta); the platform's entry has none.
      expect(opened[0]?.tool).toEqual(
        api === 'rest-v1'
          ? { name: 'Jira', serverId: 'jira-server', cta: 'Authorize' }
          : { name: 'Jira', serverId: 'jira-server' },
      );
      await expect.element(alert).toHaveTextContent('Sign-in page opened.');

      expect(runPosts).toHaveLength(1);

      // Back from the sign-in page: run again from the alert. The mock asks again; the new
      // answer starts from nothing (no "Sign-in page opened." left from the first one).
      await userEvent.click(
        within(alert.element() as HTMLElement).getByRole('button', { name: 'Run again' }),
      );
      await expect.poll(() => runPosts.length).toBe(2);
      await expect.element(page.getByRole('alert')).toHaveTextContent('Tools need authorizing');
      await expect.element(page.getByRole('button', { name: 'Authorize Jira' })).toBeVisible();
      expect(page.getByRole('alert').element()).not.toHaveTextContent('Sign-in page opened.');
    });
  },
);
