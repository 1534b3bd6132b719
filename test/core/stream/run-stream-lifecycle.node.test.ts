import { describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import { createRunStream } from 'agent-console-kit/core';
import { textEvents } from 'agent-console-kit/testing';
import { serve } from '../../support/mock-server.js';

const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

async function streaming() {
  const mock = await serve({ events: textEvents('a b c d e f'), delayMs: 15, neverEnd: true });
  const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
    abortWhenUnobserved: true,
  });
  const unsubscribe = stream.subscribe(() => undefined);
  const done = stream.start({ agentId: 'agent' });
  await mock.waitFor(() => mock.openStreams === 1);
  return { mock, stream, unsubscribe, done };
}

describe('given abortWhenUnobserved', () => {
  it('the last unsubscribe aborts the run: the server sees the stream close', async () => {
    const { mock, stream, unsubscribe, done } = await streaming();

    unsubscribe();

    await expect(done).resolves.toMatchObject({ status: 'aborted' });
    await mock.waitFor(() => mock.openStreams === 0);
    expect(mock.runRequests()[0]?.closedByClient).toBe(true);
    expect(stream.getSnapshot().status).toBe('aborted');
  });

  it('a subscriber back within the grace (a StrictMode remount) keeps the run', async () => {
    const { mock, stream, unsubscribe } = await streaming();

    unsubscribe();
    const again = stream.subscribe(() => undefined);
    await microtask();
    await new Promise((resolve) => setTimeout(resolve, 40));

    expect(stream.getSnapshot().status).toBe('streaming');
    expect(mock.openStreams).toBe(1);
    again();
    await mock.waitFor(() => mock.openStreams === 0);
  });

  it('a start() after the last subscriber left is aborted before its request goes out', async () => {
    const mock = await serve({ events: textEvents('too late') });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      abortWhenUnobserved: true,
    });
    stream.subscribe(() => undefined)();
    await microtask();

    await expect(stream.start({ agentId: 'agent' })).resolves.toMatchObject({ status: 'aborted' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(mock.postCount()).toBe(0);
  });

  it('a start() before anyone subscribed runs (a child starts before its parent subscribes)', async () => {
    const mock = await serve({ events: textEvents('early') });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), {
      abortWhenUnobserved: true,
    });
    await expect(stream.start({ agentId: 'agent' })).resolves.toMatchObject({ status: 'done' });
    expect(mock.postCount()).toBe(1);
  });
});

describe('given no abortWhenUnobserved (the default)', () => {
  it('the run goes on after the last unsubscribe', async () => {
    const mock = await serve({ events: textEvents('one two three'), delayMs: 10 });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const done = stream.start({ agentId: 'agent' });
    stream.subscribe(() => undefined)();

    await expect(done).resolves.toMatchObject({ status: 'done', text: 'one two three' });
  });
});
