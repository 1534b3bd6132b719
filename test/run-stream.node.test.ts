import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentClient, createRunStream, type RunStatus } from 'agent-console-kit/core';
import {
  createMockAgentServer,
  textEvents,
  type MockAgentServer,
  type MockRunScenario,
} from 'agent-console-kit/testing';

// Plain Node (no window, no document): the run stream picks the fetch transport by itself.
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

  it('reconnects after a drop with Last-Event-ID and delivers every event once', async () => {
    const mock = await serve({
      events: textEvents('one two three four five'),
      dropAfter: 2,
      onReconnect: 'resume',
    });
    const statuses: RunStatus[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5 },
      onStatusChange: (status) => statuses.push(status),
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.text).toBe('one two three four five');
    expect(final.events.map((event) => event.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(final.duplicateEvents).toBe(0);
    expect(mock.runRequests().map((request) => request.lastEventId)).toEqual([undefined, '2']);
    expect(statuses).toEqual(['connecting', 'streaming', 'reconnecting', 'streaming', 'done']);
  });

  it('aborts a streaming run: status aborted, the server sees the client go', async () => {
    const mock = await serve({ events: textEvents('one two three'), delayMs: 20, neverEnd: true });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const running = stream.start({ agentId: 'agent' });
    await vi.waitFor(() => expect(stream.getSnapshot().events.length).toBeGreaterThanOrEqual(1));
    stream.abort();
    const final = await running;

    expect(final.status).toBe('aborted');
    await mock.waitFor(() => mock.openStreams === 0);
    expect(mock.runRequests()[0]?.closedByClient).toBe(true);
    expect(mock.postCount()).toBe(1);
  });
});
