import { describe, expect, it } from 'vitest';
import {
  AgentHttpError,
  AgentNetworkError,
  createAgentClient,
  type RunStatus,
} from 'agent-console-kit';
import { createRunStream } from 'agent-console-kit/core';
import { textEvents } from 'agent-console-kit/testing';
import { serve } from '../../support/mock-server.js';

describe('given a drop mid-stream and a server that resumes from Last-Event-ID', () => {
  it('re-POSTs with Last-Event-ID and continues with every event exactly once', async () => {
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
    expect(
      final.events.map((event) => [event.sequence, event.id, event.attempt, event.restart]),
    ).toEqual([
      [1, '1', 1, false],
      [2, '2', 1, false],
      [3, '3', 2, false],
      [4, '4', 2, false],
      [5, '5', 2, false],
    ]);
    expect(final.attempt).toBe(2);
    expect(final.restarts).toBe(0);
    expect(final.duplicateEvents).toBe(0);
    expect(final.lastEventId).toBe('5');
    expect(mock.runRequests().map((request) => request.lastEventId)).toEqual([undefined, '2']);
    expect(statuses).toEqual(['connecting', 'streaming', 'reconnecting', 'streaming', 'done']);
  });
});

describe('given a 429 on the first POST and a drop mid-stream after that', () => {
  it('says why it tries again in reconnectReason, and clears it once a response opens', async () => {
    const mock = await serve({
      events: textEvents('one two three four'),
      failFirst: { attempts: 1, status: 429, retryAfter: '0' },
      dropAfter: 2,
      onReconnect: 'resume',
    });
    const seen: [RunStatus, string | undefined][] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5 },
      onStatusChange: (status, snapshot) => {
        const reason = snapshot.reconnectReason;
        seen.push([
          status,
          reason instanceof AgentHttpError
            ? `http ${reason.status}`
            : reason instanceof AgentNetworkError
              ? 'network'
              : reason === undefined
                ? undefined
                : 'other',
        ]);
      },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.text).toBe('one two three four');
    expect(seen).toEqual([
      ['connecting', undefined],
      ['reconnecting', 'http 429'],
      ['streaming', undefined],
      ['reconnecting', 'network'],
      ['streaming', undefined],
      ['done', undefined],
    ]);
    expect(final.reconnectReason).toBeUndefined();
  });

  it('keeps the reason out of a run that gives up: the error is in error', async () => {
    const mock = await serve({
      events: textEvents('never'),
      failFirst: { attempts: 5, status: 503 },
    });
    const reasons: unknown[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 1, maxAttempts: 2 },
      onStatusChange: (status, snapshot) => reasons.push(snapshot.reconnectReason),
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('error');
    expect(final.error).toBeInstanceOf(AgentHttpError);
    expect(reasons[1]).toBeInstanceOf(AgentHttpError);
    expect(final.reconnectReason).toBeUndefined();
  });
});

describe('given a drop mid-stream and a server that starts the run over', () => {
  it('counts a restart, marks the boundary, and keeps only the new attempt in text', async () => {
    const mock = await serve({
      events: textEvents('alpha beta gamma'),
      dropAfter: 2,
      onReconnect: 'restart',
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5 },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.restarts).toBe(1);
    expect(final.text).toBe('alpha beta gamma');
    expect(
      final.events.map((event) => [event.id, event.attempt, event.restart, event.text]),
    ).toEqual([
      ['1', 1, false, 'alpha '],
      ['2', 1, false, 'beta '],
      ['1', 2, true, 'alpha '],
      ['2', 2, false, 'beta '],
      ['3', 2, false, 'gamma'],
    ]);
    expect(final.totalEvents).toBe(5);
    expect(mock.runRequests()[1]?.lastEventId).toBe('2');
  });

  it('after two restarts still holds exactly one copy of the output', async () => {
    const mock = await serve({
      events: textEvents('a b c'),
      dropAfter: 2,
      dropTimes: 2,
      onReconnect: 'restart',
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 2 },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.restarts).toBe(2);
    expect(final.attempt).toBe(3);
    expect(final.text).toBe('a b c');
    expect(mock.postCount()).toBe(3);
  });
});

