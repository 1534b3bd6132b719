import { describe, expect, it, vi } from 'vitest';
import {
  AgentHttpError,
  AgentNetworkError,
  createAgentClient,
  type RunStatus,
} from 'agent-console-kit';
import { createRunStream, type AgentApi, type SseTransport } from 'agent-console-kit/core';
import { runFailedEvent, textEvents } from 'agent-console-kit/testing';
import { serve } from '../../support/mock-server.js';

const userMessage = [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }];

describe('given a stream that closes cleanly', () => {
  it.each<AgentApi>(['rest-v1', 'platform'])(
    'on %s goes connecting → streaming → done with every event once and the text',
    async (api) => {
      const mock = await serve({ events: textEvents('Hello there, world') });
      const statuses: RunStatus[] = [];
      const stream = createRunStream(
        createAgentClient({ baseUrl: mock.url, api, token: 'tok-abcd' }),
        {
          onStatusChange: (status) => statuses.push(status),
        },
      );

      const final = await stream.start({ agentId: 'agent', messages: userMessage });

      expect(statuses).toEqual(['connecting', 'streaming', 'done']);
      expect(final.status).toBe('done');
      expect(final.text).toBe('Hello there, world');
      expect(
        final.events.map((event) => [event.sequence, event.id, event.kind, event.attempt]),
      ).toEqual([
        [1, '1', 'message', 1],
        [2, '2', 'message', 1],
        [3, '3', 'message', 1],
      ]);
      expect(final.attempt).toBe(1);
      expect(final.error).toBeUndefined();
      expect(final.startedAt).toBeTypeOf('number');
      expect(final.firstEventAt).toBeGreaterThanOrEqual(final.startedAt ?? Infinity);
      expect(final.endedAt).toBeGreaterThanOrEqual(final.firstEventAt ?? Infinity);
      expect(mock.postCount('agent')).toBe(1);
      expect(stream.getSnapshot()).toBe(final);
    },
  );

  it('is done with zero events', async () => {
    const mock = await serve({ events: [] });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.events).toEqual([]);
    expect(final.text).toBe('');
  });

  it('appends only agent text blocks, never the user role or other block types', async () => {
    const mock = await serve({
      events: [
        {
          data: {
            messages: [
              { role: 'USER', content: [{ type: 'text', text: 'echo of the question' }] },
              {
                role: 'GLEAN_AI',
                content: [
                  { type: 'text', text: 'Answer' },
                  { type: 'image', url: 'x' },
                ],
              },
            ],
          },
        },
        {
          data: { messages: [{ role: 'ASSISTANT_NEXT', content: [{ type: 'text', text: '!' }] }] },
        },
      ],
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.text).toBe('Answer!');
    expect(final.events.map((event) => event.text)).toEqual(['Answer', '!']);
  });
});

describe('given a delay between events', () => {
  it('notifies listeners while streaming, before the end', async () => {
    const mock = await serve({ events: textEvents('a b c d e'), delayMs: 40 });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const seenWhileStreaming = new Set<number>();
    stream.subscribe(() => {
      const snapshot = stream.getSnapshot();
      if (snapshot.status === 'streaming') seenWhileStreaming.add(snapshot.totalEvents);
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.text).toBe('a b c d e');
    // 0 at open, then the events one by one as the 40 ms gaps separate them
    expect(seenWhileStreaming.size).toBeGreaterThanOrEqual(3);
  });
});

describe('given heartbeat comments between events', () => {
  it('keeps them out of the events', async () => {
    const mock = await serve({
      events: [{ comment: 'keep-alive' }, ...textEvents('x y'), { comment: 'bye' }],
      delayMs: 30,
      heartbeatEveryMs: 5,
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.events.map((event) => event.id)).toEqual(['1', '2']);
    expect(final.text).toBe('x y');
  });
});

describe('given CRLF line endings', () => {
  it('parses the same events and text', async () => {
    const mock = await serve({ events: textEvents('one two three'), lineEnding: '\r\n' });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.events.map((event) => [event.id, event.event, event.kind])).toEqual([
      ['1', 'message', 'message'],
      ['2', 'message', 'message'],
      ['3', 'message', 'message'],
    ]);
    expect(final.text).toBe('one two three');
  });
});

describe('given chunks of single bytes splitting multi-byte characters', () => {
  it('reassembles the text exactly', async () => {
    const text = 'Grüße 👋🏽 日本語 ok';
    const mock = await serve({ events: textEvents(text), chunkSize: 1 });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.text).toBe(text);
    expect(final.events).toHaveLength(4);
    expect(final.events.every((event) => event.kind === 'message')).toBe(true);
  });
});

