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

// examples/vite-app as a user gets it: installed from the packed tarball and built (tsc + vite) with
// the commands of examples/README.md, its server (server.mjs: the app and the proxy) started with
// the README's start command against the mock service, which requires a token.
const token = `vite-app-${Math.random().toString(36).slice(2)}-secret`;
let mock: MockAgentServer;
let app: StartedServer;
let appUrl: string;
let browser: Browser;

beforeAll(async () => {
  mock = await createMockAgentServer({ token });
  const { folder, start } = await installExample('vite-app');
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  // server.mjs takes its port from PORT (3001 when unset, as the README says).
  app = await startServer(
    start.command,
    start.args,
    folder,
    {
      ...startEnvironment(start, { AGENT_SERVICE_URL: mock.url, AGENT_SERVICE_TOKEN: token }),
      PORT: String(port),
    },
    /App on http/,
  );
  browser = await launchChromium();
}, 300_000);

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
  await page.goto(`${appUrl}/?agent=${agentId}`);
  return { page, watch };
}

function expectCleanPage(watch: PageWatch) {
  const problems = pageProblems(watch, token);
  // React reports a hydration mismatch as a console error (#418 / #423 / #425 in production).
  expect(problems.console.filter((line) => /hydrat|#41[89]|#42[35]/i.test(line))).toEqual([]);
  expect(problems).toEqual({ errors: [], console: [], failures: [], tokenInRequests: false });
}

describe('given the Vite app behind its proxy, the service requiring a token', () => {
  it('answers a chat turn through the proxy, which adds the token', async () => {
    const { page, watch } = await openConsole('chat-agent');
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello');
    await page.keyboard.press('Enter');
    await page.getByRole('log', { name: 'Messages' }).getByText('You asked "Hello"').waitFor();

    expect(mock.postCount('chat-agent')).toBe(1);
    const [runRequest] = mock.runRequests('chat-agent');
    expect(runRequest?.status).toBe(200);
    expect(runRequest?.tokenFingerprint).toBe(token.slice(-4));
    // Retrieved once in the browser under StrictMode; nothing refused for want of a token.
    expect(proxyRequests(watch)).toEqual([
      'GET /api/agent-service/rest/api/v1/agents/chat-agent',
      'GET /api/agent-service/rest/api/v1/agents/chat-agent/schemas',
      'POST /api/agent-service/rest/api/v1/agents/runs/stream',
    ]);
    expect(mock.requests.filter((record) => record.status === 401)).toEqual([]);
    expectCleanPage(watch);
    await page.close();
  });

  it('runs a form agent with its input', async () => {
    const { page, watch } = await openConsole('form-agent');
    await page.getByRole('textbox', { name: /^Title/ }).fill('New website');
    await page.getByLabel(/^Due date/).fill('2026-12-01');
    await page.getByRole('button', { name: 'Run' }).click();
    await page
      .getByRole('region', { name: 'Agent output' })
      .getByText('Thanks, the project intake is filed.', { exact: false })
      .waitFor();

    expect(mock.postCount('form-agent')).toBe(1);
    const body = mock.runRequests('form-agent')[0]?.body as { input?: Record<string, unknown> };
    expect(body.input).toMatchObject({ title: 'New website', due_date: '2026-12-01' });
    expectCleanPage(watch);
    await page.close();
  });

  it('Stop closes the service’s stream, through the proxy', async () => {
    const { page, watch } = await openConsole('slow-chat-agent');
    const runRequest = await stopSlowChatTurn(page, mock);

    expect(runRequest?.closedByClient).toBe(true);
    expect(runRequest?.completed).toBeUndefined();
    expect(mock.postCount('slow-chat-agent')).toBe(1);
    expectCleanPage(watch);
    await page.close();
  });

  it('answers other methods as examples/README.md says the Node server does', async () => {
    const rows = methodAnswers('Node server');
    expect(rows.map((row) => row.method)).toEqual(['DELETE', 'PUT', 'OPTIONS', 'HEAD']);
    expect(await answersTo(rows, appUrl, token)).toEqual(rows);
    expect(mock.requests).toEqual([]);
  });
});
