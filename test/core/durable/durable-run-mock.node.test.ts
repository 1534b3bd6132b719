/**
 * DurableRun against the package's mock service: its durable runs on a clock the test drives (the
 * page's clock and the service's are one), counted at the service.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient, createDurableRunStore } from 'agent-console-kit';
import {
  AgentDurableUnavailableError,
  AgentUnsupportedError,
  createDurableRun,
  type DurableRun,
  type KeyValueStorage,
} from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';
import { fakeLocks, manualPage, type ManualPage } from '../../support/durable-environment.js';

const ask = (text: string) => ({ messages: [{ role: 'USER', content: [{ type: 'text', text }] }] });

async function setUp(options: { token?: () => Promise<string> } = {}) {
  const page = manualPage();
  const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
  const client = createAgentClient({
    baseUrl: server.url,
    api: 'platform',
    token: options.token ?? 'mock-token-1234',
  });
  const storage: KeyValueStorage = createMemoryStorage();
  const settled: string[] = [];
  const load = (agentId: string, environment = page.environment) =>
    createDurableRun(client, {
      agentId,
      store: createDurableRunStore({ storage, now: environment.now }),
      environment,
      onSettled: (snapshot) => settled.push(`${snapshot.runId}:${snapshot.status}`),
    });
  return { page, server, client, storage, settled, load };
}

const starts = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'run').length;

async function idle(run: DurableRun) {
  await expect.poll(() => run.getSnapshot().connection).not.toBe('polling');
}

async function tick(page: ManualPage, run: DurableRun, ms: number) {
  for (let left = ms; left > 0; left -= 500) {
    page.advance(Math.min(500, left));
    await idle(run);
  }
}

describe('given the mock service', () => {
  it('start → polls → succeeded with the output once; a reload mid-run and after; onSettled once', async () => {
    const { page, server, load, settled } = await setUp();
    try {
      const first = load('durable-agent');
      await first.start(ask('Write the report'));
      await idle(first);
      const runId = first.getSnapshot().runId ?? '';
      await tick(page, first, 3000);
      const partial = first.getSnapshot().output.text;
      expect(partial.length).toBeGreaterThan(0);
      first.detach(); // the reload

      const second = load('durable-agent');
      await second.resume();
      expect(second.getSnapshot()).toMatchObject({ runId, resumed: true, status: 'running' });
      expect(second.getSnapshot().output.text.startsWith(partial)).toBe(true);
      await tick(page, second, 4000);
      const done = second.getSnapshot();
      expect(done.status).toBe('succeeded');
      expect(done.output.segments).toHaveLength(1);
      expect(done.output.text).toMatch(/^Collecting the sources\..*ready for review\.$/);

      const third = load('durable-agent');
      await third.resume();
      expect(third.getSnapshot().output.text).toBe(done.output.text);
      expect(settled).toEqual([`${runId}:succeeded`]);
      expect(server.service.durableStats.runsStarted).toBe(1);
      expect(starts(server)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a reload while the start POST is on its way: start-unknown, never sent again', async () => {
    // The token never comes: the record is written, the POST waits.
    const { server, load } = await setUp({ token: () => new Promise<string>(() => undefined) });
    try {
      const first = load('durable-agent');
      void first.start(ask('Book the room'));
      expect(first.getSnapshot().status).toBe('starting');
      const second = load('durable-agent');
      await second.resume();
      expect(second.getSnapshot()).toMatchObject({
        status: 'start-unknown',
        request: { preview: 'Book the room' },
      });
      await second.refresh();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(starts(server)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a gateway 502 to the start: start-unknown, one POST at the service', async () => {
    const { server, load } = await setUp();
    try {
      server.inject('durable-agent', { status: 502, endpoint: 'run', times: 1 });
      const run = load('durable-agent');
      await run.start(ask('Hello'));
      expect(run.getSnapshot().status).toBe('start-unknown');
      const reloaded = load('durable-agent');
      await reloaded.resume();
      expect(reloaded.getSnapshot().status).toBe('start-unknown');
      expect(starts(server)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('approve: the tool runs once, both turns are shown in order', async () => {
    const { page, server, load, settled } = await setUp();
    try {
      const run = load('approval-agent');
      await run.start(ask('Tell me on Slack'));
      await idle(run);
      await tick(page, run, 2000);
      const paused = run.getSnapshot();
      expect(paused.status).toBe('requires-input');
      expect(paused.pendingInteractions).toHaveLength(1);
      const [interaction] = paused.pendingInteractions;
      await run.respond([{ interactionId: interaction?.interactionId ?? '', decision: 'APPROVE' }]);
      await tick(page, run, 3000);
      expect(run.getSnapshot()).toMatchObject({
        status: 'succeeded',
        output: {
          text: 'I drafted the message and need your approval to send it.\n\nSent your Slack message.',
        },
      });
      expect(server.service.durableStats.toolsExecuted).toBe(1);
      expect(settled).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('reject: no tool runs', async () => {
    const { page, server, load } = await setUp();
    try {
      const run = load('approval-agent');
      await run.start(ask('Tell me on Slack'));
      await idle(run);
      await tick(page, run, 2000);
      const [interaction] = run.getSnapshot().pendingInteractions;
      await run.respond([{ interactionId: interaction?.interactionId ?? '', decision: 'REJECT' }]);
      await tick(page, run, 3000);
      expect(settled(run)).toBe(true);
      expect(server.service.durableStats.toolsExecuted).toBe(0);
      expect(server.service.durableStats.responsesAccepted).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('cancel: cancelling, then cancelled; completion winning: succeeded with a note', async () => {
    const { page, server, load } = await setUp();
    try {
      const cancelled = load('durable-agent');
      await cancelled.start(ask('One'));
      await idle(cancelled);
      await tick(page, cancelled, 1000);
      await cancelled.cancel();
      expect(['cancelling']).toContain(cancelled.getSnapshot().status);
      await tick(page, cancelled, 2000);
      expect(cancelled.getSnapshot().status).toBe('cancelled');

      const racing = load('durable-agent');
      await racing.start(ask('Two'));
      await idle(racing);
      await tick(page, racing, 5500); // the turn ends at 6 s, before the 1 s of cancelling
      await racing.cancel();
      await tick(page, racing, 2000);
      expect(racing.getSnapshot()).toMatchObject({
        status: 'succeeded',
        note: 'completed-before-cancel',
      });
      expect(server.service.durableStats.cancels).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('an unknown run id (404): lost, not read again', async () => {
    const { page, server, load } = await setUp();
    try {
      const run = load('durable-agent');
      await run.attach('0123456789abcdef0123456789abcdef');
      expect(run.getSnapshot().status).toBe('lost');
      await tick(page, run, 10_000);
      expect(server.service.durableStats.polls).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('two pages with one lock: the service sees the reads of one', async () => {
    const { page, server, load } = await setUp();
    try {
      const locks = fakeLocks();
      const pageA = manualPage({ locks });
      const pageB = manualPage({ locks });
      // Both pages on the service's clock.
      const environmentA = { ...pageA.environment, now: page.environment.now };
      const environmentB = { ...pageB.environment, now: page.environment.now };
      const a = load('durable-agent', environmentA);
      await a.start(ask('Shared'));
      await idle(a);
      const runId = a.getSnapshot().runId ?? '';
      const b = load('durable-agent', environmentB);
      await b.attach(runId);
      await expect.poll(() => b.getSnapshot().connection).toBe('following');
      for (let step = 0; step < 14; step++) {
        page.advance(500);
        pageA.advance(500);
        pageB.advance(500);
        await idle(a);
        await idle(b);
      }
      expect(a.getSnapshot().status).toBe('succeeded');
      await expect.poll(() => b.getSnapshot().status).toBe('succeeded');
      expect(b.getSnapshot().output.text).toBe(a.getSnapshot().output.text);
      const polls = server.service.durableRun(runId)?.polls ?? 0;
      // A: about one read a second for 7 s; B: one on attach and one per change it saw.
      expect(a.getSnapshot().polls).toBeGreaterThanOrEqual(6);
      expect(polls).toBe(a.getSnapshot().polls + b.getSnapshot().polls);
      expect(b.getSnapshot().polls).toBeLessThan(a.getSnapshot().polls);
    } finally {
      await server.close();
    }
  });
});

function settled(run: DurableRun): boolean {
  return ['succeeded', 'failed', 'cancelled', 'expired'].includes(run.getSnapshot().status);
}

describe('given a deployment or a client without durable runs', () => {
  it('a 400 on execution_mode: failed with the typed error, no record, one POST', async () => {
    const page = manualPage();
    const server = await createMockAgentServer({ agents: demoAgents, durableRuns: false });
    try {
      const store = createDurableRunStore({ storage: 'memory' });
      const run = createDurableRun(createAgentClient({ baseUrl: server.url, api: 'platform' }), {
        agentId: 'durable-agent',
        store,
        environment: page.environment,
      });
      await run.start(ask('Hello'));
      expect(run.getSnapshot().status).toBe('failed');
      expect(run.getSnapshot().error).toBeInstanceOf(AgentDurableUnavailableError);
      expect(store.list()).toEqual([]);
      expect(starts(server)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a rest-v1 client: failed with AgentUnsupportedError, nothing sent, no record', async () => {
    const page = manualPage();
    const server = await createMockAgentServer({ agents: demoAgents });
    try {
      const store = createDurableRunStore({ storage: 'memory' });
      const run = createDurableRun(createAgentClient({ baseUrl: server.url }), {
        agentId: 'durable-agent',
        store,
        environment: page.environment,
      });
      await run.start(ask('Hello'));
      expect(run.getSnapshot().status).toBe('failed');
      expect(run.getSnapshot().error).toBeInstanceOf(AgentUnsupportedError);
      expect(store.list()).toEqual([]);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
