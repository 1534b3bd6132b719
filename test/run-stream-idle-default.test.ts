import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createRunStream,
  defaultIdleTimeoutMs,
  defaultSseTransport,
  fetchEventSourceTransport,
  fetchSseTransport,
  type SseConnectOptions,
  type SseTransport,
} from 'agent-console-kit/core';
import { textEvents } from 'agent-console-kit/testing';
import { describeIdleDefault } from './support/idle-default.js';
import { serve } from './support/mock-server.js';

/** The real transport, recording the options each attempt was given. */
function recordingTransport(): { transport: SseTransport; seen: SseConnectOptions[] } {
  const seen: SseConnectOptions[] = [];
  return {
    seen,
    transport: (options) => {
      seen.push(options);
      return defaultSseTransport(options);
    },
  };
}

describe('given no idleTimeoutMs', () => {
  it('watches the stream for silence with the documented default of 5 minutes', async () => {
    const mock = await serve({ events: textEvents('hello') });
    const { transport, seen } = recordingTransport();
    const stream = createRunStream(createAgentClient({ baseUrl: mock.url }), { transport });

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(defaultIdleTimeoutMs).toBe(300_000);
    expect(seen.map((options) => options.idleTimeoutMs)).toEqual([defaultIdleTimeoutMs]);
  });
});

// jsdom has `window` and `document`: both transports run here.
describe.each([
  ['fetch-event-source', fetchEventSourceTransport],
  ['fetch + eventsource-parser', fetchSseTransport],
])('the %s transport', (_name, transport) => {
  describeIdleDefault(transport);
});
