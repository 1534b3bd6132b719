import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { AgentEventLog, createAgentClient, type RunEvent } from 'agent-console-kit';
import { renderAgentConsole } from '../support/console.js';

// In real Chromium an <img onerror> that reached the DOM as HTML would run: these tests would see it.

const img = '<img src=x onerror="window.__xssFired = true">';
const script = '<script>window.__xssFired = true</script>';
const link = 'javascript:window.__xssFired=true';

declare global {
  interface Window {
    __xssFired?: boolean;
    __probeFired?: boolean;
  }
}

beforeEach(() => {
  delete window.__xssFired;
  vi.spyOn(window, 'alert').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function expectNothingExecuted(container: HTMLElement) {
  // Give an image error or a script a chance to run before looking.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(container.querySelector('img, script, iframe, a, object, embed')).toBeNull();
  // The only svg allowed: the library's own icons (class ack-icon, path/rect/circle, no handlers).
  expect(
    [...container.querySelectorAll('svg')].filter(
      (svg) =>
        !svg.classList.contains('ack-icon') ||
        [svg, ...svg.querySelectorAll('*')].some(
          (part) =>
            !['svg', 'path', 'rect', 'circle'].includes(part.tagName.toLowerCase()) ||
            [...part.attributes].some((attribute) => attribute.name.startsWith('on')),
        ),
    ),
  ).toEqual([]);
  expect(window.__xssFired).toBeUndefined();
  expect(window.alert).not.toHaveBeenCalled();
}

describe('given this browser', () => {
  it('has no axe violations in an empty log', async () => {
    const { container } = render(
      <StrictMode>
        <AgentEventLog events={[]} />
      </StrictMode>,
    );
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('runs an onerror handler that reaches the DOM as HTML (the control case)', async () => {
    const probe = document.createElement('div');
    probe.innerHTML = '<img src=x onerror="window.__probeFired = true">';

    await waitFor(() => expect(window.__probeFired).toBe(true));
  });
});

describe('given the XSS agent of the mock service, in Chromium', () => {
  function renderConsole() {
    const client = createAgentClient({ baseUrl: inject('mockServerUrl'), token: 'browser-token' });
    // With the log: its rows must show hostile payloads as text too.
    return renderAgentConsole(client, { agentId: 'xss-agent', showEventLog: true });
  }

  it('has no axe violations after a run', async () => {
    const { container } = renderConsole();
    await userEvent.fill(page.getByRole('textbox', { name: 'Message' }), img);
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByText(/^Done in/)).toBeVisible();

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('shows its name, description, output and events as text and runs nothing', async () => {
    const { container } = renderConsole();

    await expect
      .element(page.getByRole('heading', { name: 'Hostile <img src=x onerror=alert(1)>' }))
      .toBeVisible();
    await userEvent.fill(page.getByRole('textbox', { name: 'Message' }), img);
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByText(/^Done in/)).toBeVisible();

    // The answer is in the thread (issue 8).
    const output =
      document.querySelector('.ack-thread__message[data-role="agent"] .ack-thread__text')
        ?.textContent ?? '';
    expect(output).toBe(
      'Rendered as text, never as HTML: <img src=x onerror=alert(1)> <script>alert(1)</script> [click me](javascript:alert(1)) javascript:alert(1) done.',
    );
    const rows = container.querySelectorAll('.ack-event-log__row');
    expect(rows.length).toBeGreaterThan(0);
    await expectNothingExecuted(container);
  });
});

describe('given hostile events in the log, in Chromium', () => {
  const events: RunEvent[] = [img, script, link].map((text, index) => ({
    sequence: index + 1,
    id: text,
    lastEventId: text,
    event: text,
    data: JSON.stringify({ html: text }),
    payload: { html: text },
    kind: 'unknown',
    text: '',
    receivedAt: 1_000 + index,
    attempt: 1,
    restart: false,
  }));

  it('has no axe violations', async () => {
    const { container } = render(
      <StrictMode>
        <AgentEventLog events={events} startedAt={1_000} />
      </StrictMode>,
    );
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('shows names, ids and expanded payloads as text and runs nothing', async () => {
    const { container } = render(
      <StrictMode>
        <AgentEventLog events={events} startedAt={1_000} />
      </StrictMode>,
    );

    for (const sequence of [1, 2, 3]) {
      await userEvent.click(page.getByRole('button', { name: new RegExp(`^#${sequence} `) }));
    }

    const payloads = [...container.querySelectorAll('pre')].map((pre) => pre.textContent);
    expect(payloads).toEqual(
      [img, script, link].map((text) => JSON.stringify({ html: text }, null, 2)),
    );
    await expectNothingExecuted(container);
  });
});
