import type { Browser } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockAgentServer, type MockAgentServer } from 'agent-console-kit/testing';
import {
  answersTo,
  freePort,
  installExample,
  launchChromium,
  methodAnswers,
  proxyRequests,
  startEnvironment,
  startServer,
  stopSlowChatTurn,
  pageProblems,
  watchPage,
  type PageWatch,
  type StartedServer,
} from './example-app.js';

// examples/next-app as a user gets it: installed from the packed tarball and built with the
// commands of examples/README.md (`next build` with no service settings: they belong to the running
// server), started with its start command against the mock service, which requires a token that
// only the server holds.
const token = `next-app-${Math.random().toString(36).slice(2)}-secret`;
let mock: MockAgentServer;
let app: StartedServer;
let appUrl: string;
let browser: Browser;
let buildOutput: string;

beforeAll(async () => {
  mock = await createMockAgentServer({ token });
  const { folder, start, output } = await installExample('next-app');
  buildOutput = output;
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  // Next.js takes its port from PORT (3000 when unset, as the README says).
  app = await startServer(
    start.command,
    start.args,
    folder,
    {
      ...startEnvironment(start, { AGENT_SERVICE_URL: mock.url, AGENT_SERVICE_TOKEN: token }),
      PORT: String(port),
    },
    /Ready in/,
  );
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await mock?.close();
});

beforeEach(() => {
  mock.reset();
});

async function openPage(path: string) {
  const page = await browser.newPage();
  const watch = watchPage(page);
  await page.goto(`${appUrl}${path}`);
  return { page, watch };
}

const openConsole = (agentId: string) => openPage(`/agents/${agentId}`);

