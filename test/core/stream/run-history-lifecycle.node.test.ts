import { describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import { createRunHistory, createRunStream } from 'agent-console-kit/core';
import { textEvents } from 'agent-console-kit/testing';
import { serve } from '../../support/mock-server.js';

const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('given a run history', () => {
  it('records from its first subscriber to its last one', async () => {
    const mock = await serve({ events: textEvents('answer') });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const history = createRunHistory(stream);

    await stream.start({ agentId: 'agent' });
    expect(history.getSnapshot()).toHaveLength(0);

    const unsubscribe = history.subscribe(() => undefined);
    await stream.start({ agentId: 'agent' });
    expect(history.getSnapshot()).toMatchObject([{ status: 'done', text: 'answer' }]);

    unsubscribe();
    await microtask();
    await stream.start({ agentId: 'agent' });
    expect(history.getSnapshot()).toHaveLength(1);
  });

  it('subscribed and connected, it records each run once', async () => {
    const mock = await serve({ events: textEvents('answer') });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const history = createRunHistory(stream);
    history.subscribe(() => undefined);
    history.connect();

    await stream.start({ agentId: 'agent' });

    expect(history.getSnapshot()).toHaveLength(1);
  });
});
