/**
 * The page's first durable turn while the durable run's code loads (by `import()`, once per page:
 * this file holds one test, run before anything has loaded it). Real sockets: the package's mock
 * service, on a clock the test drives.
 */
import { describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import { createAgentConversation } from 'agent-console-kit/core';
import { createMemoryStorage } from '../../../src/core/storage/durable-run-store.js';
import { createMockAgentServer, demoAgents } from 'agent-console-kit/testing';
import { manualPage, tickConversation } from '../../support/durable-environment.js';

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
      await tickConversation(page, conversation, 3000);
      const settled = await done;
      expect(settled.messages[1]).toMatchObject({ status: 'stopped' });
      expect(settled.durableRun?.status).toBe('cancelled');
      expect(server.requests.filter((request) => request.endpoint === 'run')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
