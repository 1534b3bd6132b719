import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createRunStream,
  defaultSseTransport,
  type AgentClient,
} from 'agent-console-kit/core';
import { defaultIdleTimeoutMs } from '../../../src/core/stream/run-stream.js';
import { textEvents } from 'agent-console-kit/testing';
import { describeIdleDefault } from '../../support/idle-default.js';
import { serve } from '../../support/mock-server.js';
import { type StreamRunOptions } from '../../../src/core/wire/sse-types.js';

/** A real client, recording the options each attempt was sent with. */
function recordingClient(baseUrl: string): { client: AgentClient; seen: StreamRunOptions[] } {
  const seen: StreamRunOptions[] = [];
  const client = createAgentClient({ baseUrl });
  const streamRun = client.streamRun;
  client.streamRun = (request, options) => {
    seen.push(options);
    return streamRun(request, options);
  };
  return { client, seen };
}

describe('given no idleTimeoutMs', () => {
  it('watches the stream for silence with the documented default of 5 minutes', async () => {
    const mock = await serve({ events: textEvents('hello') });
    const { client, seen } = recordingClient(mock.url);
    const stream = createRunStream(client);

    const final = await stream.start({ agentId: 'agent' });

    expect(final.status).toBe('done');
    expect(defaultIdleTimeoutMs).toBe(300_000);
    expect(seen.map((options) => options.idleTimeoutMs)).toEqual([defaultIdleTimeoutMs]);
  });
});

// The unit project runs this file in jsdom (`window` and `document`), the node project without.
describe('the transport', () => {
  describeIdleDefault(defaultSseTransport);
});
