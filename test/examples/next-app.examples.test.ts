import { join } from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockAgentServer, type MockAgentServer } from 'agent-console-kit/testing';
import {
  freePort,
  installExample,
  launchChromium,
  proxyRequests,
  run,
  startServer,
  stopSlowChatTurn,
  pageProblems,
  watchPage,
  type PageWatch,
  type StartedServer,
} from './example-app.js';

// examples/next-app as a user gets it: installed from the packed tarball, `next build` run with no
// service settings (they belong to the running server), `next start` against the mock service,
// which requires a token that only the server holds.
const token = `next-app-${Math.random().toString(36).slice(2)}-secret`;
let mock: MockAgentServer;
let app: StartedServer;
let appUrl: string;
let browser: Browser;

beforeAll(async () => {
  mock = await createMockAgentServer({ token });
  const folder = await installExample('next-app');
  await run('npm', ['run', 'build'], folder);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  app = await startServer(
    join(folder, 'node_modules/.bin/next'),
    ['start', '--port', String(port), '--hostname', '127.0.0.1'],
    folder,
    { AGENT_SERVICE_URL: mock.url, AGENT_SERVICE_TOKEN: token },
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

async function openConsole(agentId: string) {
  const page = await browser.newPage();
  const watch = watchPage(page);
  await page.goto(`${appUrl}/agents/${agentId}`);
  return { page, watch };
}

function expectCleanPage(watch: PageWatch) {
  const problems = pageProblems(watch, token);
  // React reports a hydration mismatch as a console error (#418 / #423 / #425 in production).
  expect(problems.console.filter((line) => /hydrat|#41[89]|#42[35]/i.test(line))).toEqual([]);
  expect(problems).toEqual({ errors: [], console: [], failures: [], tokenInRequests: false });
}

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
});