function expectCleanPage(watch: PageWatch) {
  const problems = pageProblems(watch, token);
  // React reports a hydration mismatch as a console error (#418 / #423 / #425 in production).
  expect(problems.console.filter((line) => /hydrat|#41[89]|#42[35]/i.test(line))).toEqual([]);
  expect(problems).toEqual({ errors: [], console: [], failures: [], tokenInRequests: false });
}

const minute = 60_000;
const chat = { 'ap.io.messages': true, 'ap.io.streaming': true };
const reportChunks = [
  'Collecting the sources. ',
  'Reading the three newest reports. ',
  'Comparing their numbers. ',
  'The report is ready.',
];

/** GETs of an agent's record and schemas the service received (with the token: from the server). */
const retrievals = (agentId: string) =>
  mock.requests
    .filter((record) => record.agentId === agentId && record.method === 'GET')
    .map((record) => `${record.endpoint} ${record.status} ${record.tokenFingerprint}`);

describe('given the Next.js app behind its route handler proxy, the service requiring a token', () => {
  it('renders the form agent on the server: its form, not "Loading the agent’s input form"', async () => {
    const html = await (await fetch(`${appUrl}/agents/form-agent`)).text();

    expect(html).toContain('Project intake');
    expect(html).toContain('Due date');
    expect(html).not.toContain('Loading the agent’s input form');
    // Disabled until the browser has hydrated it: a Run before that would submit it natively.
    expect(html).toMatch(/<button(?=[^>]*type="submit")(?=[^>]*disabled="")[^>]*>/);
    expect(html).not.toContain(token);
    expect(retrievals('form-agent')).toEqual([
      `agent 200 ${token.slice(-4)}`,
      `schemas 200 ${token.slice(-4)}`,
    ]);
  });

  it('runs the form agent without fetching the prefetched agent again in the browser', async () => {
    const { page, watch } = await openConsole('form-agent');
    await page.getByRole('textbox', { name: /^Title/ }).fill('New website');
    await page.getByLabel(/^Due date/).fill('2026-12-01');
    await page.getByRole('button', { name: 'Run' }).click();
    await page
      .getByRole('region', { name: 'Agent output' })
      .getByText('Thanks, the project intake is filed.', { exact: false })
      .waitFor();

    // The browser asked the proxy for the run only: the agent and its schemas came with the page.
    expect(proxyRequests(watch)).toEqual([
      'POST /api/agent-service/rest/api/v1/agents/runs/stream',
    ]);
    expect(retrievals('form-agent')).toHaveLength(2);
    expect(mock.postCount('form-agent')).toBe(1);
    const [runRequest] = mock.runRequests('form-agent');
    expect(runRequest?.tokenFingerprint).toBe(token.slice(-4));
    expect((runRequest?.body as { input?: unknown }).input).toMatchObject({
      title: 'New website',
      due_date: '2026-12-01',
    });
    expectCleanPage(watch);
    await page.close();
  });

  it('answers a chat turn', async () => {
    const { page, watch } = await openConsole('chat-agent');
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello');
    await page.keyboard.press('Enter');
    await page.getByRole('log', { name: 'Messages' }).getByText('You asked "Hello"').waitFor();

    expect(mock.postCount('chat-agent')).toBe(1);
    expect(mock.runRequests('chat-agent')[0]?.status).toBe(200);
    expect(proxyRequests(watch)).toEqual([
      'POST /api/agent-service/rest/api/v1/agents/runs/stream',
    ]);
    expect(mock.requests.filter((record) => record.status === 401)).toEqual([]);
    expectCleanPage(watch);
    await page.close();
  });

  it('Stop closes the service’s stream, through the route handler', async () => {
    const { page, watch } = await openConsole('slow-chat-agent');
    const runRequest = await stopSlowChatTurn(page, mock);

    expect(runRequest?.closedByClient).toBe(true);
    expect(runRequest?.completed).toBeUndefined();
    expectCleanPage(watch);
    await page.close();
  });

  it('forwards nothing but the agent operations, even with the server’s token at hand', async () => {
    for (const path of [
      '/api/agent-service/rest/api/v1/search',
      '/api/agent-service/rest/api/v1/indexing/document',
      '/api/agent-service/%2e%2e/%2e%2e/admin/secrets',
    ]) {
      const response = await fetch(`${appUrl}${path}`, { method: 'POST', body: '{}' });
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain(token);
    }
    expect(mock.requests).toEqual([]);
  });

  it('builds with no warning that Next.js inferred the workspace root from another lockfile', () => {
    // The example sits in the repository, under its package-lock.json (as the test's copy does).
    expect(buildOutput).toMatch(/Compiled successfully|Generating static pages/);
    expect(buildOutput).not.toMatch(/inferred your workspace root|multiple lockfiles/i);
  });

  it('answers other methods as examples/README.md says the route handler does', async () => {
    const rows = methodAnswers('Next.js');
    expect(rows.map((row) => row.method)).toEqual(['DELETE', 'PUT', 'OPTIONS', 'HEAD']);
    expect(await answersTo(rows, appUrl, token)).toEqual(rows);
    expect(mock.requests).toEqual([]);
  });

  it('keeps a durable agent’s thread across a reload: the run followed again, never sent again', async () => {
    // The demo "Long report", made ten minutes long: the test moves the service's clock.
    mock.service.setAgent({
      agent: { agent_id: 'durable-agent', name: 'Long report', capabilities: chat },
      durable: { turns: [{ runningMs: 10 * minute, text: reportChunks }] },
    });
    const { page, watch } = await openPage('/threads');
    const conversation = page.getByRole('region', { name: /^Conversation with / });
    const messages = conversation.getByRole('log', { name: 'Messages' });
    await page.getByRole('textbox', { name: 'Message' }).fill('Write the weekly report');
    // Send, clicked once it is enabled (Playwright waits for that).
    await page.getByRole('button', { name: 'Send' }).click();
    await messages.getByText('Write the weekly report').waitFor();
    await mock.waitFor(() => mock.service.durableStats.runsStarted === 1, 30_000);
    mock.service.advance(3 * minute);
    await messages.getByText('Collecting the sources.', { exact: false }).waitFor();
    expect(await messages.getByText('The report is ready.', { exact: false }).count()).toBe(0);

    await page.reload();
    await messages.getByText('Write the weekly report').waitFor();
    await messages.getByText('Collecting the sources.', { exact: false }).waitFor();
    const threads = page.getByRole('navigation', { name: /^Threads with / });
    await threads.getByRole('button', { name: 'Write the weekly report', exact: true }).waitFor();
    mock.service.advance(10 * minute);
    await messages.getByText('The report is ready.', { exact: false }).waitFor();

    expect(mock.service.durableStats.runsStarted).toBe(1);
    expect(proxyRequests(watch).filter((request) => request.startsWith('POST '))).toEqual([
      'POST /api/agent-service/api/agents/durable-agent/runs',
    ]);
    expect(mock.requests.every((record) => record.tokenFingerprint === token.slice(-4))).toBe(true);
    expectCleanPage(watch);
    await page.close();
  }, 120_000);
});