describe('given a resuming server that sends an event again', () => {
  it('shows it once and counts the duplicate', async () => {
    const mock = await serve({
      // Explicit ids: the resumed attempt (items 3..5) sends id 2 again after id 3.
      events: [
        {
          data: { messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text: 'a' }] }] },
          id: 1,
        },
        {
          data: { messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text: 'b' }] }] },
          id: 2,
        },
        {
          data: { messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text: 'c' }] }] },
          id: 3,
        },
        {
          data: { messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text: 'b' }] }] },
          id: 2,
        },
        {
          data: { messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text: 'd' }] }] },
          id: 4,
        },
      ],
      dropAfter: 2,
      onReconnect: 'resume',
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5 },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.events.map((event) => event.id)).toEqual(['1', '2', '3', '4']);
    expect(final.duplicateEvents).toBe(1);
    expect(final.text).toBe('abcd');
    expect(final.lastEventId).toBe('4');
  });
});

describe("given midStream: 'fail'", () => {
  it('ends a dropped run in an AgentNetworkError after one POST', async () => {
    const mock = await serve({ events: textEvents('one two three'), dropAfter: 1 });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5, midStream: 'fail' },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('error');
    expect(final.error).toBeInstanceOf(AgentNetworkError);
    expect(final.error?.message).toContain('dropped mid-stream');
    expect(final.text).toBe('one ');
    expect(mock.postCount()).toBe(1);
  });
});

describe("given the server's retry: field", () => {
  it('waits at least that long before reconnecting', async () => {
    const mock = await serve({
      events: textEvents('x y z'),
      dropAfter: 1,
      onReconnect: 'resume',
      retryField: 250,
    });
    const delays: number[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 5, jitter: 'none' },
      sleep: async (ms) => {
        delays.push(ms);
      },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.text).toBe('x y z');
    expect(delays).toEqual([250]);
  });
});

describe('given a token that changes between attempts', () => {
  it('asks for it again and sends the fresh one on the reconnect', async () => {
    const mock = await serve({ events: textEvents('a b c'), dropAfter: 1, onReconnect: 'resume' });
    const tokens = ['first-token-AAAA', 'second-token-BBBB'];
    let asked = 0;
    const client = createAgentClient({
      baseUrl: mock.url,
      token: async () => tokens[Math.min(asked++, tokens.length - 1)],
    });
    const stream = createRunStream(client, { reconnect: { baseDelayMs: 5 } });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(asked).toBe(2);
    expect(mock.runRequests().map((request) => request.tokenFingerprint)).toEqual(['AAAA', 'BBBB']);
  });
});

describe('given a half-open socket (no bytes, not closed) and idleTimeoutMs', () => {
  it('treats the silence as a drop, resumes, and ends when attempts run out', async () => {
    const mock = await serve({
      events: textEvents('a b c d e f'),
      halfOpenAfter: 2,
      onReconnect: 'resume',
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      idleTimeoutMs: 250,
      reconnect: { baseDelayMs: 5, maxAttempts: 2 },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('error');
    expect(final.error).toBeInstanceOf(AgentNetworkError);
    expect(final.error?.message).toContain('No byte');
    expect(final.events.map((event) => event.id)).toEqual(['1', '2', '3', '4']);
    expect(final.text).toBe('a b c d ');
    expect(mock.postCount()).toBe(2);
    await mock.waitFor(() => mock.openStreams === 0);
    expect(mock.runRequests().every((request) => request.closedByClient === true)).toBe(true);
  });

  it('is not fooled by heartbeats: a slow stream that sends them is not idle', async () => {
    // Gaps of 400 ms between events, a heartbeat every 10 ms, idle after 300 ms without a byte.
    const mock = await serve({
      events: textEvents('slow alive'),
      delayMs: 400,
      heartbeatEveryMs: 10,
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      idleTimeoutMs: 300,
      reconnect: { baseDelayMs: 5 },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.attempt).toBe(1);
    expect(final.text).toBe('slow alive');
  });
});
