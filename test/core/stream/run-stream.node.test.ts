import { afterEach, describe, expect, it } from 'vitest';
import { createAgentClient, createRunStream } from 'agent-console-kit/core';
import {
  createMockAgentServer,
  textEvents,
  type MockAgentServer,
  type MockRunScenario,
} from 'agent-console-kit/testing';

// Plain Node (no window, no document): the run stream picks the fetch transport by itself. The
// RunStream test files (reconnect, abort, backoff, batching) run in this project too.
let server: MockAgentServer | undefined;

async function serve(run: MockRunScenario): Promise<MockAgentServer> {
  server = await createMockAgentServer({
    agents: [{ agent: { agent_id: 'agent', name: 'Agent', capabilities: {} }, run }],
  });
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('given RunStream in plain Node with the default transport', () => {
  it('runs an agent to done and reads its text', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const mock = await serve({ events: textEvents('Hello from Node') });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url, token: 'node-token' }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.error).toBeUndefined();
    expect(final.text).toBe('Hello from Node');
    expect(mock.runRequests()[0]?.headers['authorization']).toBeDefined();
  });
});
