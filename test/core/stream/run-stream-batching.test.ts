import { describe, expect, it } from 'vitest';
import { createAgentClient, type RunSnapshot } from 'agent-console-kit';
import { createRunStream } from 'agent-console-kit/core';
import { manyEvents, textEvents } from 'agent-console-kit/testing';
import { serve } from '../../support/mock-server.js';

function expectedText(count: number) {
  let text = '';
  for (let index = 1; index <= count; index++) text += `${index} `;
  return text;
}

describe('given 10,000 events in one burst', () => {
  it('notifies listeners a handful of times, and the terminal snapshot holds every event', async () => {
    const mock = await serve({ events: manyEvents(10_000) });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const notified: RunSnapshot[] = [];
    stream.subscribe(() => notified.push(stream.getSnapshot()));

    const final = await stream.start({ agentId: 'agent' });

    // connecting, attempt 1, streaming, a few frames, done: nowhere near one per event
    expect(notified.length).toBeLessThanOrEqual(30);
    expect(notified.at(-1)).toBe(final);
    expect(final.status).toBe('done');
    expect(final.totalEvents).toBe(10_000);
    expect(final.text).toBe(expectedText(10_000));
    // The default bounded buffer: the newest 5000, the rest counted.
    expect(final.events).toHaveLength(5000);
    expect(final.droppedEvents).toBe(5000);
    expect(final.events[0]?.id).toBe('5001');
    expect(final.events.at(-1)?.id).toBe('10000');
  });
});

describe('given 100,000 events', () => {
  it('keeps every one counted and the text whole', async () => {
    const mock = await serve({ events: manyEvents(100_000) });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), { maxEvents: 1000 });
    let notifications = 0;
    stream.subscribe(() => notifications++);

    const final = await stream.start({ agentId: 'agent' });

    expect(final.totalEvents).toBe(100_000);
    expect(final.events).toHaveLength(1000);
    expect(final.events.map((event) => event.sequence)).toEqual(
      Array.from({ length: 1000 }, (_, index) => 99_001 + index),
    );
    expect(final.droppedEvents).toBe(99_000);
    expect(final.text).toBe(expectedText(100_000));
    expect(notifications).toBeLessThan(final.totalEvents / 100);
  });
});

describe('given maxEvents', () => {
  it('keeps the newest events, counts the dropped ones, and leaves text whole', async () => {
    const mock = await serve({ events: textEvents('a b c d e f g h i j k l') });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), { maxEvents: 5 });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.events.map((event) => event.id)).toEqual(['8', '9', '10', '11', '12']);
    expect(final.droppedEvents).toBe(7);
    expect(final.totalEvents).toBe(12);
    expect(final.text).toBe('a b c d e f g h i j k l');
  });

  it('keeps the newest in order after the buffer wrapped many times (200 events, 7 kept)', async () => {
    const mock = await serve({ events: manyEvents(200) });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), { maxEvents: 7 });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.events.map((event) => event.sequence)).toEqual([
      194, 195, 196, 197, 198, 199, 200,
    ]);
    expect(final.droppedEvents).toBe(193);
    expect(final.text).toBe(expectedText(200));
  });

  it('applies a maxEvents set with setOptions during a run to the events kept', async () => {
    const mock = await serve({ events: manyEvents(20) });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), { maxEvents: 10 });
    stream.observe({
      onEvent: (event) => {
        if (event.sequence === 12) stream.setOptions({ maxEvents: 3 });
      },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.events.map((event) => event.sequence)).toEqual([18, 19, 20]);
    expect(final.droppedEvents).toBe(17);
    expect(final.totalEvents).toBe(20);
  });
});

describe('given a throttle', () => {
  it('never notifies per event while events stream in', async () => {
    const mock = await serve({ events: textEvents('a b c d e f g h i j'), delayMs: 5 });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), { throttleMs: 200 });
    const streamingCounts: number[] = [];
    stream.subscribe(() => {
      const snapshot = stream.getSnapshot();
      if (snapshot.status === 'streaming') streamingCounts.push(snapshot.totalEvents);
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.totalEvents).toBe(10);
    // Event notifications come at most once per 200 ms; the run streams in about 50 ms.
    expect(streamingCounts.length).toBeLessThan(final.totalEvents);
  });
});

describe('given snapshots', () => {
  it('returns the same object until something changes', async () => {
    const mock = await serve({ events: textEvents('a b'), delayMs: 20 });
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }));
    const identities = new Set<RunSnapshot>();
    stream.subscribe(() => {
      expect(stream.getSnapshot()).toBe(stream.getSnapshot());
      identities.add(stream.getSnapshot());
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(stream.getSnapshot()).toBe(final);
    expect(stream.getSnapshot()).toBe(stream.getSnapshot());
    // every notification brought a new object, never a mutated old one
    const all = [...identities];
    expect(all.map((snapshot) => snapshot.totalEvents)).toEqual(
      [...all.map((snapshot) => snapshot.totalEvents)].sort((left, right) => left - right),
    );
    expect(all[0]?.status).toBe('connecting');
    expect(all[0]?.events).toHaveLength(0);
  });
});