describe('given malformed JSON in an event', () => {
  it('keeps the raw text flagged, goes on, and never retries', async () => {
    const mock = await serve({
      events: [{ text: 'a' }, { data: '{"messages": [' }, { text: 'b' }],
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.events[1]).toMatchObject({
      id: '2',
      data: '{"messages": [',
      payload: undefined,
      kind: 'parse-error',
      text: '',
    });
    expect(final.text).toBe('ab');
    expect(mock.postCount()).toBe(1);
  });
});

describe('given a message event of an undocumented shape (a legacy failure)', () => {
  it('keeps it as an event flagged invalid, without inventing an error', async () => {
    const mock = await serve({
      events: [{ text: 'partial' }, { data: { error: { message: 'agent crashed' } } }],
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.events[1]).toMatchObject({
      event: 'message',
      kind: 'invalid',
      payload: { error: { message: 'agent crashed' } },
    });
    expect(final.text).toBe('partial');
  });
});

describe('given an unknown event name', () => {
  it('keeps it with its payload', async () => {
    const mock = await serve({
      events: [{ event: 'tool.call', data: { tool: 'search', query: 'zod' } }, { text: 'done' }],
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.events[0]).toMatchObject({
      event: 'tool.call',
      kind: 'unknown',
      payload: { tool: 'search', query: 'zod' },
    });
    expect(final.text).toBe('done');
  });
});

describe('given a 1 MB event', () => {
  it('receives it whole', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const mock = await serve({ events: [{ text: 'start ' }, { text: big }, { text: ' end' }] });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.events[1]?.text.length).toBe(big.length);
    expect(final.text).toBe(`start ${big} end`);
  });
});

describe('given run.failed on the platform API', () => {
  it('ends in error with the problem detail and never reconnects, even for a 503', async () => {
    const mock = await serve({
      events: [
        { text: 'partial' },
        runFailedEvent({ status: 503, code: 'service_unavailable', detail: 'The model is down' }),
        { text: 'after the failure' },
      ],
    });
    const client = createAgentClient({ baseUrl: mock.url, api: 'platform' });
    const stream = createRunStream(client, { reconnect: { baseDelayMs: 5 } });

    const final = await stream.start({ agentId: 'agent', messages: userMessage });

    expect(final.status).toBe('error');
    expect(final.error).toBeInstanceOf(AgentHttpError);
    expect(final.error).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      detail: 'The model is down',
    });
    expect(final.events.map((event) => event.kind)).toEqual(['message', 'run-failed']);
    expect(final.text).toBe('partial');
    expect(mock.postCount()).toBe(1);
  });

  it('uses 500 when the problem has no status, and flags a payload that is not a problem', async () => {
    const mock = await serve({ events: [{ event: 'run.failed', data: { error: 'flat string' } }] });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url, api: 'platform' }));

    const final = await stream.start({ agentId: 'agent', messages: userMessage });

    expect(final.status).toBe('error');
    expect((final.error as AgentHttpError).status).toBe(500);
    expect(final.events[0]).toMatchObject({ event: 'run.failed', kind: 'invalid' });
  });
});

describe('given a final HTTP status', () => {
  it.each([400, 401, 403, 404, 409, 413, 422, 500])(
    'ends in error at %i after exactly one POST',
    async (status) => {
      const mock = await serve({ failFirst: { attempts: Infinity, status } });
      const onError = vi.fn();
      const stream = createRunStream(createAgentClient({ baseUrl: mock.url, token: 'tok-abcd' }), {
        reconnect: { baseDelayMs: 1, maxAttempts: 5 },
        onError,
      });

      const final = await stream.start({ agentId: 'agent' });

      expect(final.status).toBe('error');
      expect((final.error as AgentHttpError).status).toBe(status);
      expect(final.attempt).toBe(1);
      expect(mock.postCount()).toBe(1);
      expect(onError).toHaveBeenCalledWith(final.error, final);
    },
  );

  it('carries the parsed body of a 401 and never the token', async () => {
    const mock = await serve({ failFirst: { attempts: Infinity, status: 401 } });
    const stream = createRunStream(
      createAgentClient({ baseUrl: mock.url, api: 'platform', token: 'very-secret-token' }),
    );

    const final = await stream.start({ agentId: 'agent', messages: userMessage });

    const error = final.error as AgentHttpError;
    expect(error.code).toBe('authentication_required');
    expect(error.body).toMatchObject({ status: 401 });
    expect(`${error.message} ${JSON.stringify(error.body)}`).not.toContain('very-secret-token');
  });
});

