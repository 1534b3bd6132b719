import { describe, expect, it } from 'vitest';
import {
  AgentInputError,
  createAgentClient,
  createRunStream,
  defaultSseTransport,
  type SseTransport,
} from 'agent-console-kit/core';
import type { SseMessage } from '../../../src/core/wire/sse-types.js';
import { textEvents } from 'agent-console-kit/testing';
import { setUpMockServer } from '../../support/mock-server.js';
import { type SentRunRequest } from '../../../src/core/wire/sse-types.js';

const token = 'stream-token-5678';

const server = setUpMockServer({
  agents: [
    {
      agent: { agent_id: 'agent', name: 'Agent', capabilities: {} },
      run: { events: textEvents('Hello from the client') },
    },
  ],
});

describe('given the client that owns the streaming request', () => {
  it('sends it through its own fetch with the token, and hands the transport the opened response', async () => {
    const fetched: string[] = [];
    const client = createAgentClient({
      baseUrl: server.url,
      token,
      fetch: (input, init) => {
        fetched.push(String(input));
        return globalThis.fetch(input, init);
      },
    });
    const handed: Response[] = [];
    const transport: SseTransport = (response, options) => {
      handed.push(response);
      return defaultSseTransport(response, options);
    };
    const sent: SentRunRequest[] = [];
    const messages: SseMessage[] = [];

    const result = await client.streamRun(
      { agentId: 'agent' },
      {
        transport,
        signal: new AbortController().signal,
        onSend: (request) => sent.push(request),
        onMessage: (message) => messages.push(message),
      },
    );

    expect(result).toEqual({ outcome: 'closed' });
    expect(fetched).toEqual([`${server.url}/rest/api/v1/agents/runs/stream`]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(fetched[0]);
    expect(sent[0]?.secrets).toContain(token);
    expect(handed).toHaveLength(1);
    expect(handed[0]).toBeInstanceOf(Response);
    expect(handed[0]?.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(messages.length).toBeGreaterThan(0);
    expect(server.postCount('agent')).toBe(1);
    expect(server.runRequests('agent')[0]?.tokenFingerprint).toBe(token.slice(-4));
  });

  it.each(['', '   ', '.', '..'])(
    'refuses the agent id %j at its edge: nothing sent, the transport never called',
    async (agentId) => {
      const client = createAgentClient({ baseUrl: server.url, token });
      let transportCalls = 0;
      let sends = 0;

      const result = client.streamRun(
        { agentId },
        {
          transport: () => {
            transportCalls += 1;
            return Promise.resolve({ outcome: 'closed' });
          },
          signal: new AbortController().signal,
          onSend: () => {
            sends += 1;
          },
          onMessage: () => undefined,
        },
      );

      await expect(result).rejects.toBeInstanceOf(AgentInputError);
      expect(sends).toBe(0);
      expect(transportCalls).toBe(0);
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe('given the one transport in plain Node (no window, no document)', () => {
  it('reads the run, with nothing chosen per runtime, and the former names are gone', async () => {
    expect(typeof document).toBe('undefined');
    const core: Record<string, unknown> = await import('agent-console-kit/core');
    expect(core['fetchEventSourceTransport']).toBeUndefined();
    expect(core['fetchSseTransport']).toBeUndefined();
    expect(defaultSseTransport.preload).toBeUndefined();
    const stream = createRunStream(createAgentClient({ baseUrl: server.url, token }), {
      transport: defaultSseTransport,
    });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(final.text).toBe('Hello from the client');
    expect(server.postCount()).toBe(1);
  });
});
