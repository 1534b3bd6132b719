import { describe, expect, it, vi } from 'vitest';
import {
  AgentHttpError,
  AgentNetworkError,
  AgentValidationError,
  createAgentClient,
  fetchEventSourceTransport,
  type SseConnectOptions,
  type SseMessage,
} from 'agent-console-kit';
import { textEvents, type MockAgentDefinition } from 'agent-console-kit/testing';
import { setUpMockServer } from './support/mock-server.js';

const token = 'secret-token-1234';

function agent(agentId: string, run: MockAgentDefinition['run']): MockAgentDefinition {
  return { agent: { agent_id: agentId, name: agentId, capabilities: {} }, run };
}

const server = setUpMockServer(
  {
    agents: [
      agent('hello', { events: textEvents('Hello there') }),
      agent('slow', { events: textEvents('one two three'), delayMs: 20, neverEnd: true }),
      agent('heartbeats', {
        events: [
          { comment: 'keep-alive' },
          { raw: 'retry: 1234\n\n' },
          { raw: 'id: 7\n\n' },
          { raw: 'event: ping\ndata:\n\n' },
          { text: 'after the noise' },
        ],
      }),
      agent('drops', { events: textEvents('a b c d'), dropAfter: 2 }),
      agent('needs-auth', { failFirst: { attempts: Infinity, status: 401 } }),
    ],
  },
  { scope: 'test' },
);

async function connect(
  agentId: string,
  overrides: Partial<SseConnectOptions> = {},
): Promise<{ messages: SseMessage[]; result: Promise<{ outcome: 'closed' | 'aborted' }> }> {
  const client = createAgentClient({ baseUrl: server.url, token });
  const prepared = await client.prepareRun({ agentId });
  const messages: SseMessage[] = [];
  const result = fetchEventSourceTransport({
    ...prepared,
    signal: new AbortController().signal,
    onMessage: (message) => messages.push(message),
    ...overrides,
  });
  return { messages, result };
}

describe('given a stream that ends cleanly', () => {
  it('delivers each event once and resolves closed', async () => {
    const { messages, result } = await connect('hello');

    await expect(result).resolves.toEqual({ outcome: 'closed' });

    expect(messages.map((message) => [message.id, message.event])).toEqual([
      ['1', 'message'],
      ['2', 'message'],
    ]);
    expect(server.postCount('hello')).toBe(1);
  });

  it('sends Accept once, as a plain header (not doubled by fetch-event-source)', async () => {
    const { result } = await connect('hello');
    await result;

    expect(server.runRequests('hello')[0]?.headers['accept']).toBe('text/event-stream');
  });
});

describe('given heartbeat comments, a lone retry and an id-only frame', () => {
  it('dispatches none of them as events but applies retry and id', async () => {
    const onRetry = vi.fn();
    const onId = vi.fn();
    const { messages, result } = await connect('heartbeats', { onRetry, onId });
    await result;

    expect(messages).toHaveLength(1);
    expect(messages[0]?.data).toContain('after the noise');
    expect(onRetry).toHaveBeenCalledWith(1234);
    expect(onId).toHaveBeenCalledWith('7');
  });
});

describe('given an already aborted signal', () => {
  it('sends nothing (fetch-event-source would ignore the signal)', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await connect('hello', { signal: controller.signal });

    await expect(result).resolves.toEqual({ outcome: 'aborted' });
    expect(server.postCount()).toBe(0);
  });
});

describe('given an abort while streaming', () => {
  it('resolves aborted (not closed) and the server sees the client go', async () => {
    const controller = new AbortController();
    const { messages, result } = await connect('slow', { signal: controller.signal });
    await vi.waitFor(() => expect(messages.length).toBeGreaterThanOrEqual(1));

    controller.abort();

    await expect(result).resolves.toEqual({ outcome: 'aborted' });
    // (Not openSockets: after an abort undici opens a spare idle keep-alive connection.)
    await server.waitFor(() => server.openStreams === 0);
    expect(server.runRequests('slow')[0]?.closedByClient).toBe(true);
  });
});

describe('given a final HTTP status', () => {
  it('rejects with an AgentHttpError, sends one POST, and keeps the token out of it', async () => {
    const { result } = await connect('needs-auth');

    const error = await result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentHttpError);
    expect((error as AgentHttpError).status).toBe(401);
    expect(JSON.stringify(error) + String(error)).not.toContain(token);
    // fetch-event-source's own retry loop would POST again after 1 s.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(server.postCount('needs-auth')).toBe(1);
  });
});

describe('given a 2xx that is not an event stream', () => {
  it('rejects with an AgentValidationError holding the body', async () => {
    server.inject('hello', { status: 200, body: { answer: 42 } });
    const { result } = await connect('hello');

    const error = await result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentValidationError);
    expect((error as AgentValidationError).body).toEqual({ answer: 42 });
  });
});

describe('given a handler that throws', () => {
  it('rejects with that error and never retries', async () => {
    const thrown = new Error('handler bug');
    const { result } = await connect('hello', {
      onMessage: () => {
        throw thrown;
      },
    });

    await expect(result).rejects.toBe(thrown);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(server.postCount('hello')).toBe(1);
  });
});

describe('given a connection dropped mid-stream', () => {
  it('rejects with an AgentNetworkError after the events that came', async () => {
    const onOpen = vi.fn();
    const { messages, result } = await connect('drops', { onOpen });

    await expect(result).rejects.toBeInstanceOf(AgentNetworkError);
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(messages).toHaveLength(2);
  });
});

describe('given a tab hidden and shown again', () => {
  it('keeps the one request open (openWhenHidden: true), with no second POST', async () => {
    const hidden = vi.spyOn(document, 'hidden', 'get');
    try {
      const controller = new AbortController();
      const { messages, result } = await connect('slow', { signal: controller.signal });
      await vi.waitFor(() => expect(messages.length).toBeGreaterThanOrEqual(1));

      hidden.mockReturnValue(true);
      document.dispatchEvent(new Event('visibilitychange'));
      hidden.mockReturnValue(false);
      document.dispatchEvent(new Event('visibilitychange'));
      await vi.waitFor(() => expect(messages.length).toBe(3));
      // Time for a close to reach the server, had the request been aborted.
      await new Promise((resolve) => setTimeout(resolve, 50));

      expect(server.runRequests('slow')[0]?.closedByClient).toBeUndefined();
      expect(server.openStreams).toBe(1);
      expect(server.postCount('slow')).toBe(1);
      expect(messages.map((message) => message.id)).toEqual(['1', '2', '3']);
      controller.abort();
      await result;
    } finally {
      hidden.mockRestore();
    }
  });
});
