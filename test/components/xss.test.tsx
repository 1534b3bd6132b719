import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import {
  AgentClientProvider,
  AgentEventLog,
  AgentInputForm,
  createAgentClient,
  formFieldsFromSchema,
  type RunEvent,
} from 'agent-console-kit';
import type { AgentApi } from 'agent-console-kit/core';
import { AgentConsole } from 'agent-console-kit/console';
import { demoAgents, textEvents, type MockAgentDefinition } from 'agent-console-kit/testing';
import { setUpMockServer } from '../support/mock-server.js';
import { layOutEventLogs } from '../support/event-log.js';

const img = '<img src=x onerror="window.__xssFired = true">';
const script = '<script>window.__xssFired = true</script>';
const link = 'javascript:window.__xssFired=true';
const hostileText = `Output ${img} ${script} [click](${link}) ${link} end.`;
const dangerousTags = ['IMG', 'SCRIPT', 'IFRAME', 'A', 'OBJECT', 'EMBED', 'SVG', 'svg'];

const hostileForm: MockAgentDefinition = {
  agent: {
    agent_id: 'hostile-form',
    name: `Form ${img}`,
    description: `${script} ${link}`,
    capabilities: { 'ap.io.messages': false, [img]: script },
  },
  schemas: {
    input_schema: {
      type: 'object',
      properties: {
        [`topic${img}`]: { type: 'string', title: `Topic ${img}`, description: `Help ${script}` },
        choice: { enum: [img, script, link], title: link, default: link },
      },
    },
    output_schema: {},
  },
  run: {
    events: [
      ...textEvents(hostileText),
      { event: `tool${script}`, data: { html: img, href: link } },
      { event: 'message', data: `${img} is not JSON` },
    ],
  },
};

const hostileChat: MockAgentDefinition = {
  agent: {
    agent_id: 'hostile-chat',
    name: `Chat ${script}`,
    description: img,
    capabilities: { 'ap.io.messages': true },
  },
  run: { events: textEvents(hostileText) },
};

const server = setUpMockServer({ agents: [...demoAgents, hostileForm, hostileChat] });
let addedTags: string[] = [];
let observer: MutationObserver;

declare global {
  interface Window {
    __xssFired?: boolean;
  }
}

// jsdom has no layout: the event log's scroller and rows get a size so its virtual rows render.
layOutEventLogs(800);

beforeEach(() => {
  delete window.__xssFired;
  addedTags = [];
  // Records every element ever inserted, also ones removed again before an assertion could see them.
  observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof Element) {
          addedTags.push(
            ...[node, ...node.querySelectorAll('*')]
              .filter((element) => !isOwnIcon(element))
              .map((element) => element.tagName),
          );
        }
      }
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  vi.spyOn(window, 'alert').mockImplementation(() => {});
});

afterEach(async () => {
  observer.disconnect();
  vi.restoreAllMocks();
  await server.waitFor(() => server.openStreams === 0);
});

/**
 * The library's own icons: an `svg.ack-icon` hidden from assistive technology, drawn with path,
 * rect and circle only, with no event-handler attribute anywhere. Anything else is suspect.
 */
function isOwnIcon(element: Element): boolean {
  const icon = element.closest('svg');
  if (icon === null) return false;
  return (
    icon.classList.contains('ack-icon') &&
    icon.getAttribute('aria-hidden') === 'true' &&
    [icon, ...icon.querySelectorAll('*')].every(
      (part) =>
        ['svg', 'path', 'rect', 'circle'].includes(part.tagName.toLowerCase()) &&
        ![...part.attributes].some((attribute) => attribute.name.startsWith('on')),
    )
  );
}

function expectNothingExecuted(container: HTMLElement) {
  expect(container.querySelector('img, script, iframe, a, object, embed')).toBeNull();
  expect([...container.querySelectorAll('svg')].filter((svg) => !isOwnIcon(svg))).toEqual([]);
  expect(addedTags.filter((tag) => dangerousTags.includes(tag))).toEqual([]);
  expect(window.__xssFired).toBeUndefined();
  expect(window.alert).not.toHaveBeenCalled();
}

function renderConsole(agentId: string, api: AgentApi = 'rest-v1') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createAgentClient({ baseUrl: server.url, api, token: 'token-for-xss-tests' });
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>
          {/* With the log: its rows must show hostile payloads as text too. */}
          <AgentConsole agentId={agentId} showEventLog />
        </AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

async function waitForDone() {
  await waitFor(
    () =>
      expect(document.querySelector('.ack-run-status')?.textContent ?? '').toMatch(
        /^(Done|The run failed)/,
      ),
    { timeout: 5_000 },
  );
}

