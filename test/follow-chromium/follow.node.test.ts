/**
 * Threads and approvals that follow the user (issue 28, "Done when"), in real Chromium: two
 * browser contexts with one session are two devices of one user, a third context is another user.
 * The page (page.tsx, React under <StrictMode>) talks only to the proxy on its own origin, which
 * has a store (PGlite) and the mock service in this process, so every test counts what reached
 * the service. Waits are for states on the page, never for fixed times.
 */
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockAgentService, type MockAgentService } from 'agent-console-kit/testing';
import { launchChromium, watchPage, type PageWatch } from '../examples/example-app.js';
import { approveAgent } from '../support/user-store-proxy.js';
import {
  bundleFollowPage,
  startFollowPageServer,
  type FollowPageServer,
} from './follow-page-server.js';

let service: MockAgentService;
let server: FollowPageServer;
let browser: Browser;
let contexts: BrowserContext[];
let watches: PageWatch[];

beforeAll(async () => {
  service = createMockAgentService({ agents: [approveAgent] });
  server = await startFollowPageServer(service, await bundleFollowPage());
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(() => {
  service.reset();
  contexts = [];
  watches = [];
});

afterEach(async () => {
  for (const watch of watches) {
    expect(watch.errors).toEqual([]);
    // A 409 of the save that lost, another user's run (404): the only failures a test may
    // cause; Chromium logs each as a console error.
    const unexpected = (lines: string[]) =>
      lines.filter((line) => !/\b(404|409)\b|Not Found|Conflict/.test(line));
    expect(unexpected(watch.console)).toEqual([]);
    expect(unexpected(watch.failures)).toEqual([]);
  }
  for (const context of contexts) await context.close();
});

let users = 0;
const newUser = () => `user-${++users}-${Date.now().toString(36)}`;

/** A device of `user`: a browser context with the app's session cookie. */
async function device(user: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'session', value: user, url: server.url }]);
  contexts.push(context);
  return context;
}

