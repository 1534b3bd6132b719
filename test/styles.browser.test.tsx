import 'agent-console-kit/styles.css';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import {
  AgentClientProvider,
  AgentConsole,
  AgentRunStatus,
  createAgentClient,
} from 'agent-console-kit';

function withProviders(node: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createAgentClient({ baseUrl: inject('mockServerUrl'), token: 'styles-token' });
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>{node}</AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}

async function runChat() {
  await userEvent.fill(page.getByRole('textbox', { name: 'Message' }), 'Hello');
  await userEvent.keyboard('{Enter}');
  await expect.element(page.getByText(/^Done in/)).toBeVisible();
}

async function emulate(features: { name: string; value: string }[]) {
  await cdp().send('Emulation.setEmulatedMedia', { features });
}

afterEach(async () => {
  await emulate([]);
  document.documentElement.style.fontSize = '';
});

function consoleRoot() {
  return document.querySelector<HTMLElement>('.ack-console') as HTMLElement;
}

describe('given the default stylesheet in the light theme', () => {
  it('has no axe violations, color contrast included, after a run', async () => {
    const { container } = render(withProviders(<AgentConsole agentId="chat-agent" />));
    await runChat();

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('has no axe violations on the form with its messages showing', async () => {
    const { container } = render(withProviders(<AgentConsole agentId="form-agent" />));
    await userEvent.click(page.getByRole('button', { name: 'Run' }));
    await expect.element(page.getByText('Title is required.')).toBeVisible();

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('paints the console light', async () => {
    render(withProviders(<AgentConsole agentId="chat-agent" />));
    await expect.element(page.getByRole('textbox', { name: 'Message' })).toBeVisible();

    expect(getComputedStyle(consoleRoot()).backgroundColor).toBe('rgb(255, 255, 255)');
    expect(getComputedStyle(consoleRoot()).colorScheme).toBe('light');
  });
});

describe('given a dark theme', () => {
  it('has no axe violations, color contrast included, when forced on the console', async () => {
    const { container } = render(withProviders(<AgentConsole agentId="form-agent" theme="dark" />));
    await userEvent.click(page.getByRole('button', { name: 'Run' }));
    await expect.element(page.getByText('Title is required.')).toBeVisible();
    expect(getComputedStyle(consoleRoot()).backgroundColor).toBe('rgb(21, 23, 28)');

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('follows data-theme="dark" on an ancestor', async () => {
    render(
      withProviders(
        <div data-theme="dark">
          <AgentConsole agentId="chat-agent" />
        </div>,
      ),
    );
    await expect.element(page.getByRole('textbox', { name: 'Message' })).toBeVisible();

    expect(getComputedStyle(consoleRoot()).backgroundColor).toBe('rgb(21, 23, 28)');
    expect(getComputedStyle(screen.getByRole('textbox', { name: 'Message' })).color).toBe(
      'rgb(230, 232, 238)',
    );
  });

  it('follows prefers-color-scheme, unless light is forced', async () => {
    await emulate([{ name: 'prefers-color-scheme', value: 'dark' }]);
    render(
      withProviders(
        <>
          <AgentRunStatus status="done" />
          <AgentRunStatus status="done" data-theme="light" />
        </>,
      ),
    );

    const [system, forcedLight] = screen.getAllByRole('status');
    expect(getComputedStyle(system as HTMLElement).colorScheme).toBe('dark');
    expect(getComputedStyle(forcedLight as HTMLElement).colorScheme).toBe('light');
  });

  it('has no axe violations, color contrast included, by system preference after a run', async () => {
    await emulate([{ name: 'prefers-color-scheme', value: 'dark' }]);
    const { container } = render(withProviders(<AgentConsole agentId="chat-agent" />));
    await runChat();

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });
});

describe('given custom properties set by the app', () => {
  it('has no axe violations', async () => {
    const { container } = render(withProviders(<AgentConsole agentId="form-agent" />));
    await expect.element(page.getByRole('button', { name: 'Run' })).toBeVisible();
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('reaches the nested components', async () => {
    const style = document.createElement('style');
    style.textContent = '.ack-console { --ack-color-accent: rgb(120, 0, 0); }';
    document.head.append(style);
    render(withProviders(<AgentConsole agentId="form-agent" />));

    const run = page.getByRole('button', { name: 'Run' });
    await expect.element(run).toBeVisible();
    expect(getComputedStyle(run.element()).backgroundColor).toBe('rgb(120, 0, 0)');
    style.remove();
  });
});

describe('given a narrow container at 200 % text size', () => {
  it('has no axe violations', async () => {
    document.documentElement.style.fontSize = '200%';
    const { container } = render(
      withProviders(
        <div style={{ width: 320 }}>
          <AgentConsole agentId="form-agent" />
        </div>,
      ),
    );
    await expect.element(page.getByRole('button', { name: 'Run' })).toBeVisible();
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('wraps instead of overflowing sideways', async () => {
    document.documentElement.style.fontSize = '200%';
    render(
      withProviders(
        <div style={{ width: 320 }} data-testid="narrow">
          <AgentConsole agentId="xss-agent" />
        </div>,
      ),
    );
    await runChat();

    const narrow = screen.getByTestId('narrow');
    expect(narrow.scrollWidth).toBeLessThanOrEqual(320);
    for (const part of narrow.querySelectorAll<HTMLElement>(
      '.ack-console, .ack-console__controls, .ack-event-log__toolbar, .ack-composer, .ack-run-output, .ack-agent-details',
    )) {
      expect(part.scrollWidth, part.className).toBeLessThanOrEqual(part.clientWidth + 1);
    }
  });
});

describe('given a reader who prefers reduced motion', () => {
  it('has no axe violations', async () => {
    await emulate([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
    const { container } = render(
      <StrictMode>
        <AgentRunStatus status="streaming" />
      </StrictMode>,
    );
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('stops the status pulse', async () => {
    render(
      <StrictMode>
        <AgentRunStatus status="streaming" />
      </StrictMode>,
    );
    const status = screen.getByRole('status');
    expect(getComputedStyle(status, '::before').animationName).toBe('ack-pulse');

    await emulate([{ name: 'prefers-reduced-motion', value: 'reduce' }]);

    expect(getComputedStyle(status, '::before').animationName).toBe('none');
  });
});