describe('given retryable statuses before the stream opens', () => {
  it.each([408, 429, 502, 503, 504])('retries %i and then streams', async (status) => {
    const mock = await serve({ events: textEvents('finally'), failFirst: { attempts: 2, status } });
    const statuses: RunStatus[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 2 },
      onStatusChange: (next) => statuses.push(next),
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.attempt).toBe(3);
    expect(final.text).toBe('finally');
    expect(mock.postCount()).toBe(3);
    expect(statuses).toEqual(['connecting', 'reconnecting', 'reconnecting', 'streaming', 'done']);
    expect(final.events.every((event) => event.attempt === 3)).toBe(true);
  });

  it('waits the Retry-After seconds (and tells when in nextAttemptAt)', async () => {
    const mock = await serve({
      events: textEvents('ok'),
      failFirst: { attempts: 2, status: 429, retryAfter: '1' },
    });
    const delays: number[] = [];
    const nextAttempts: (number | undefined)[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5 },
      now: () => 1_000_000,
      sleep: async (ms) => {
        delays.push(ms);
        nextAttempts.push(stream.getSnapshot().nextAttemptAt);
      },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(delays).toEqual([1000, 1000]);
    expect(nextAttempts).toEqual([1_001_000, 1_001_000]);
    expect(final.nextAttemptAt).toBeUndefined();
  });

  it('waits until a Retry-After HTTP date', async () => {
    const mock = await serve({
      events: textEvents('ok'),
      failFirst: {
        attempts: 1,
        status: 503,
        retryAfter: new Date(Date.now() + 5000).toUTCString(),
      },
    });
    const delays: number[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5 },
      sleep: async (ms) => {
        delays.push(ms);
      },
    });

    await stream.start({ agentId: 'agent' });

    expect(delays).toHaveLength(1);
    // An HTTP date has whole seconds: 4 to 5 s from now.
    expect(delays[0]).toBeGreaterThan(3000);
    expect(delays[0]).toBeLessThanOrEqual(5000);
  });

  it('gives up at once on a Retry-After longer than maxDelayMs', async () => {
    const mock = await serve({ failFirst: { attempts: 1, status: 429, retryAfter: '120' } });
    const sleep = vi.fn(async () => undefined);
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5, maxDelayMs: 30_000 },
      sleep,
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('error');
    expect(final.error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(sleep).not.toHaveBeenCalled();
    expect(mock.postCount()).toBe(1);
  });

  it('stops after maxAttempts POSTs with the last error', async () => {
    const mock = await serve({ failFirst: { attempts: Infinity, status: 503 } });
    const delays: number[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { maxAttempts: 3, baseDelayMs: 100, jitter: 'none' },
      sleep: async (ms) => {
        delays.push(ms);
      },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('error');
    expect((final.error as AgentHttpError).status).toBe(503);
    expect(final.attempt).toBe(3);
    expect(mock.postCount()).toBe(3);
    expect(delays).toEqual([100, 200]);
  });
});

describe('given no server listening', () => {
  it('retries the network failure, then ends in an AgentNetworkError', async () => {
    const mock = await serve({});
    const url = mock.url;
    await mock.close();
    const stream = createRunStream(createAgentClient({ baseUrl: url }), {
      reconnect: { maxAttempts: 2, baseDelayMs: 1 },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('error');
    expect(final.error).toBeInstanceOf(AgentNetworkError);
    expect(final.attempt).toBe(2);
  });
});

describe('receivedAt', () => {
  it('is read once per network read: the events of one read share it, the next read has its own', async () => {
    let clock = 1_000;
    // The client opens a real response; the transport ignores it and hands over the events itself.
    const mock = await serve({ events: [] });
    const transport: SseTransport = async (_response, options) => {
      // One read carrying two events, then another read carrying one.
      options.onMessage({ id: '1', event: 'message', data: '{"messages":[]}' });
      options.onMessage({ id: '2', event: 'message', data: '{"messages":[]}' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      options.onMessage({ id: '3', event: 'message', data: '{"messages":[]}' });
      return { outcome: 'closed' };
    };
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      transport,
      now: () => (clock += 10),
    });

    const final = await stream.start({ agentId: 'agent' });

    const [first, second, third] = final.events.map((event) => event.receivedAt);
    expect(final.events).toHaveLength(3);
    expect(second).toBe(first);
    expect(third).toBeGreaterThan(first ?? Number.POSITIVE_INFINITY);
  });
});
