/**
 * The fault tests every SSE transport must pass, against the mock agent server. Each transport's
 * test file calls {@link describeSseTransportFaults}: the same behaviour in a browser (jsdom) and in
 * plain Node.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AgentHttpError,
  AgentNetworkError,
  AgentValidationError,
  createAgentClient,
  type AgentClientOptions,
  type SseTransport,
} from 'agent-console-kit/core';
import type { SseMessage } from '../../src/core/wire/sse-types.js';
import {
  createMockAgentServer,
  textEvents,
  type MockAgentDefinition,
  type MockAgentServer,
} from 'agent-console-kit/testing';
import { type StreamRunOptions } from '../../src/core/wire/sse-types.js';

const token = 'secret-token-1234';

function agent(agentId: string, run: MockAgentDefinition['run']): MockAgentDefinition {
  return { agent: { agent_id: agentId, name: agentId, capabilities: {} }, run };
}

const multiByteText = 'Grüße 👋🏽 from 東京';

export function describeSseTransportFaults(transport: SseTransport): void {
  let server: MockAgentServer;

  beforeEach(async () => {
    server = await createMockAgentServer({
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
        agent('id-between', { events: [{ text: 'a' }, { raw: 'id: 9\n\n' }, { text: 'b' }] }),
        agent('crlf', { events: textEvents('carriage return line feed'), lineEnding: '\r\n' }),
        agent('cr-at-end', { events: [{ raw: 'id: 1\rdata: {"last":true}\r\r' }] }),
        agent('bytes', { events: textEvents(multiByteText), chunkSize: 1 }),
        agent('drops', { events: textEvents('a b c d'), dropAfter: 2 }),
        agent('half-open', { events: textEvents('a b c d'), halfOpenAfter: 1 }),
        agent('needs-auth', { failFirst: { attempts: Infinity, status: 401 } }),
      ],
    });
  });

  afterEach(async () => {
    await server.close();
  });

  // The client sends each request and hands the response to the transport under test.
  async function connect(
    agentId: string,
    overrides: Partial<StreamRunOptions> = {},
    clientOptions: Partial<AgentClientOptions> = {},
  ): Promise<{ messages: SseMessage[]; result: Promise<{ outcome: 'closed' | 'aborted' }> }> {
    const client = createAgentClient({ baseUrl: server.url, token, ...clientOptions });
    const messages: SseMessage[] = [];
    const result = client.streamRun(
      { agentId },
      {
        transport,
        signal: new AbortController().signal,
        onMessage: (message) => messages.push(message),
        ...overrides,
      },
    );
    return { messages, result };
  }

  describe('given a stream that ends cleanly', () => {
    it('delivers each event once and resolves closed', async () => {
      const onOpen = vi.fn();
      const { messages, result } = await connect('hello', { onOpen });

      await expect(result).resolves.toEqual({ outcome: 'closed' });

      expect(onOpen).toHaveBeenCalledTimes(1);
      expect(messages.map((message) => [message.id, message.event])).toEqual([
        ['1', 'message'],
        ['2', 'message'],
      ]);
      expect(server.postCount('hello')).toBe(1);
    });

    it('sends Accept once, as a plain header', async () => {
      const { result } = await connect('hello', {}, { headers: { Accept: 'text/event-stream' } });
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

    it('reports an id-only frame in order with the events around it', async () => {
      const calls: string[] = [];
      const { result } = await connect('id-between', {
        onMessage: (message) => calls.push(`event ${message.id}`),
        onId: (id) => calls.push(`id ${id}`),
      });
      await result;

      expect(calls).toEqual(['event 1', 'id 9', 'event 2']);
    });
  });

  describe('given CRLF line endings', () => {
    it('reads the same events as with LF', async () => {
      const { messages, result } = await connect('crlf');
      await result;

      expect(messages.map((message) => message.id)).toEqual(['1', '2', '3', '4']);
      expect(messages.every((message) => !message.data.includes('\r'))).toBe(true);
      expect(messages.map((message) => message.data).join('')).toContain('carriage');
    });
  });

  describe('given a stream whose last frame ends with a bare CR', () => {
    it('delivers that frame (no LF can follow once the stream ended)', async () => {
      const { messages, result } = await connect('cr-at-end');
      await result;

      expect(messages).toEqual([
        { id: '1', event: 'message', data: '{"last":true}', lastEventId: '1' },
      ]);
    });
  });

  describe('given a stream written one byte at a time', () => {
    it('reassembles multi-byte characters split across chunks', async () => {
      const { messages, result } = await connect('bytes');
      await result;

      const text = messages.map((message) => message.data).join('');
      expect(text).not.toContain('\uFFFD');
      for (const word of ['Grüße', '👋🏽', '東京']) expect(text).toContain(word);
    });
  });

  describe('given an already aborted signal', () => {
    it('sends nothing', async () => {
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
      await expect.poll(() => messages.length).toBeGreaterThanOrEqual(1);

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
      // A transport with a retry loop of its own (fetch-event-source's) would POST again after 1 s.
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
    it('rejects with that error, dispatches nothing more and never retries', async () => {
      const thrown = new Error('handler bug');
      const onMessage = vi.fn(() => {
        throw thrown;
      });
      const { result } = await connect('hello', { onMessage });

      await expect(result).rejects.toBe(thrown);
      expect(onMessage).toHaveBeenCalledTimes(1);
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

  describe('given a half-open connection and an idle timeout', () => {
    it('rejects with an AgentNetworkError naming the timeout, after the events that came', async () => {
      const { messages, result } = await connect('half-open', { idleTimeoutMs: 300 });

      const error = await result.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AgentNetworkError);
      expect(String(error)).toContain('300 ms');
      expect(messages).toHaveLength(1);
      await server.waitFor(() => server.openStreams === 0);
    });
  });

  describe('given a server that cannot be reached', () => {
    it('rejects with an AgentNetworkError whose message keeps the secret out', async () => {
      const dead = await createMockAgentServer({ agents: [] });
      await dead.close();
      // The platform path holds the agent id: here the token, so the URL of the error holds it.
      const client = createAgentClient({ baseUrl: dead.url, api: 'platform', token });
      const result = client.streamRun(
        { agentId: `key=${token}`, input: {} },
        { transport, signal: new AbortController().signal, onMessage: () => undefined },
      );

      const error = await result.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AgentNetworkError);
      expect(String(error)).toContain('[redacted]');
      expect(String(error)).not.toContain(token);
    });
  });
}
