/**
 * What a hostile server must not get from a transport, through a whole `RunStream` and a real
 * socket: each transport's test file calls {@link describeHostileServer}.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentEventTooLargeError,
  createAgentClient,
  createRunStream,
  type SseTransport,
} from 'agent-console-kit/core';
import { openEventStream, serveSse, streamEndlessLine, writeChunk } from './sse-test-server.js';
import { defaultMaxEventSize } from '../../src/core/wire/sse-attempt.js';

const payload = JSON.stringify({ messages: [] });

export function describeHostileServer(transport: SseTransport): void {
  describe('given a data line that never ends', () => {
    it('ends the run with an AgentEventTooLargeError at the default bound, closes the connection and never retries', async () => {
      let written: Promise<number> | undefined;
      const server = await serveSse((_post, response) => {
        written = streamEndlessLine(response);
        return written;
      });
      const stream = createRunStream(createAgentClient({ baseUrl: server.url }), {
        transport,
        reconnect: { baseDelayMs: 1 },
      });

      const final = await stream.start({ agentId: 'agent' });

      expect(final.status).toBe('error');
      expect(final.error).toBeInstanceOf(AgentEventTooLargeError);
      expect(final.error?.retryable).toBe(false);
      expect((final.error as AgentEventTooLargeError).maxEventSize).toBe(defaultMaxEventSize);
      // The server saw the client go long before its 20 MB were written.
      await expect.poll(() => server.requests[0]?.closedByClient).toBe(true);
      expect(await written).toBeLessThan(20 * 1024 * 1024);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.posts).toBe(1);
    });

    it('bounds an event of many short lines too (maxEventSize from the options), after one just under it', async () => {
      const underTheBound = 'y'.repeat(10_000 - 'data: '.length);
      const server = await serveSse(async (_post, response) => {
        openEventStream(response);
        if (!(await writeChunk(response, `data: ${underTheBound}\n\n`))) return;
        // Short lines, no blank one, up to 20 MB.
        const lines = 'data: 0123456789\n'.repeat(1000);
        for (let index = 0; index < 1200; index++) {
          if (!(await writeChunk(response, lines))) return;
        }
        response.end('\n');
      });
      const stream = createRunStream(createAgentClient({ baseUrl: server.url }), {
        transport,
        maxEventSize: 10_000,
        reconnect: { baseDelayMs: 1 },
      });

      const final = await stream.start({ agentId: 'agent' });

      expect(final.error).toBeInstanceOf(AgentEventTooLargeError);
      expect((final.error as AgentEventTooLargeError).maxEventSize).toBe(10_000);
      expect(final.events.map((event) => event.data)).toEqual([underTheBound]);
      await expect.poll(() => server.requests[0]?.closedByClient).toBe(true);
      expect(server.posts).toBe(1);
    });
  });

  describe('given an event that ends in the chunk where the next one passes the bound', () => {
    it('still delivers it, its first line begun in the chunk before, and ends with an AgentEventTooLargeError', async () => {
      const server = await serveSse(async (_post, response) => {
        openEventStream(response);
        if (!(await writeChunk(response, `data: ${payload.slice(0, 5)}`))) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (!(await writeChunk(response, `${payload.slice(5)}\n\ndata: ${'z'.repeat(5_000)}`)))
          return;
        response.end('\n\n');
      });
      const stream = createRunStream(createAgentClient({ baseUrl: server.url }), {
        transport,
        maxEventSize: 1_000,
        reconnect: { baseDelayMs: 1 },
      });

      const final = await stream.start({ agentId: 'agent' });

      expect(final.error).toBeInstanceOf(AgentEventTooLargeError);
      expect(final.events.map((event) => event.data)).toEqual([payload]);
      expect(server.posts).toBe(1);
    });
  });

  describe('given ids that cannot travel in a Last-Event-ID header, then a dropped connection', () => {
    it('ignores an id holding NUL, keeps one outside Latin-1 on its event, and resumes from the last id that can travel', async () => {
      const server = await serveSse(async (post, response) => {
        openEventStream(response);
        if (post === 1) {
          await writeChunk(response, `id: 1\ndata: ${payload}\n\n`);
          await writeChunk(response, `id: 2€\ndata: ${payload}\n\n`);
          await writeChunk(response, `id: 3\0\ndata: ${payload}\n\n`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          response.destroy();
          return;
        }
        response.end(`id: 4\ndata: ${payload}\n\n`);
      });
      const stream = createRunStream(createAgentClient({ baseUrl: server.url }), {
        transport,
        reconnect: { baseDelayMs: 1 },
      });

      const final = await stream.start({ agentId: 'agent' });

      expect(final.error?.message).toBeUndefined();
      expect(final.status).toBe('done');
      expect(final.events.map((event) => event.id)).toEqual(['1', '2€', undefined, '4']);
      expect(server.posts).toBe(2);
      expect(server.requests[1]?.headers['last-event-id']).toBe('1');
    });

    it('sends no Last-Event-ID when no id could travel', async () => {
      const server = await serveSse(async (post, response) => {
        openEventStream(response);
        if (post === 1) {
          await writeChunk(response, `id: 東京\ndata: ${payload}\n\n`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          response.destroy();
          return;
        }
        response.end(`data: ${payload}\n\n`);
      });
      const stream = createRunStream(createAgentClient({ baseUrl: server.url }), {
        transport,
        reconnect: { baseDelayMs: 1 },
      });

      const final = await stream.start({ agentId: 'agent' });

      expect(final.error?.message).toBeUndefined();
      expect(final.status).toBe('done');
      expect(final.lastEventId).toBe('東京');
      expect(server.posts).toBe(2);
      expect(server.requests[1]?.headers).not.toHaveProperty('last-event-id');
    });
  });
}
