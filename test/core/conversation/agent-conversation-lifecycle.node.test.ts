import { describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import { createAgentConversation } from 'agent-console-kit/core';
import { textEvents } from 'agent-console-kit/testing';
import { serveChat } from '../../support/mock-server.js';

const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

async function answering(disposeWhenUnobserved: boolean) {
  const mock = await serveChat({ events: textEvents('a b c d e f'), delayMs: 15, neverEnd: true });
  const conversation = createAgentConversation(createAgentClient({ baseUrl: mock.url }), {
    agentId: 'chat',
    disposeWhenUnobserved,
  });
  const unsubscribe = conversation.subscribe(() => undefined);
  const settled = conversation.send('Hello');
  await mock.waitFor(() => mock.openStreams === 1);
  return { mock, conversation, unsubscribe, settled };
}

describe('given disposeWhenUnobserved', () => {
  it('the last unsubscribe stops the turn: the server sees the stream close', async () => {
    const { mock, conversation, unsubscribe, settled } = await answering(true);

    unsubscribe();

    await settled;
    await mock.waitFor(() => mock.openStreams === 0);
    expect(mock.runRequests()[0]?.closedByClient).toBe(true);
    expect(conversation.getSnapshot().messages.at(-1)?.status).toBe('stopped');
  });

  it('a subscriber back within the grace (a StrictMode remount) keeps the turn', async () => {
    const { mock, conversation, unsubscribe } = await answering(true);

    unsubscribe();
    const again = conversation.subscribe(() => undefined);
    await microtask();
    await new Promise((resolve) => setTimeout(resolve, 40));

    expect(mock.openStreams).toBe(1);
    expect(conversation.getSnapshot().messages.at(-1)?.status).toBe('streaming');
    again();
    await mock.waitFor(() => mock.openStreams === 0);
  });

  it('a send after the last subscriber left sends nothing', async () => {
    const mock = await serveChat({ events: textEvents('too late') });
    const conversation = createAgentConversation(createAgentClient({ baseUrl: mock.url }), {
      agentId: 'chat',
      disposeWhenUnobserved: true,
    });
    conversation.subscribe(() => undefined)();
    await microtask();

    await conversation.send('Hello');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(mock.postCount()).toBe(0);
  });
});

describe('given no disposeWhenUnobserved (the default)', () => {
  it('the turn goes on after the last unsubscribe', async () => {
    const { mock, conversation, unsubscribe } = await answering(false);
    unsubscribe();
    await microtask();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(mock.openStreams).toBe(1);
    conversation.stop();
    await mock.waitFor(() => mock.openStreams === 0);
  });
});
