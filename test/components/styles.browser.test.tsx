import 'agent-console-kit/styles.css';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import { render, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import {
  AgentEventLog,
  AgentTools,
  AgentInbox,
  AgentInputForm,
  AgentRunOutput,
  AgentRunStatus,
  AgentThread,
  AgentThreadList,
  createAgentClient,
  type RunEvent,
  type UseAgentInboxResult,
} from 'agent-console-kit';
import { classifyEvent, groupAgentTools, type AgentTool } from 'agent-console-kit/core';
import { demoAgents, demoToolServers } from 'agent-console-kit/testing';
import { AgentConsole } from 'agent-console-kit/console';
import { withConsoleProviders } from '../support/console.js';

function withProviders(node: ReactNode) {
  const client = createAgentClient({ baseUrl: inject('mockServerUrl'), token: 'styles-token' });
  return withConsoleProviders(client, node);
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
    // The log shown too, so its colors are checked with the rest.
    const { container } = render(withProviders(<AgentConsole agentId="chat-agent" showEventLog />));
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

  it('keeps the chevron of a disabled select (a disabled control changes its colour only)', async () => {
    render(
      <StrictMode>
        <AgentInputForm
          fields={[
            {
              name: 'priority',
              label: 'Priority',
              kind: 'enum',
              options: ['low', 'high'],
              required: false,
              description: undefined,
              defaultValue: undefined,
              schema: {},
            },
          ]}
          onSubmit={() => {}}
          disabled
        />
      </StrictMode>,
    );
    const select = screen.getByRole('combobox', { name: 'Priority' });
    expect(select).toBeDisabled();

    expect(getComputedStyle(select).backgroundImage).toContain('linear-gradient');
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

  it("lets a root's own data-theme win over an ancestor's", async () => {
    render(
      withProviders(
        <div data-theme="dark">
          <AgentRunStatus status="done" data-theme="light" />
          <AgentRunStatus status="done" />
        </div>,
      ),
    );

    const [forcedLight, inherited] = screen.getAllByRole('status');
    expect(getComputedStyle(forcedLight as HTMLElement).colorScheme).toBe('light');
    expect(getComputedStyle(forcedLight as HTMLElement).color).toBe('rgb(91, 91, 102)');
    expect(getComputedStyle(inherited as HTMLElement).colorScheme).toBe('dark');
    expect(getComputedStyle(inherited as HTMLElement).color).toBe('rgb(163, 170, 184)');
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
    // The log shown too, so its colors are checked with the rest.
    const { container } = render(withProviders(<AgentConsole agentId="chat-agent" showEventLog />));
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

describe('given an agent’s tools beside Authorize', () => {
  it('keeps each badge on one line: the facts go under the name rather than break a pill', async () => {
    const tools = demoAgents.find((agent) => agent.agent.agent_id === 'tool-auth-agent')?.schemas
      ?.tools as AgentTool[];
    const groups = groupAgentTools(tools, {
      toolServerId: (tool) => demoToolServers[tool.tool_id],
    });
    render(
      <StrictMode>
        <div style={{ width: 1280 }}>
          <AgentTools status="ready" groups={groups} onAuthorize={() => undefined} />
        </div>
      </StrictMode>,
    );
    const badges = await screen.findAllByText('May ask for your authorization');
    const lineHeight = parseFloat(getComputedStyle(badges[0] as HTMLElement).lineHeight);
    for (const badge of badges) {
      expect(badge.getBoundingClientRect().height).toBeLessThan(lineHeight * 1.5 + 4);
    }
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
          <AgentConsole agentId="xss-agent" showEventLog />
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

const startedAt = Date.UTC(2026, 0, 1, 12, 0, 0);

function messageEvent(
  sequence: number,
  { text = `token ${sequence}`, id = String(sequence) }: { text?: string; id?: string } = {},
): RunEvent {
  const payload = { messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text }] }] };
  return classifyEvent(
    { id, event: 'message', data: JSON.stringify(payload) },
    { sequence, receivedAt: startedAt + sequence * 10, attempt: 1, restart: false },
  );
}

function box(selector: string, index = 0): DOMRect {
  const element = document.querySelectorAll<HTMLElement>(selector)[index];
  if (!element) throw new Error(`no ${selector}`);
  return element.getBoundingClientRect();
}

describe('given a log row', () => {
  it('lines the name, id, sequence and time columns up from row to row', async () => {
    render(
      <StrictMode>
        <div style={{ width: 720 }}>
          <AgentEventLog
            startedAt={startedAt}
            events={[
              messageEvent(1, { text: 'a' }),
              messageEvent(2, { text: 'a much longer piece of text', id: '123456' }),
            ]}
          />
        </div>
      </StrictMode>,
    );
    await expect.element(page.getByRole('button', { name: /^#2 / })).toBeVisible();

    for (const part of ['name', 'id', 'sequence', 'time']) {
      const first = box(`.ack-event-log__${part}`, 0);
      const second = box(`.ack-event-log__${part}`, 1);
      expect(first.left, part).toBe(second.left);
      expect(first.right, part).toBe(second.right);
    }
    // The text comes first, on the same line as the columns.
    expect(box('.ack-event-log__text').left).toBeLessThan(box('.ack-event-log__name').left);
    expect(
      Math.abs(box('.ack-event-log__text').top - box('.ack-event-log__name').top),
    ).toBeLessThan(6);
  });

  it('keeps the text in a narrow container, the columns wrapping under it', async () => {
    const text = 'The answer begins with a sentence long enough to need the room';
    render(
      <StrictMode>
        <div style={{ width: 300 }}>
          <AgentEventLog events={[messageEvent(1, { text })]} startedAt={startedAt} />
        </div>
      </StrictMode>,
    );
    await expect.element(page.getByRole('button', { name: /^#1 / })).toBeVisible();

    expect(document.querySelector('.ack-event-log__text')?.textContent).toBe(text);
    // The text has the row's width (less the chevron), not a sliver beside the columns.
    expect(box('.ack-event-log__text').width).toBeGreaterThan(220);
    expect(box('.ack-event-log__name').top).toBeGreaterThan(box('.ack-event-log__text').top);
  });

  it('is one short line when there are no events', async () => {
    render(
      <StrictMode>
        <AgentEventLog events={[]} />
      </StrictMode>,
    );
    const log = page.getByRole('log', { name: 'Run events' });
    await expect.element(log).toHaveTextContent('No events yet.');

    expect(log.element().getBoundingClientRect().height).toBeLessThan(60);
  });
});

describe('given a long output', () => {
  const words = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ');

  it('scrolls within a bounded height and shows the newest text', async () => {
    const { rerender } = render(
      <StrictMode>
        <AgentRunOutput text={words.slice(0, 2000)} status="streaming" />
      </StrictMode>,
    );
    rerender(
      <StrictMode>
        <AgentRunOutput text={words} status="streaming" />
      </StrictMode>,
    );
    const output = page.getByRole('region', { name: 'Agent output' }).element();

    // 24rem at the default 16 px root.
    expect(output.getBoundingClientRect().height).toBeLessThanOrEqual(24 * 16 + 1);
    expect(output.scrollHeight).toBeGreaterThan(output.clientHeight * 2);
    await waitFor(() =>
      expect(output.scrollTop + output.clientHeight).toBeGreaterThanOrEqual(
        output.scrollHeight - 2,
      ),
    );
  });

  it('stops following when the reader scrolls up', async () => {
    const { rerender } = render(
      <StrictMode>
        <AgentRunOutput text={words.slice(0, 20000)} status="streaming" />
      </StrictMode>,
    );
    const output = page.getByRole('region', { name: 'Agent output' }).element();
    output.scrollTop = 0;
    output.dispatchEvent(new Event('scroll'));

    rerender(
      <StrictMode>
        <AgentRunOutput text={words} status="streaming" />
      </StrictMode>,
    );

    expect(output.scrollTop).toBe(0);
  });
});

describe('given the action bar of the console', () => {
  // A chat agent (issue 8): the thread composer's bar; Retry is on the stopped answer.
  it('shows only Send before any turn, Stop in its place during one, then Send and Clear', async () => {
    render(withProviders(<AgentConsole agentId="slow-agent" />));
    const message = page.getByRole('textbox', { name: 'Message' });
    await userEvent.fill(message, 'Think');
    const send = page.getByRole('button', { name: 'Send' });
    const before = send.element().getBoundingClientRect();
    const bar = send.element().parentElement as HTMLElement;
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();

    await userEvent.keyboard('{Enter}');

    const stop = page.getByRole('button', { name: 'Stop' });
    await expect.element(stop).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    // Clear would throw the streaming answer away: not offered until the turn has settled.
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    // Same bar, same slot: the first button shown in the bar, at the bar's same end.
    expect(stop.element().parentElement).toBe(bar);
    const shownButtons = [...bar.querySelectorAll('button')].filter(
      (button) => getComputedStyle(button).display !== 'none',
    );
    expect(shownButtons[0]).toBe(stop.element());
    expect(stop.element().getBoundingClientRect().right).toBe(before.right);
    // The text area keeps focus while the answer streams: the next question can be typed.
    await expect.element(message).toHaveFocus();

    await userEvent.keyboard('{Escape}');

    await expect.element(page.getByRole('button', { name: 'Send' })).toBeVisible();
    const clear = page.getByRole('button', { name: 'Clear' });
    await expect.element(clear).toBeVisible();
    expect(clear.element().parentElement).toBe(bar);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    const answers = document.querySelectorAll<HTMLElement>('[data-role="agent"]');
    const stopped = answers[answers.length - 1];
    expect(stopped).toHaveAttribute('data-status', 'stopped');
    expect(within(stopped as HTMLElement).getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect.element(message).toHaveFocus();
    expect(document.querySelectorAll('button:disabled:focus, [aria-disabled="true"]')).toHaveLength(
      0,
    );
  });
});

describe('given an aria-disabled button that has keyboard focus', () => {
  it('is not faded, so its focus ring keeps its contrast; unfocused it is', async () => {
    render(
      <StrictMode>
        <AgentThread
          messages={[{ id: 'q', role: 'USER', text: 'Hi', status: 'done', createdAt: 1 }]}
          versions={new Map([['q', { index: 0, count: 2, ids: ['q', 'q2'] }]])}
          onShowVersion={() => undefined}
        />
      </StrictMode>,
    );
    const previous = screen.getByRole('button', { name: 'Previous version' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    expect(getComputedStyle(previous).opacity).toBe('0.5');
    for (let presses = 0; document.activeElement !== previous && presses < 10; presses++) {
      await userEvent.keyboard('{Tab}');
    }
    expect(previous).toHaveFocus();
    expect(getComputedStyle(previous).opacity).toBe('1');
  });
});

describe('given an inbox row (a title and, under it, the agent and time)', () => {
  it('keeps both lines clear of its border', async () => {
    const run = { agentId: 'a', runId: 'r1', state: 'waiting', group: 'waiting' as const };
    const inbox: UseAgentInboxResult = {
      status: 'ready',
      runs: [{ ...run, title: 'Open a ticket', createdAt: 0, updatedAt: 0 }],
      error: undefined,
      refresh: async () => undefined,
      list: { subscribe: () => () => undefined, getSnapshot: () => inbox, refresh: async () => {} },
    };
    render(withProviders(<AgentInbox inbox={inbox} />));
    const row = screen.getByRole('button', { name: /Open a ticket/ }).getBoundingClientRect();
    const title = (screen.getByText('Open a ticket') as HTMLElement).getBoundingClientRect();
    const meta = (
      document.querySelector('.ack-inbox__meta') as HTMLElement
    ).getBoundingClientRect();
    expect(title.top - row.top).toBeGreaterThanOrEqual(8);
    expect(row.bottom - meta.bottom).toBeGreaterThanOrEqual(8);
  });
});

describe('given a thread list as narrow as the console gives it', () => {
  it('gives each title its own whole line, the count and time one line under it', async () => {
    const thread = (id: string, title: string) => ({
      id,
      agentId: 'chat',
      title,
      createdAt: Date.UTC(2026, 10, 23),
      updatedAt: Date.UTC(2026, 10, 23),
      revision: 1,
      messageCount: 12,
    });
    render(
      <StrictMode>
        <div style={{ width: 256 }}>
          <AgentThreadList
            threads={[thread('a', 'VPN access'), thread('b', 'Laptop order')]}
            selectedThreadId="a"
            onSelect={() => undefined}
            onRename={() => undefined}
            onDelete={() => undefined}
          />
        </div>
      </StrictMode>,
    );
    await expect
      .element(page.getByRole('button', { name: 'VPN access', exact: true }))
      .toBeVisible();

    for (const title of document.querySelectorAll<HTMLElement>('.ack-thread-list__title')) {
      expect(title.scrollWidth).toBeLessThanOrEqual(title.clientWidth);
    }
    const item = box('.ack-thread-list__item');
    expect(box('.ack-thread-list__select').width).toBeGreaterThan(item.width - 16);
    const meta = box('.ack-thread-list__meta');
    expect(meta.height).toBeLessThan(24);
  });
});

describe('given the wide console with its thread list, an approval and the Stop confirm', () => {
  // The console's input area as AgentConsole renders it: the list, then the thread, the
  // approval, the composer and the confirm, which sit beside the list in this order.
  it('keeps the confirm right under the composer however tall the list is', async () => {
    render(
      <StrictMode>
        <section className="ack-root ack-console" style={{ width: 1000 }}>
          <div className="ack-console__input" data-threads="">
            <nav className="ack-console__threads" aria-label="Threads" style={{ height: 500 }} />
            <div className="ack-console__thread" style={{ height: 60 }} />
            <div className="ack-console__approval" style={{ height: 60 }} />
            <form aria-label="Composer" style={{ height: 60 }} />
            <div className="ack-cancel-confirm" role="alertdialog" aria-label="Cancel this run?" />
          </div>
        </section>
      </StrictMode>,
    );
    await expect.element(page.getByRole('alertdialog')).toBeVisible();

    const composer = box('form');
    const confirm = box('.ack-cancel-confirm');
    expect(confirm.left).toBe(composer.left);
    expect(confirm.top - composer.bottom).toBeLessThanOrEqual(16);
    // No empty row adds space under the last part when the list is short.
    const threads = document.querySelector<HTMLElement>('.ack-console__threads') as HTMLElement;
    threads.style.height = '40px';
    expect(box('.ack-console__input').bottom - box('.ack-cancel-confirm').bottom).toBeLessThan(1);
  });
});
