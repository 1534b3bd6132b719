import { describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import { classifyEvent, createRunStream } from 'agent-console-kit/core';
import { openEventStream, serveSse, writeChunk } from '../../support/sse-test-server.js';

// The last event id an event carries, as `EventSource` reports it on its `MessageEvent`.

const payload = (text: string) =>
  JSON.stringify({ messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text }] }] });

describe('given events after `id: 1` with no id of their own', () => {
  it('carries on each event its own id, else the latest before it; none after an empty id', async () => {
    const server = await serveSse((_post, response) => {
      openEventStream(response);
      response.end(
        [
          `id: 1\ndata: ${payload('a')}\n\n`,
          `data: ${payload('b')}\n\n`,
          // A frame with an id and no data: not an event, but the last event id moves.
          'id: 7\n\n',
          `event: note\ndata: ${payload('c')}\n\n`,
          // An id holding NUL is ignored.
          `id: 8\0\ndata: ${payload('d')}\n\n`,
          `id:\ndata: ${payload('e')}\n\n`,
          `data: ${payload('f')}\n\n`,
        ].join(''),
      );
    });
    const stream = createRunStream(createAgentClient({ baseUrl: server.url }));

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.events.map((event) => [event.id, event.lastEventId])).toEqual([
      ['1', '1'],
      [undefined, '1'],
      [undefined, '7'],
      [undefined, '7'],
      [undefined, ''],
      [undefined, ''],
    ]);
  });
});

describe('given a drop after `id: 2` and a server that resumes with events without ids', () => {
  it('carries the id the attempt resumed from (sent as Last-Event-ID) until the stream sets another', async () => {
    const server = await serveSse(async (post, response) => {
      openEventStream(response);
      if (post === 1) {
        await writeChunk(response, `id: 2\ndata: ${payload('a')}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        response.destroy();
        return;
      }
      response.end(`data: ${payload('b')}\n\nid: 3\ndata: ${payload('c')}\n\n`);
    });
    const stream = createRunStream(createAgentClient({ baseUrl: server.url }), {
      reconnect: { baseDelayMs: 1 },
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(server.requests[1]?.headers['last-event-id']).toBe('2');
    expect(final.events.map((event) => [event.attempt, event.id, event.lastEventId])).toEqual([
      [1, '2', '2'],
      [2, undefined, '2'],
      [2, '3', '3'],
    ]);
  });
});

describe('given a frame classified on its own (classifyEvent)', () => {
  it('takes the last event id from the frame, else its id, else none', () => {
    const data = payload('a');

    expect(classifyEvent({ event: 'message', data, lastEventId: '4' }).lastEventId).toBe('4');
    expect(classifyEvent({ id: '5', event: 'message', data }).lastEventId).toBe('5');
    expect(classifyEvent({ event: 'message', data }).lastEventId).toBe('');
  });
});