async function open(context: BrowserContext, query: string): Promise<Page> {
  const page = await context.newPage();
  watches.push(watchPage(page));
  await page.goto(`${server.url}/?${query}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

const wait = { timeout: 20_000 };
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
async function waitForTestId(page: Page, testId: string, text: string) {
  await page
    .getByTestId(testId)
    .filter({ hasText: exactly(text) })
    .waitFor(wait);
}

/** What reached the service about `runId`: reads, cancels and responses. */
const serviceRequestsFor = (runId: string) =>
  service.requests.filter(
    (record) => record.path.includes(runId) || JSON.stringify(record.body ?? null).includes(runId),
  ).length;

/** The answer of a request the page makes itself to the proxy (with its session cookie). */
async function fetchFrom(page: Page, path: string, init: { method?: string; body?: string } = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(`/api/agent-service${path}`, {
        ...init,
        headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      });
      return { status: response.status, body: await response.text() };
    },
    { path, init },
  );
}

describe(
  'given two devices of one user in Chromium, and another user',
  { timeout: 120_000 },
  () => {
    it('a run started on A that waits for approval shows in B’s inbox and B’s useDurableRuns; approved on B, A shows the answer once; the other user sees nothing of it', async () => {
      const alice = newUser();
      const laptop = await open(await device(alice), 'view=run');
      await laptop.getByRole('button', { name: 'Start' }).click();
      const runIdText = laptop.getByTestId('run-id').filter({ hasNotText: exactly('none') });
      await runIdText.waitFor(wait);
      const runId = (await runIdText.textContent()) ?? '';
      await waitForTestId(laptop, 'status', 'requires-input');

      const phoneContext = await device(alice);
      // The phone's durable run list (useDurableRuns with the server's runs) has the laptop's run.
      const phoneRuns = await open(phoneContext, 'view=runs');
      const runsList = phoneRuns.getByRole('list', { name: 'Runs' });
      await runsList.getByText('Deploy the web service: requires-input (server)').waitFor(wait);
      const phone = await open(phoneContext, 'view=inbox');
      const inbox = phone.getByRole('region', { name: 'Waiting for your approval' });
      const item = inbox.getByRole('button', { name: /Deploy the web service/ });
      await item.waitFor(wait);
      // By keyboard: focus the run, open it, approve it.
      await item.focus();
      await phone.keyboard.press('Enter');
      const opened = inbox.getByRole('region', { name: 'Deploy the web service' });
      const card = opened.getByRole('region', { name: 'Approval needed' });
      await card.getByRole('heading', { name: 'Deploy to production' }).waitFor(wait);
      const approve = card.getByRole('button', { name: 'Approve' });
      await approve.and(phone.locator(':not([aria-disabled="true"])')).waitFor(wait);
      await approve.focus();
      await phone.keyboard.press('Enter');
      await opened.getByText(exactly('Done')).waitFor(wait);
      // Answered: the phone's inbox has nothing left.
      await inbox.getByText('Nothing is waiting for your approval.').waitFor(wait);

      // Answered on the phone: its run list, back in view (a tab the inbox hid), shows it ended.
      // The inbox attached the run in this browser, so its run store knows it now too.
      await phoneRuns.bringToFront();
      await runsList.getByText('Deploy the web service: succeeded (browser)').waitFor(wait);

      // The laptop shows the answer, once, and settles once.
      await waitForTestId(laptop, 'status', 'succeeded');
      const answer = await laptop.getByTestId('answer').textContent();
      expect(answer).toBe('Approve the deploy?\n\nDeployed.');
      expect(answer?.split('Deployed.').length).toBe(2);
      await waitForTestId(laptop, 'settled-count', '1');
      expect(service.durableStats).toMatchObject({
        runsStarted: 1,
        responsesAccepted: 1,
        toolsExecuted: 1,
      });

      // Another user: an empty inbox, and 404 for the run, without a request reaching the service.
      const stranger = await open(await device(newUser()), 'view=inbox');
      await stranger.getByText('Nothing is waiting for your approval.').waitFor(wait);
      const before = serviceRequestsFor(runId);
      const attempts = [
        await fetchFrom(stranger, `/api/agents/approve-agent/runs/${runId}`),
        await fetchFrom(stranger, '/api/agents/approve-agent/cancellations', {
          method: 'POST',
          body: JSON.stringify({ run_id: runId }),
        }),
        await fetchFrom(stranger, '/api/agents/approve-agent/responses', {
          method: 'POST',
          body: JSON.stringify({
            run_id: runId,
            responses: [{ interaction_id: 'any', decision: 'APPROVE' }],
          }),
        }),
      ];
      expect(attempts.map((attempt) => attempt.status)).toEqual([404, 404, 404]);
      expect(serviceRequestsFor(runId)).toBe(before);
      const runs = await fetchFrom(stranger, '/runs');
      expect(JSON.parse(runs.body)).toEqual({ runs: [] });
    });

    it('a thread saved on A lists on B; the other user sees neither list nor thread', async () => {
      const alice = newUser();
      const laptop = await open(await device(alice), 'view=threads&thread=thread-follow');
      await waitForTestId(laptop, 'thread-loaded', 'loaded');
      await laptop.getByRole('textbox', { name: 'Message' }).fill('Where is my laptop order?');
      await laptop.getByRole('button', { name: 'Save' }).click();
      await waitForTestId(laptop, 'revision', '1');

      const phone = await open(await device(alice), 'view=threads&thread=thread-follow');
      const threads = phone.getByRole('navigation', { name: 'Threads' });
      await threads.getByRole('button', { name: 'Where is my laptop order?' }).waitFor(wait);
      await phone
        .getByRole('list', { name: 'Messages' })
        .getByText('Where is my laptop order?')
        .waitFor(wait);

      const stranger = await open(await device(newUser()), 'view=threads&thread=thread-follow');
      await waitForTestId(stranger, 'list-status', 'ready');
      await waitForTestId(stranger, 'thread-loaded', 'loaded');
      expect(
        await stranger.getByRole('navigation', { name: 'Threads' }).getByRole('listitem').count(),
      ).toBe(0);
      expect(
        await stranger.getByRole('list', { name: 'Messages' }).getByRole('listitem').count(),
      ).toBe(0);
      const loaded = await fetchFrom(stranger, '/threads/thread-follow');
      expect(loaded.status).toBe(200);
      expect(JSON.parse(loaded.body)).toEqual({ thread: null });
      expect(service.requests).toHaveLength(0);
    });

    it('a save from both devices at once: one thread, a visible conflict on one, no message lost', async () => {
      const alice = newUser();
      const laptop = await open(await device(alice), 'view=threads&thread=thread-both');
      await waitForTestId(laptop, 'thread-loaded', 'loaded');
      await laptop.getByRole('textbox', { name: 'Message' }).fill('Hello');
      await laptop.getByRole('button', { name: 'Save' }).click();
      await waitForTestId(laptop, 'revision', '1');

      const phone = await open(await device(alice), 'view=threads&thread=thread-both');
      await waitForTestId(phone, 'revision', '1');
      await laptop.getByRole('textbox', { name: 'Message' }).fill('From the laptop');
      await phone.getByRole('textbox', { name: 'Message' }).fill('From the phone');
      // Both saves on revision 1, at once.
      await Promise.all([
        laptop.getByRole('button', { name: 'Save' }).click(),
        phone.getByRole('button', { name: 'Save' }).click(),
      ]);
      const alerts = async () =>
        (await laptop.getByRole('alert').count()) + (await phone.getByRole('alert').count());
      await expect.poll(alerts, wait).toBe(1);
      const loser = (await laptop.getByRole('alert').count()) === 1 ? laptop : phone;
      const winner = loser === laptop ? phone : laptop;
      const lost = loser === laptop ? 'From the laptop' : 'From the phone';
      const won = loser === laptop ? 'From the phone' : 'From the laptop';
      const alert = loser.getByRole('alert');
      await alert.getByText('This thread was saved on another device').waitFor(wait);
      await alert.getByText(`Not saved: ${lost}`).waitFor(wait);
      await alert.getByText(`Saved there: Hello, ${won}`).waitFor(wait);
      await waitForTestId(winner, 'revision', '2');

      // The loser keeps both: nothing lost, one thread.
      await alert.getByRole('button', { name: 'Keep both' }).click();
      await waitForTestId(loser, 'revision', '3');
      const stored = await server.store.loadThread(alice, 'thread-both');
      expect(stored?.messages.map((message) => message.text)).toEqual(['Hello', won, lost]);
      expect((await server.store.listThreads(alice)).threads).toHaveLength(1);
    });
  },
);
