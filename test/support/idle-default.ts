/**
 * The idle timeout on by default, through a whole `RunStream` and a real socket, on a fake clock:
 * each transport's test file calls {@link describeIdleDefault}.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentNetworkError,
  createAgentClient,
  createRunStream,
  type SseTransport,
} from 'agent-console-kit/core';
import { openEventStream, serveSse } from './sse-test-server.js';

export function describeIdleDefault(transport: SseTransport): void {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('given a stream that opens and then says nothing, and no idleTimeoutMs', () => {
    it(
      'reconnects after 5 minutes of silence (a fake clock; the socket is real)',
      { timeout: 10_000 },
      async () => {
        const server = await serveSse((post, response) => {
          openEventStream(response);
          if (post === 2) response.end(`id: 1\ndata: {"messages":[]}\n\n`);
        });
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
        const reasons: unknown[] = [];
        const stream = createRunStream(createAgentClient({ baseUrl: server.url }), {
          transport: transport,
          sleep: () => Promise.resolve(),
          onStatusChange: (status, snapshot) => {
            if (status === 'reconnecting') reasons.push(snapshot.reconnectReason);
          },
        });
        const done = stream.start({ agentId: 'agent' });
        // vi.waitFor, not expect.poll: it advances the fake timers by `interval` on each try.
        await vi.waitFor(() => expect(stream.getSnapshot().status).toBe('streaming'), {
          interval: 5,
          timeout: 15_000,
        });

        vi.advanceTimersByTime(299_000);
        await new Promise((resolve) => setImmediate(resolve));
        expect(stream.getSnapshot().status).toBe('streaming');
        vi.advanceTimersByTime(1_000);
        const final = await done;

        expect(final.status).toBe('done');
        expect(reasons).toHaveLength(1);
        expect(reasons[0]).toBeInstanceOf(AgentNetworkError);
        expect(String(reasons[0])).toContain('for 300000 ms');
        expect(server.posts).toBe(2);
        expect(server.requests[0]?.closedByClient).toBe(true);
      },
    );
  });
}
