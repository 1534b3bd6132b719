import { createServer, type IncomingMessage } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentInputError,
  buildRunInput,
  createAgentClient,
  formFieldsFromSchema,
  type AgentRunRequest,
  type RunSnapshot,
  assertCompleteInput,
} from 'agent-console-kit';
import { createRunStream } from 'agent-console-kit/core';
import { initialRunSnapshot } from '../../../src/core/stream/run-stream.js';
import { messagePayload, textEvents } from 'agent-console-kit/testing';
import { serve, serveForTest } from '../../support/mock-server.js';

describe('given an abort while the request is being prepared', () => {
  it('sends nothing and lands in aborted', async () => {
    const mock = await serve({ events: textEvents('never') });
    let releaseToken: (token: string) => void = () => undefined;
    const client = createAgentClient({
      baseUrl: mock.url,
      token: () => new Promise<string>((resolve) => (releaseToken = resolve)),
    });
    const stream = createRunStream(client);

    const done = stream.start({ agentId: 'agent' });
    expect(stream.getSnapshot().status).toBe('connecting');
    stream.abort();
    releaseToken('late-token-1234');

    await expect(done).resolves.toMatchObject({ status: 'aborted', attempt: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mock.postCount()).toBe(0);
    expect(stream.getSnapshot().status).toBe('aborted');
  });
});

describe('given an abort before the response opens', () => {
  it('closes the socket the server holds', async () => {
    // A server that reads the request and never answers: the response never opens.
    const closed: string[] = [];
    let received: IncomingMessage | undefined;
    const silent = createServer((request) => {
      received = request;
      request.socket.on('close', () => closed.push('socket'));
      request.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const stream = createRunStream(createAgentClient({ baseUrl: `http://127.0.0.1:${port}` }));
      const done = stream.start({ agentId: 'agent' });
      await expect.poll(() => received).toBeDefined();
      expect(stream.getSnapshot().status).toBe('connecting');

      stream.abort();

      await expect(done).resolves.toMatchObject({ status: 'aborted', attempt: 1 });
      await expect.poll(() => closed).toEqual(['socket']);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('given an abort while streaming', () => {
  it('closes the stream the server sees, and no later event reaches the snapshot', async () => {
    const mock = await serve({
      events: textEvents('a b c d e f g h'),
      delayMs: 15,
      neverEnd: true,
    });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const done = stream.start({ agentId: 'agent' });
    await expect.poll(() => stream.getSnapshot().totalEvents).toBeGreaterThanOrEqual(2);

    stream.abort();
    const aborted = stream.getSnapshot();

    expect(aborted.status).toBe('aborted');
    expect(aborted.endedAt).toBeTypeOf('number');
    await expect(done).resolves.toBe(aborted);
    await mock.waitFor(() => mock.openStreams === 0);
    expect(mock.runRequests()[0]?.closedByClient).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(stream.getSnapshot()).toBe(aborted);
    expect(mock.postCount()).toBe(1);
  });

  it('works from inside onEvent: the rest of the same chunk is not applied', async () => {
    // Five events in one write: the transport dispatches the whole chunk synchronously.
    const raw = ['a ', 'b ', 'c ', 'd ', 'e']
      .map((text, index) => `id: ${index + 1}\ndata: ${JSON.stringify(messagePayload(text))}\n\n`)
      .join('');
    const mock = await serve({ events: [{ raw }] });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      onEvent: (event) => {
        if (event.sequence === 2) stream.abort();
      },
    });

    const final = await stream.start({ agentId: 'agent' });
    await new Promise((resolve) => setTimeout(resolve, 40));

    expect(final.status).toBe('aborted');
    expect(final.events.map((event) => event.id)).toEqual(['1', '2']);
    expect(final.text).toBe('a b ');
    expect(stream.getSnapshot()).toBe(final);
  });
});

describe('given an abort while waiting to reconnect', () => {
  it('stops the wait: no second POST', async () => {
    const mock = await serve({ events: textEvents('x'), failFirst: { attempts: 1, status: 503 } });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      reconnect: { baseDelayMs: 60_000 },
    });
    const done = stream.start({ agentId: 'agent' });
    await expect.poll(() => stream.getSnapshot().status).toBe('reconnecting');
    expect(stream.getSnapshot().nextAttemptAt).toBeTypeOf('number');

    stream.abort();

    const final = await done;
    expect(final.status).toBe('aborted');
    expect(final.nextAttemptAt).toBeUndefined();
    expect(mock.postCount()).toBe(1);
  });
});

describe('given start() twice in a row', () => {
  it('aborts the first run, and nothing of it reaches the second', async () => {
    const mock = await serveForTest({
      agents: [
        {
          agent: { agent_id: 'first', name: 'First', capabilities: {} },
          run: { events: textEvents('FIRST FIRST FIRST'), delayMs: 10, neverEnd: true },
        },
        {
          agent: { agent_id: 'second', name: 'Second', capabilities: {} },
          run: { events: textEvents('second run'), delayMs: 10 },
        },
      ],
    });
    const seen: RunSnapshot[] = [];
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    stream.subscribe(() => seen.push(stream.getSnapshot()));

    const first = stream.start({ agentId: 'first' });
    const second = stream.start({ agentId: 'second' });

    await expect(first).resolves.toMatchObject({ status: 'aborted' });
    const final = await second;
    expect(final.status).toBe('done');
    expect(final.text).toBe('second run');
    expect(final.request?.agentId).toBe('second');
    const afterSecondStart = seen.slice(
      seen.findIndex((snapshot) => snapshot.request?.agentId === 'second'),
    );
    expect(afterSecondStart.every((snapshot) => !snapshot.text.includes('FIRST'))).toBe(true);
    expect(afterSecondStart.every((snapshot) => snapshot.request?.agentId === 'second')).toBe(true);
    expect(mock.postCount('second')).toBe(1);
    // The first run may have been sent before the second start; if so its stream was closed.
    expect(mock.postCount('first')).toBeLessThanOrEqual(1);
    await mock.waitFor(() => mock.openStreams === 0);
  });

  it('closes a first run that was streaming', async () => {
    const mock = await serve({ events: textEvents('a b c d e f'), delayMs: 10, neverEnd: true });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    void stream.start({ agentId: 'agent' });
    await expect.poll(() => stream.getSnapshot().totalEvents).toBeGreaterThanOrEqual(1);

    void stream.start({ agentId: 'agent' });

    await expect.poll(() => mock.runRequests()[0]?.closedByClient).toBe(true);
    expect(stream.getSnapshot().attempt).toBeLessThanOrEqual(1);
    stream.abort();
  });
});

describe('given a request that must not be sent', () => {
  it('refuses a blank agent id: error, attempt 0, nothing sent, start() does not throw', async () => {
    const mock = await serve({});
    const onError = vi.fn();
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), { onError });

    const final = await stream.start({ agentId: '  ' });

    expect(final.status).toBe('error');
    expect(final.error).toBeInstanceOf(AgentInputError);
    expect(final.attempt).toBe(0);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses an input that lacks form fields, listing them, before any request', async () => {
    const inputSchema = {
      type: 'object',
      properties: {
        topic: { type: 'string' },
        depth: { type: 'integer' },
        tone: { type: 'string' },
      },
      required: ['topic'],
    };
    const mock = await serve({ events: textEvents('ok') }, { input_schema: inputSchema });
    const fields = formFieldsFromSchema(inputSchema);
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const check = (request: AgentRunRequest) => assertCompleteInput(fields, request.input);
    const refused = await stream.start({ agentId: 'agent', check, input: { topic: 'zod' } });

    expect(refused.status).toBe('error');
    expect((refused.error as AgentInputError).missingFields).toEqual(['depth', 'tone']);
    expect(refused.attempt).toBe(0);
    expect(mock.postCount()).toBe(0);

    const accepted = await stream.start({
      agentId: 'agent',
      check,
      input: buildRunInput(fields, { topic: 'zod' }),
    });

    expect(accepted.status).toBe('done');
    expect(mock.runRequests()[0]?.body).toMatchObject({
      input: { topic: 'zod', depth: '', tone: '' },
    });
  });

  it('refuses a required field left empty', async () => {
    const fields = formFieldsFromSchema({
      properties: { topic: { type: 'string' } },
      required: ['topic'],
    });
    const mock = await serve({});
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));

    const final = await stream.start({
      agentId: 'agent',
      check: (request) => assertCompleteInput(fields, request.input),
      input: { topic: '' },
    });

    expect((final.error as AgentInputError).missingFields).toEqual(['topic']);
    expect(mock.postCount()).toBe(0);
  });

  it('ends in error when the token function throws, with nothing sent', async () => {
    const mock = await serve({});
    const client = createAgentClient({
      baseUrl: mock.url,
      token: () => {
        throw new Error('session expired');
      },
    });
    const stream = createRunStream(client);

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('error');
    expect(final.error?.message).toContain('session expired');
    expect(final.attempt).toBe(0);
    expect(mock.postCount()).toBe(0);
  });
});

