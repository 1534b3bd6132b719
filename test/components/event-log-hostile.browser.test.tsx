import { StrictMode } from 'react';
import { describe, expect, inject, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from '@testing-library/react';
import { AgentEventLog, createAgentClient, type RunSnapshot } from 'agent-console-kit';
import { AgentRedirectError, createRunStream } from 'agent-console-kit/core';

// Real Chromium, the transport, and a service (test/support/hostile-echo-server)
// that echoes the token in its events and sends payloads 10,000 and 100,000 levels deep.

const token = 'tok-Secret42-browser';
const actAs = 'someone.secret@example.com';

async function runAgent(agentId: 'echo' | 'deep' | 'redirect'): Promise<RunSnapshot> {
  const client = createAgentClient({
    baseUrl: inject('hostileEchoServerUrl'),
    api: 'platform',
    token,
    headers: { 'X-Glean-ActAs': actAs },
  });
  return createRunStream(client).start({
    agentId,
    messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }],
  });
}

function renderLog(run: RunSnapshot) {
  return render(
    <StrictMode>
      <AgentEventLog events={run.events} status={run.status} startedAt={run.startedAt} />
    </StrictMode>,
  );
}

describe('given a service that echoes the token into its events', () => {
  it('shows every row, collapsed and expanded, with the token redacted', async () => {
    const run = await runAgent('echo');
    expect(run.events).toHaveLength(3);
    const { container } = renderLog(run);

    const failed = page.getByRole('button', { name: /^#3 / });
    await expect.element(failed).toHaveTextContent('Token [redacted] was refused');
    await expect
      .element(page.getByRole('button', { name: /^#1 / }))
      .toHaveTextContent('Your token is [redacted].');
    for (const sequence of [1, 2, 3]) {
      await userEvent.click(page.getByRole('button', { name: new RegExp(`^#${sequence} `) }));
    }

    expect(container.querySelectorAll('pre')).toHaveLength(3);
    expect(container.querySelectorAll('pre')[1]?.textContent).toContain(
      '"authorization": "[redacted]"',
    );
    expect(container.textContent).not.toContain(token);
    expect(container.textContent).not.toContain(actAs);
  });
});

describe('given payloads 10,000 and 100,000 levels deep', () => {
  it('expands each row to the whole payload, indented 32 levels deep and marked so', async () => {
    const run = await runAgent('deep');
    expect(run.status).toBe('done');
    const { container } = renderLog(run);

    for (const sequence of [1, 2]) {
      const toggle = page.getByRole('button', { name: new RegExp(`^#${sequence} `) });
      await userEvent.click(toggle);
      await expect.element(toggle).toHaveAttribute('aria-expanded', 'true');
    }

    const payloads = [...container.querySelectorAll('pre')].map((pre) => pre.textContent);
    expect(payloads).toHaveLength(2);
    expect(JSON.parse(payloads[0] ?? '')).toBeInstanceOf(Array);
    expect(payloads[0]?.replace(/\s/g, '')).toBe(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(payloads[1]?.replace(/\s/g, '')).toBe(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(
      page.getByText('Nested deeper than 32 levels: the deeper levels are on one line.').elements(),
    ).toHaveLength(2);
  });
});

describe('given a redirect, which a browser keeps opaque', () => {
  it('ends the run with a final AgentRedirectError and sends nothing to the target', async () => {
    const run = await runAgent('redirect');

    expect(run.status).toBe('error');
    expect(run.error).toBeInstanceOf(AgentRedirectError);
    expect((run.error as AgentRedirectError).reason).toBe('opaque');
    expect(run.attempt).toBe(1);
    const count = await fetch(`${inject('hostileEchoServerUrl')}/redirected-count`);
    expect(await count.json()).toBe(0);
  });
});
