/**
 * The page's first durable turn while the durable run's code loads (by `import()`, once per page:
 * this file holds one test, run before anything has loaded it). Real sockets: the package's mock
 * service, on a clock the test drives.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import { createAgentConversation, type AgentConversation } from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents } from 'agent-console-kit/testing';
import { manualPage, type ManualPage } from '../../support/durable-environment.js';

async function idle(conversation: AgentConversation) {
  await expect
    .poll(() => {
      const run = conversation.getSnapshot().durableRun;
      return run?.connection === 'polling' || run?.status === 'starting';
    })
    .toBe(false);
}

async function tick(page: ManualPage, conversation: AgentConversation, ms: number) {
  for (let left = ms; left > 0; left -= 500) {
    page.advance(Math.min(500, left));
    await idle(conversation);
  }
}

describe('given the first durable turn of a page, while the durable run’s code loads', () => {
  it('waits connecting; a Stop meanwhile starts the run once loaded and cancels it once its id comes', async () => {
    const page = manualPage();
    const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
    try {
      const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-9d1e' });
      // No thread store: nothing has loaded the durable run's code before the first send.
      const conversation = createAgentConversation(client, {
        agentId: 'durable-agent',
        executionMode: 'durable',
        durableRun: page.durableRun(createMemoryStorage()),
      });
      const done = conversation.send('Write the report');
      const loading = conversation.getSnapshot();
      expect(loading.turnStatus).toBe('connecting');
      expect(loading.durableRun?.status).toBe('starting');
      expect(loading.messages[1]).toMatchObject({ role: 'GLEAN_AI', status: 'streaming' });
      conversation.stop();

      await expect.poll(() => server.service.durableStats.cancels).toBe(1);
      await tick(page, conversation, 3000);
      const settled = await done;
      expect(settled.messages[1]).toMatchObject({ status: 'stopped' });
      expect(settled.durableRun?.status).toBe('cancelled');
      expect(server.requests.filter((request) => request.endpoint === 'run')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
