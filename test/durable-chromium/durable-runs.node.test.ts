/**
 * Durable runs in real Chromium (issue 20, "Done when"): the page (page.tsx, React under
 * <StrictMode>) reloaded while a run runs, waits for approval and during its start POST; approve,
 * reject, cancel and completion winning a cancel; two tabs on one run; offline then online. The
 * mock service runs in this process behind the page's own origin, so every test counts what
 * reached it. Waits are for states on the page or at the service, never for fixed times (but one
 * window in which nothing may happen).
 */
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createMockAgentService,
  demoAgents,
  type MockAgentDefinition,
  type MockAgentService,
} from 'agent-console-kit/testing';
import { launchChromium, watchPage, type PageWatch } from '../examples/example-app.js';
import {
  bundlePage,
  startDurablePageServer,
  type DurablePageServer,
} from './durable-page-server.js';
import { pageToken } from './page-token.js';

const minute = 60_000;
const chat = { 'ap.io.messages': true, 'ap.io.streaming': true };
const reportChunks = [
  'Alpha one. ',
  'Bravo two. ',
  'Charlie three. ',
  'Delta four. ',
  'Echo five. ',
  'Foxtrot six. ',
  'Golf seven. ',
  'Hotel eight. ',
  'India nine. ',
  'Juliet ten.',
];
const reportText = reportChunks.join('');

/** Agents whose runs move only when a test moves the mock's clock (ten minutes of work). */
const clockAgents: MockAgentDefinition[] = [
  {
    agent: { agent_id: 'clock-report-agent', name: 'Clock report', capabilities: chat },
    durable: {
      turns: [{ runningMs: 10 * minute, text: reportChunks }],
      cancel: { cancellingMs: minute },
    },
  },
  {
    // The first answer to its approval is refused with 503 (the decisions were not accepted).
    agent: { agent_id: 'flaky-approval-agent', name: 'Flaky approval', capabilities: chat },
    durable: {
      respondFaults: ['503-once'],
      turns: [
        {
          runningMs: 0,
          text: 'Approve the deploy?',
          approvals: [{ displayName: 'Deploy to production', arguments: { service: 'web' } }],
        },
        { runningMs: 0, text: 'Deployed.' },
      ],
    },
  },
  {
    // One chunk at the end: nothing changes while it runs, so a follower has nothing to read.
    agent: { agent_id: 'steady-agent', name: 'Steady', capabilities: chat },
    durable: { turns: [{ runningMs: 10 * minute, text: ['The steady answer is ready.'] }] },
  },
];

/** The text of the report agent once its clock has moved `minutes` (one chunk a minute). */
const reportAfter = (minutes: number) => reportChunks.slice(0, minutes).join('');

let service: MockAgentService;
let server: DurablePageServer;
let browser: Browser;
let context: BrowserContext;
let watches: PageWatch[];
let pages: Page[];
/** Console lines and failed requests a test expects (else none may appear). */
let allowedFailures: RegExp[];

beforeAll(async () => {
  service = createMockAgentService({ agents: [...demoAgents, ...clockAgents] });
  server = await startDurablePageServer(service, await bundlePage());
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  service.reset();
  server.reset();
  context = await browser.newContext();
  watches = [];
  pages = [];
  allowedFailures = [];
});

afterEach(async () => {
  // No token, header or arguments in storage, whatever the test did; no page error.
  for (const page of pages) {
    if (page.isClosed()) continue;
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain(pageToken);
    expect(stored.toLowerCase()).not.toContain('authorization');
  }
  for (const watch of watches) {
    expect(watch.errors).toEqual([]);
    const unexpected = (lines: string[]) =>
      lines.filter((line) => !allowedFailures.some((allowed) => allowed.test(line)));
    expect(unexpected(watch.console)).toEqual([]);
    expect(unexpected(watch.failures)).toEqual([]);
  }
  await context.close();
});