describe('given abort() or reset() with no run', () => {
  it('abort does nothing and reset keeps the initial snapshot', () => {
    const stream = createRunStream(createAgentClient({ baseUrl: 'http://127.0.0.1:9' }));
    const listener = vi.fn();
    stream.subscribe(listener);

    stream.abort();
    stream.reset();

    expect(stream.getSnapshot()).toBe(initialRunSnapshot);
    expect(listener).not.toHaveBeenCalled();
  });

  it('reset during a run closes it and returns to idle', async () => {
    const mock = await serve({ events: textEvents('a b c'), delayMs: 10, neverEnd: true });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const done = stream.start({ agentId: 'agent' });
    await expect.poll(() => stream.getSnapshot().totalEvents).toBeGreaterThanOrEqual(1);

    stream.reset();

    expect(stream.getSnapshot()).toBe(initialRunSnapshot);
    await expect(done).resolves.toMatchObject({ status: 'aborted' });
    await mock.waitFor(() => mock.openStreams === 0);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(stream.getSnapshot()).toBe(initialRunSnapshot);
  });
});

describe('given callbacks and listeners that throw', () => {
  it('reports them and goes on: no retry, no error status', async () => {
    const mock = await serve({ events: textEvents('a b c') });
    const report = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
        reconnect: { baseDelayMs: 1 },
        onEvent: () => {
          throw new Error('onEvent bug');
        },
        onStatusChange: () => {
          throw new Error('onStatusChange bug');
        },
      });
      stream.subscribe(() => {
        throw new Error('listener bug');
      });

      const final = await stream.start({ agentId: 'agent' });

      expect(final.status).toBe('done');
      expect(final.text).toBe('a b c');
      expect(mock.postCount()).toBe(1);
      expect(report).toHaveBeenCalled();
    } finally {
      report.mockRestore();
    }
  });
});
