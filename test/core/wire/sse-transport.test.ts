import { describe, expect, it, vi } from 'vitest';
import { createAgentClient, defaultSseTransport } from 'agent-console-kit/core';
import type { SseMessage } from '../../../src/core/wire/sse-types.js';
import { createMockAgentServer, textEvents } from 'agent-console-kit/testing';
import { describeSseTransportFaults } from '../../support/sse-transport-faults.js';

describe('the transport where `window` and `document` exist (jsdom)', () => {
  describeSseTransportFaults(defaultSseTransport);
});

describe('given a tab hidden and shown again', () => {
  it('keeps the one request open, with no second POST', async () => {
    const server = await createMockAgentServer({
      agents: [
        {
          agent: { agent_id: 'slow', name: 'slow', capabilities: {} },
          run: { events: textEvents('one two three'), delayMs: 20, neverEnd: true },
        },
      ],
    });
    const hidden = vi.spyOn(document, 'hidden', 'get');
    try {
      const controller = new AbortController();
      const messages: SseMessage[] = [];
      const result = createAgentClient({ baseUrl: server.url }).streamRun(
        { agentId: 'slow' },
        {
          transport: defaultSseTransport,
          signal: controller.signal,
          onMessage: (message) => messages.push(message),
        },
      );
      await expect.poll(() => messages.length).toBeGreaterThanOrEqual(1);

      hidden.mockReturnValue(true);
      document.dispatchEvent(new Event('visibilitychange'));
      hidden.mockReturnValue(false);
      document.dispatchEvent(new Event('visibilitychange'));
      await expect.poll(() => messages.length).toBe(3);
      // Time for a close to reach the server, had the request been aborted.
      await new Promise((resolve) => setTimeout(resolve, 50));

      expect(server.runRequests('slow')[0]?.closedByClient).toBeUndefined();
      expect(server.openStreams).toBe(1);
      expect(server.postCount('slow')).toBe(1);
      expect(messages.map((message) => message.id)).toEqual(['1', '2', '3']);
      controller.abort();
      await result;
    } finally {
      hidden.mockRestore();
      await server.close();
    }
  });
});