describe('given a hostile form agent', () => {
  it('has no axe violations', async () => {
    const { container } = renderConsole('hostile-form');
    await screen.findByRole('heading', { name: `Form ${img}` });

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('shows its name, description, capabilities and form as text', async () => {
    const { container } = renderConsole('hostile-form');

    expect(await screen.findByRole('heading', { name: `Form ${img}` })).toBeVisible();
    expect(screen.getByText(`${script} ${link}`)).toBeVisible();
    expect(screen.getByText(`${img}: ${script}`)).toBeVisible();
    // The form comes with the schemas, which may commit after the agent's heading.
    const topic = await screen.findByRole('textbox', { name: `Topic ${img}` });
    expect(topic).toHaveAccessibleDescription(`Help ${script}`);
    const choice = screen.getByRole('combobox', { name: link });
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['(none)', img, script, link]);
    expectNothingExecuted(container);
  });

  it('shows the output and every event payload as text', async () => {
    const user = userEvent.setup();
    const { container } = renderConsole('hostile-form', 'platform');
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    await waitForDone();

    expect(screen.getByRole('region', { name: 'Agent output' }).textContent).toBe(hostileText);
    const toolEvent = await screen.findByRole('button', { name: new RegExp(`tool<script>`) });
    expect(toolEvent.textContent).toContain(`tool${script}`);
    expect(toolEvent.textContent).toContain(JSON.stringify({ html: img, href: link }));
    await user.click(toolEvent);
    expect(container.querySelector('pre')?.textContent).toBe(
      JSON.stringify({ html: img, href: link }, null, 2),
    );
    const notJson = screen.getByRole('button', { name: /not JSON/ });
    expect(notJson.textContent).toContain(`${img} is not JSON`);
    expect(server.runRequests('hostile-form')[0]?.body).toMatchObject({
      input: { [`topic${img}`]: '', choice: link },
    });
    expectNothingExecuted(container);
  });
});

describe('given the demo XSS agent and a hostile chat agent', () => {
  it('has no axe violations', async () => {
    const { container } = renderConsole('xss-agent');
    await screen.findByRole('textbox', { name: 'Message' });

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it.each(['xss-agent', 'hostile-chat'])(
    '%s: runs and shows everything as text',
    async (agentId) => {
      const user = userEvent.setup();
      const { container } = renderConsole(agentId);

      await user.type(await screen.findByRole('textbox', { name: 'Message' }), `${img}{Enter}`);
      await waitForDone();

      // A chat agent's answer is in the thread (issue 8); the question stays visible, as text.
      const thread = screen.getByRole('log', { name: 'Messages' });
      expect(within(thread).getByRole('listitem', { name: 'You said' }).textContent).toContain(img);
      const output =
        within(thread).getAllByRole('listitem').at(-1)?.querySelector('.ack-thread__text')
          ?.textContent ?? '';
      expect(output).toContain('<img src=x onerror=');
      expect(output).toContain('<script>');
      expect(output).toContain('javascript:');
      expect(server.runRequests(agentId)[0]?.body).toMatchObject({
        messages: [{ role: 'USER', content: [{ type: 'text', text: img }] }],
      });
      expectNothingExecuted(container);
    },
  );
});

describe('given hostile words in an error from the service', () => {
  it('has no axe violations', async () => {
    server.inject('chat-agent', {
      status: 403,
      endpoint: 'run',
      body: { title: img, detail: `${script} ${link}`, code: 'insufficient_permissions' },
      contentType: 'application/problem+json',
    });
    const { container } = renderConsole('chat-agent', 'platform');
    await userEvent
      .setup()
      .type(await screen.findByRole('textbox', { name: 'Message' }), 'x{Enter}');
    await screen.findByRole('alert');

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('shows the service’s words and a hostile agent id as text', async () => {
    server.inject('chat-agent', {
      status: 403,
      endpoint: 'run',
      body: { title: img, detail: `${script} ${link}`, code: 'insufficient_permissions' },
      contentType: 'application/problem+json',
    });
    const { container, unmount } = renderConsole('chat-agent', 'platform');
    await userEvent
      .setup()
      .type(await screen.findByRole('textbox', { name: 'Message' }), 'x{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`The service said: ${script} ${link}`);
    expectNothingExecuted(container);
    unmount();

    const missing = renderConsole(script);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `There is no agent with the id “${script}”.`,
    );
    expectNothingExecuted(missing.container);
  });
});

describe('given hostile events and fields passed as props', () => {
  const events: RunEvent[] = [img, script, link].map((text, index) => ({
    sequence: index + 1,
    id: text,
    lastEventId: text,
    event: text,
    data: text,
    payload: undefined,
    kind: 'parse-error',
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

  it('shows event names, ids, filter options and payloads as text', async () => {
    const user = userEvent.setup();
    const { container } = render(
      <StrictMode>
        <AgentEventLog events={events} startedAt={1_000} />
        <AgentInputForm
          fields={formFieldsFromSchema({
            type: 'object',
            properties: { a: { type: 'string', title: img, description: script } },
          })}
          errors={{ a: link }}
          onSubmit={() => {}}
        />
      </StrictMode>,
    );

    for (const text of [img, script, link]) {
      const row = screen.getByRole('button', {
        name: new RegExp(`^#\\d+ .*${escape(text)} id ${escape(text)}`),
      });
      expect(row.textContent).toContain(`${text} id ${text}`);
      await user.click(row);
    }
    expect([...container.querySelectorAll('pre')].map((pre) => pre.textContent)).toEqual([
      img,
      script,
      link,
    ]);
    expect(
      within(screen.getByRole('combobox', { name: 'Event' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All events', ...[img, script, link].sort()]);
    expect(screen.getByRole('textbox', { name: img })).toHaveAccessibleDescription(
      `${script} ${link}`,
    );
    expectNothingExecuted(container);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
