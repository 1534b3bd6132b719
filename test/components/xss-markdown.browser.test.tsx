import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from '@testing-library/react';
import { createAgentClient } from 'agent-console-kit';
import { AgentMarkdown, renderMarkdown } from 'agent-console-kit/markdown';
import { hostileMarkdown } from '../support/markdown-corpus.js';
import { renderAgentConsole } from '../support/console.js';

// Real Chromium runs an <img onerror>, an <svg onload> or a <details ontoggle> that reaches the
// DOM as HTML: these tests would see __xssFired.

declare global {
  interface Window {
    __xssFired?: boolean;
  }
}

beforeEach(() => {
  delete window.__xssFired;
  vi.spyOn(window, 'alert').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function expectNothingRan(container: HTMLElement) {
  // Give an image error, a toggle or a load handler a chance to run before looking.
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(
    container.querySelector(
      'script, img, iframe, object, embed, style, details, svg:not(.ack-icon)',
    ),
  ).toBeNull();
  for (const link of container.querySelectorAll('a')) {
    expect(['http:', 'https:', 'mailto:']).toContain(new URL(link.href).protocol);
  }
  expect(window.__xssFired).toBeUndefined();
  expect(window.alert).not.toHaveBeenCalled();
}

describe('given the hostile Markdown corpus in Chromium', () => {
  it('renders every entry with nothing run and no script link', async () => {
    const { container } = render(
      <StrictMode>
        <AgentMarkdown text={hostileMarkdown.join('\n\n')} />
      </StrictMode>,
    );

    await expectNothingRan(container);
  });
});

describe('given the XSS agent of the mock service, rendered as Markdown in the console', () => {
  it('runs, shows the output, and nothing in it runs', async () => {
    const client = createAgentClient({ baseUrl: inject('mockServerUrl'), token: 'markdown-token' });
    const { container } = renderAgentConsole(client, {
      agentId: 'xss-agent',
      renderText: renderMarkdown,
    });
    await userEvent.fill(page.getByRole('textbox', { name: 'Message' }), 'Hello');
    await userEvent.keyboard('{Enter}');
    await expect.element(page.getByText(/^Done in/)).toBeVisible();

    // A chat agent (issue 8): the answer is rendered as Markdown in the thread.
    expect(container.querySelector('.ack-thread__text .ack-markdown')).not.toBeNull();
    await expectNothingRan(container);
  });
});