async function open(query: string, into: BrowserContext = context): Promise<Page> {
  const page = await into.newPage();
  watches.push(watchPage(page));
  pages.push(page);
  await page.goto(`${server.url}/?${query}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

const wait = { timeout: 20_000 };
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

function fact(page: Page, name: 'status' | 'run-id' | 'connection' | 'tab' | 'settled-count') {
  return page.getByTestId(name);
}

async function waitForFact(page: Page, name: Parameters<typeof fact>[1], value: string) {
  await fact(page, name)
    .filter({ hasText: exactly(value) })
    .waitFor(wait);
}

async function waitForAnswer(page: Page, text: string) {
  await page
    .getByTestId('answer')
    .filter({ hasText: exactly(text) })
    .waitFor(wait);
}

const durableGets = (tab?: string) =>
  service.requests.filter(
    (record) =>
      record.endpoint === 'durable-run' &&
      record.method === 'GET' &&
      (tab === undefined || record.headers['x-test-tab'] === tab),
  ).length;

/** Starts a run with the page's Start button; resolves with its id once the 201 gave it. */
async function startRun(page: Page) {
  await page.getByRole('button', { name: 'Start' }).click();
  const runId = fact(page, 'run-id').filter({ hasNotText: exactly('none') });
  await runId.waitFor(wait);
  return (await runId.textContent()) ?? '';
}

describe('given the durable-run page in Chromium, under StrictMode', { timeout: 120_000 }, () => {
  it('a reload while the run is running comes back to the same run, its output once', async () => {
    const page = await open('view=run&agent=clock-report-agent');
    const runId = await startRun(page);
    expect(runId).toMatch(/^d+\w+$/);
    service.advance(3 * minute);
    await waitForAnswer(page, reportAfter(3));

    await page.reload();
    await waitForFact(page, 'run-id', runId);
    await waitForFact(page, 'status', 'running');
    await waitForAnswer(page, reportAfter(3));
    service.advance(2 * minute);
    await waitForAnswer(page, reportAfter(5));

    service.advance(5 * minute);
    await waitForFact(page, 'status', 'succeeded');
    await waitForAnswer(page, reportText);
    await waitForFact(page, 'settled-count', '1');

    // Settled: a reload shows the answer once more, without a second onSettled.
    await page.reload();
    await waitForFact(page, 'status', 'succeeded');
    await waitForAnswer(page, reportText);
    expect(await fact(page, 'settled-count').textContent()).toBe('0');
    expect(service.postCount()).toBe(1);
    expect(service.durableStats.runsStarted).toBe(1);
  });

  it('a reload while the run waits for approval shows the card again; approving after it runs the tool once', async () => {
    const page = await open('view=run&agent=approval-agent');
    const runId = await startRun(page);
    const card = page.getByRole('region', { name: 'Approval needed' });
    await card.getByRole('heading', { name: 'Send Slack message to user' }).waitFor(wait);
    await waitForFact(page, 'status', 'requires-input');

    await page.reload();
    await waitForFact(page, 'run-id', runId);
    await card.getByRole('heading', { name: 'Send Slack message to user' }).waitFor(wait);
    await card.getByText('The weekly report is ready for review.').waitFor(wait);
    await card.getByRole('button', { name: 'Approve' }).click();

    await waitForFact(page, 'status', 'succeeded');
    await waitForAnswer(
      page,
      'I drafted the message and need your approval to send it.\n\nSent your Slack message.',
    );
    expect(await card.count()).toBe(0);
    expect(service.durableStats).toMatchObject({
      runsStarted: 1,
      toolsExecuted: 1,
      responsesAccepted: 1,
    });
    expect(service.postCount()).toBe(1);
  });

  it('a reload during the start POST says the run may have started and sends nothing again', async () => {
    server.holdStarts();
    const page = await open('view=run&agent=clock-report-agent');
    await page.getByRole('button', { name: 'Start' }).click();
    await service.waitFor(() => server.heldStarts === 1, 20_000);
    await waitForFact(page, 'status', 'starting');

    await page.reload();
    await page
      .getByRole('alert')
      .getByText('This run may have started: it was not sent again.')
      .waitFor(wait);
    await waitForFact(page, 'status', 'start-unknown');
    // The run exists at the service, started by the one POST; the page neither sent it again nor
    // has a run id to read.
    expect(service.postCount()).toBe(1);
    expect(service.durableStats.runsStarted).toBe(1);
    expect(durableGets()).toBe(0);

    // Dismissed, a new start is a new POST (the only way to send again is to ask).
    server.reset();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await startRun(page);
    expect(service.postCount()).toBe(2);
  });

  it('a page that starts its run on mount sends one POST under StrictMode, and none after a reload', async () => {
    const page = await open('view=run&agent=clock-report-agent&autostart');
    await waitForFact(page, 'status', 'running');
    const runId = (await fact(page, 'run-id').textContent()) ?? '';
    expect(service.postCount()).toBe(1);
    await page.reload();
    await waitForFact(page, 'run-id', runId);
    await waitForFact(page, 'status', 'running');
    service.advance(10 * minute);
    await waitForFact(page, 'status', 'succeeded');
    await waitForAnswer(page, reportText);
    expect(service.postCount()).toBe(1);
    expect(service.durableStats.runsStarted).toBe(1);
  });

  it('a reload of a durable conversation during the start POST keeps the question and sends nothing again', async () => {
    server.holdStarts();
    const page = await open('view=chat&agent=clock-report-agent');
    await page.getByRole('textbox', { name: 'Message' }).fill('Write the weekly report');
    await page.getByRole('button', { name: 'Send' }).click();
    await service.waitFor(() => server.heldStarts === 1, 20_000);

    await page.reload();
    const messages = page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await page.getByTestId('chat-status').filter({ hasText: 'idle' }).waitFor(wait);
    // Loaded: the thread is what was stored.
    expect((await messages.allTextContents())[0]).toBe('You: Write the weekly report');
    await page
      .getByRole('alert')
      .getByText('This turn may have started: it was not sent again.')
      .waitFor(wait);
    expect(service.postCount()).toBe(1);
    expect(durableGets()).toBe(0);
  });

  it('a stored run the service no longer knows shows as lost once, then the page starts afresh', async () => {
    const page = await open('view=run&agent=clock-report-agent');
    const runId = await startRun(page);
    // The service forgot the run (kept no longer, or another user's): its reads answer 404.
    service.reset();
    allowedFailures = [/404/];

    await page.reload();
    await waitForFact(page, 'status', 'lost');
    expect(await fact(page, 'run-id').textContent()).toBe(runId);
    expect(durableGets()).toBe(1);
    await page.reload();
    await waitForFact(page, 'status', 'idle');
    expect(durableGets()).toBe(1);
    await startRun(page);
    expect(service.postCount()).toBe(1);
  });

  it('approve and reject round trips: the tool runs once after Approve, never after Reject', async () => {
    const page = await open('view=run&agent=approval-agent');
    await startRun(page);
    const card = page.getByRole('region', { name: 'Approval needed' });
    await card.getByRole('button', { name: 'Approve' }).click();
    await waitForFact(page, 'status', 'succeeded');
    expect(service.durableStats.toolsExecuted).toBe(1);

    service.reset();
    const rejected = await open('view=run&agent=approval-agent', await browser.newContext());
    await startRun(rejected);
    await rejected
      .getByRole('region', { name: 'Approval needed' })
      .getByRole('button', { name: 'Reject' })
      .click();
    await waitForFact(rejected, 'status', 'succeeded');
    expect(service.durableStats).toMatchObject({
      runsStarted: 1,
      toolsExecuted: 0,
      responsesAccepted: 1,
    });
    const responses = service.requests.filter((record) => record.endpoint === 'durable-respond');
    expect(responses).toHaveLength(1);
    expect(responses[0]?.body).toMatchObject({ responses: [{ decision: 'REJECT' }] });
    await rejected.context().close();
  });

  it('an answer refused with 503 is sent again, identical, and the tool runs once', async () => {
    allowedFailures = [/503/];
    const page = await open('view=run&agent=flaky-approval-agent');
    await startRun(page);
    const card = page.getByRole('region', { name: 'Approval needed' });
    await card.getByRole('button', { name: 'Approve' }).click();
    await waitForFact(page, 'status', 'succeeded');
    await waitForAnswer(page, 'Approve the deploy?\n\nDeployed.');
    const responses = service.requests.filter((record) => record.endpoint === 'durable-respond');
    expect(responses.map((record) => record.status)).toEqual([503, 200]);
    expect(responses[1]?.body).toEqual(responses[0]?.body);
    expect(service.durableStats).toMatchObject({ toolsExecuted: 1, responsesAccepted: 1 });
  });

  it('a batch of two is answered by one Submit: only the approved tool runs', async () => {
    const page = await open('view=run&agent=batch-approval-agent');
    await startRun(page);
    const card = page.getByRole('region', { name: 'Approval needed' });
    const jira = card.getByRole('group', { name: 'Create Jira issue' });
    await jira.getByRole('button', { name: 'Approve' }).click();
    await card
      .getByRole('group', { name: 'Email the customer' })
      .getByRole('button', { name: 'Reject' })
      .click();
    // The id above 2^53 is shown as the service sent it.
    await card.getByText('90071992547409931').waitFor(wait);
    await card.getByRole('button', { name: 'Submit decisions' }).click();
    await waitForFact(page, 'status', 'succeeded');
    expect(service.durableStats).toMatchObject({ toolsExecuted: 1, responsesAccepted: 1 });
    expect(service.requests.filter((record) => record.endpoint === 'durable-respond')).toHaveLength(
      1,
    );
  });

  it('Cancel cancels the run cooperatively', async () => {
    const page = await open('view=run&agent=clock-report-agent');
    await startRun(page);
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await waitForFact(page, 'status', 'cancelling');
    await service.waitFor(() => service.durableStats.cancels === 1, 20_000);
    service.advance(minute);
    await waitForFact(page, 'status', 'cancelled');
    expect(service.durableStats.cancels).toBe(1);
    expect(service.postCount()).toBe(1);
  });

  it('a run that completes before the cancel reaches it ends succeeded, and says so', async () => {
    const page = await open('view=run&agent=clock-report-agent');
    const runId = await startRun(page);
    service.advance(9.5 * minute);
    await waitForAnswer(page, reportAfter(9));
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await waitForFact(page, 'status', 'cancelling');
    await service.waitFor(() => service.durableRun(runId)?.cancelRequestedAt !== undefined, 20_000);
    // The turn ends (at 10 minutes) before the cancellation would (a minute after it was asked).
    service.advance(minute);
    await waitForFact(page, 'status', 'succeeded');
    await page.getByText('The run finished before the cancel reached it.').waitFor(wait);
    await waitForAnswer(page, reportText);
    expect(service.durableRun(runId)?.state).toBe('SUCCEEDED');
  });

  it('completion winning a cancel is said so after a reload during the cancellation too', async () => {
    const page = await open('view=run&agent=clock-report-agent');
    const runId = await startRun(page);
    service.advance(9.5 * minute);
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await service.waitFor(() => service.durableRun(runId)?.cancelRequestedAt !== undefined, 20_000);

    await page.reload();
    await waitForFact(page, 'status', 'cancelling');
    service.advance(minute);
    await waitForFact(page, 'status', 'succeeded');
    await page.getByText('The run finished before the cancel reached it.').waitFor(wait);
    expect(service.durableStats.cancels).toBe(1);
  });

  it('two tabs on one run: one polls (Web Locks), the other follows through storage', async () => {
    const leader = await open('view=run&agent=steady-agent');
    const runId = await startRun(leader);
    const leaderTab = (await fact(leader, 'tab').textContent()) ?? '';
    await waitForFact(leader, 'connection', 'waiting');

    const follower = await open('view=run&agent=steady-agent');
    const followerTab = (await fact(follower, 'tab').textContent()) ?? '';
    await waitForFact(follower, 'run-id', runId);
    await waitForFact(follower, 'status', 'running');
    // The follower read the run once when it attached; the leader goes on polling alone.
    const followerReads = durableGets(followerTab);
    expect(followerReads).toBe(1);
    const leaderReads = durableGets(leaderTab);
    await service.waitFor(() => durableGets(leaderTab) >= leaderReads + 3, 30_000);
    expect(durableGets(followerTab)).toBe(followerReads);
    expect(await fact(follower, 'connection').textContent()).toBe('following');

    // The leader sees the end and writes it to the store: the follower reads once and shows it.
    service.advance(10 * minute);
    await waitForFact(leader, 'status', 'succeeded');
    await waitForFact(follower, 'status', 'succeeded');
    await waitForAnswer(follower, 'The steady answer is ready.');
    expect(durableGets(followerTab)).toBe(followerReads + 1);
    // onSettled once across the tabs.
    expect(await fact(leader, 'settled-count').textContent()).toBe('1');
    expect(await fact(follower, 'settled-count').textContent()).toBe('0');
    expect(service.postCount()).toBe(1);
  });

  it('an approval answered in the tab that follows wakes the tab that polls', async () => {
    const leader = await open('view=run&agent=approval-agent');
    await startRun(leader);
    const leaderTab = (await fact(leader, 'tab').textContent()) ?? '';
    const card = (page: Page) => page.getByRole('region', { name: 'Approval needed' });
    await card(leader).getByRole('heading', { name: 'Send Slack message to user' }).waitFor(wait);
    const follower = await open('view=run&agent=approval-agent');
    await waitForFact(follower, 'connection', 'following');
    // The polling tab now reads every 15 s: a person may answer elsewhere.
    await waitForFact(leader, 'connection', 'waiting');
    const leaderReads = durableGets(leaderTab);

    await card(follower).getByRole('button', { name: 'Approve' }).click();
    await service.waitFor(() => service.durableStats.responsesAccepted === 1, 20_000);
    // The follower wrote the new state to the store: the polling tab reads at once, not in 15 s.
    await service.waitFor(() => durableGets(leaderTab) > leaderReads, 5_000);
    await waitForFact(leader, 'status', 'succeeded');
    await waitForFact(follower, 'status', 'succeeded');
    expect(service.durableStats.toolsExecuted).toBe(1);
    expect(service.postCount()).toBe(1);
  });

  it('the follower takes over when the polling tab closes', async () => {
    const first = await open('view=run&agent=steady-agent');
    const runId = await startRun(first);
    const second = await open('view=run&agent=steady-agent');
    const secondTab = (await fact(second, 'tab').textContent()) ?? '';
    await waitForFact(second, 'connection', 'following');
    const reads = durableGets(secondTab);
    expect(reads).toBe(1);

    await first.close();
    await service.waitFor(() => durableGets(secondTab) >= reads + 2, 30_000);
    service.advance(10 * minute);
    await waitForFact(second, 'status', 'succeeded');
    await waitForFact(second, 'settled-count', '1');
    expect(await fact(second, 'run-id').textContent()).toBe(runId);
  });

  it('offline stops polling; online polls at once and shows what happened meanwhile', async () => {
    const page = await open('view=run&agent=clock-report-agent');
    await startRun(page);
    await waitForFact(page, 'connection', 'waiting');
    const attempts: string[] = [];
    page.on('request', (request) => {
      if (/\/runs\/[^/]+$/.test(new URL(request.url()).pathname)) attempts.push(request.url());
    });

    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    const readsOffline = durableGets();
    attempts.length = 0;
    service.advance(10 * minute);
    // The one window of the file: the quick schedule (a read a second) would try twice in it.
    await page.waitForTimeout(2500);
    expect(attempts).toEqual([]);
    expect(durableGets()).toBe(readsOffline);
    expect(await fact(page, 'connection').textContent()).toBe('offline');
    expect(await fact(page, 'status').textContent()).toBe('running');

    await context.setOffline(false);
    await service.waitFor(() => durableGets() > readsOffline, 10_000);
    await waitForFact(page, 'status', 'succeeded');
    await waitForAnswer(page, reportText);
  });

  it('a durable conversation: one POST per send, a reload re-attaches the turn, its answer once', async () => {
    const page = await open('view=chat&agent=clock-report-agent');
    await page.getByRole('textbox', { name: 'Message' }).fill('Write the weekly report');
    await page.getByRole('button', { name: 'Send' }).click();
    await waitForFact(page, 'status', 'running');
    const runId = (await fact(page, 'run-id').textContent()) ?? '';
    service.advance(4 * minute);
    const messages = page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await messages.filter({ hasText: exactly(`Agent: ${reportAfter(4)}`) }).waitFor(wait);

    await page.reload();
    await waitForFact(page, 'run-id', runId);
    service.advance(6 * minute);
    await messages.filter({ hasText: exactly(`Agent: ${reportText}`) }).waitFor(wait);
    await page.getByTestId('chat-status').filter({ hasText: 'idle' }).waitFor(wait);
    expect(await messages.allTextContents()).toEqual([
      'You: Write the weekly report',
      `Agent: ${reportText}`,
    ]);
    expect(service.postCount()).toBe(1);
    expect(service.runRequests()[0]?.body).toMatchObject({
      execution_mode: 'DURABLE',
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'Write the weekly report' }] }],
    });

    // The thread is still there after another reload, and nothing is sent for it.
    await page.reload();
    await messages
      .nth(1)
      .filter({ hasText: exactly(`Agent: ${reportText}`) })
      .waitFor(wait);
    expect(await messages.count()).toBe(2);
    expect(service.postCount()).toBe(1);
  });

  it('a durable conversation open in two tabs: one run, one poller, the answer once in each', async () => {
    const first = await open('view=chat&agent=steady-agent');
    await first.getByRole('textbox', { name: 'Message' }).fill('Write the weekly report');
    await first.getByRole('button', { name: 'Send' }).click();
    await waitForFact(first, 'status', 'running');
    const runId = (await fact(first, 'run-id').textContent()) ?? '';
    const firstTab = (await fact(first, 'tab').textContent()) ?? '';
    const second = await open('view=chat&agent=steady-agent');
    const secondTab = (await fact(second, 'tab').textContent()) ?? '';
    await waitForFact(second, 'run-id', runId);
    await waitForFact(second, 'connection', 'following');
    // Read when it attached (twice under StrictMode: the hook's remount attaches the turn again).
    const secondReads = durableGets(secondTab);
    expect(secondReads).toBeLessThanOrEqual(2);
    const firstReads = durableGets(firstTab);
    await service.waitFor(() => durableGets(firstTab) >= firstReads + 3, 30_000);
    expect(durableGets(secondTab)).toBe(secondReads);

    service.advance(10 * minute);
    for (const page of [first, second]) {
      const messages = page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
      await page.getByTestId('chat-status').filter({ hasText: 'idle' }).waitFor(wait);
      await messages
        .nth(1)
        .filter({ hasText: exactly('Agent: The steady answer is ready.') })
        .waitFor(wait);
      expect(await messages.allTextContents()).toEqual([
        'You: Write the weekly report',
        'Agent: The steady answer is ready.',
      ]);
    }
    expect(durableGets(secondTab)).toBe(secondReads + 1);
    expect(service.postCount()).toBe(1);
    // Both tabs saved the settled thread: a reload shows it once.
    await second.reload();
    const messages = second.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await messages
      .nth(1)
      .filter({ hasText: exactly('Agent: The steady answer is ready.') })
      .waitFor(wait);
    expect(await messages.count()).toBe(2);
    expect(service.postCount()).toBe(1);
  });

  it('Stop in a durable conversation cancels the run; the answer so far stays, marked stopped', async () => {
    const page = await open('view=chat&agent=clock-report-agent');
    await page.getByRole('textbox', { name: 'Message' }).fill('Write the weekly report');
    await page.getByRole('button', { name: 'Send' }).click();
    await waitForFact(page, 'status', 'running');
    service.advance(2 * minute);
    const answer = page
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: exactly(`Agent: ${reportAfter(2)}`) });
    await answer.waitFor(wait);
    await page.getByRole('button', { name: 'Stop' }).click();
    await service.waitFor(() => service.durableStats.cancels === 1, 20_000);
    service.advance(minute);
    await waitForFact(page, 'status', 'cancelled');
    await page
      .locator('li[data-status="stopped"]')
      .filter({ hasText: reportAfter(2) })
      .waitFor(wait);
    expect(service.requests.filter((record) => record.endpoint === 'durable-cancel')).toHaveLength(
      1,
    );
    expect(service.postCount()).toBe(1);
  });

  it('a durable conversation waiting for approval: the card after a reload, approved once', async () => {
    const page = await open('view=chat&agent=approval-agent');
    await page.getByRole('textbox', { name: 'Message' }).fill('Tell me when the report is ready');
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.getByRole('region', { name: 'Approval needed' });
    await card.getByRole('heading', { name: 'Send Slack message to user' }).waitFor(wait);

    await page.reload();
    await card.getByRole('button', { name: 'Approve' }).click();
    const messages = page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await page.getByTestId('chat-status').filter({ hasText: 'idle' }).waitFor(wait);
    expect(await messages.allTextContents()).toEqual([
      'You: Tell me when the report is ready',
      'Agent: I drafted the message and need your approval to send it.\n\nSent your Slack message.',
    ]);
    expect(service.durableStats).toMatchObject({ runsStarted: 1, toolsExecuted: 1 });
    expect(service.postCount()).toBe(1);
  });
});
