import { describe } from 'vitest';
import { fetchSseTransport } from 'agent-console-kit/core';
import { describeHostileServer } from '../../support/sse-hostile-server.js';

describe('the fetch + eventsource-parser transport in plain Node', () => {
  describeHostileServer(fetchSseTransport);
});
