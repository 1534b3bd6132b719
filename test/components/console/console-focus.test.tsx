/**
 * Where the console moves focus as a form run starts and ends (src/components/console-focus.ts):
 * a view concern, decided in the view from `active`, not by the React-free controller.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createAgentClient } from 'agent-console-kit';
import { demoAgents } from 'agent-console-kit/testing';
import { setUpMockServer } from '../../support/mock-server.js';
import { renderAgentConsole } from '../../support/console.js';

const server = setUpMockServer({ agents: demoAgents });

afterEach(async () => {
  cleanup();
  await server.waitFor(() => server.openStreams === 0);
});

const badRequest = {
  status: 400,
  endpoint: 'run' as const,
  times: 1,
  contentType: 'application/problem+json',
  body: { type: 'about:blank', title: 'Invalid request', status: 400, code: 'invalid_request' },
};

function renderConsole() {
  const client = createAgentClient({ baseUrl: server.url, token: 'secret-token-1234' });
  return renderAgentConsole(client, { agentId: 'form-agent' });
}

describe('given a form run refused once (400)', () => {
  it('focus goes back to Run after the refused run; Retry, which goes away, moves focus nowhere', async () => {
    server.inject('form-agent', badRequest);
    const user = userEvent.setup();
    renderConsole();
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'New office');
    fireEvent.change(screen.getByLabelText(/^Due date/), { target: { value: '2026-05-01' } });
    const run = screen.getByRole('button', { name: 'Run' });

    await user.click(run);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    expect(run).toHaveFocus();

    await user.click(retry);
    await waitFor(() => expect(server.postCount('form-agent')).toBe(2));
    await waitFor(() => expect(run).toBeEnabled());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull());
    // The retried run was not started from the form: focus goes neither to Stop nor to Run.
    expect(run).not.toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });
});
