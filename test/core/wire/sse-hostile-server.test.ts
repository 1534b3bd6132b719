import { describe } from 'vitest';
import { fetchEventSourceTransport, fetchSseTransport } from 'agent-console-kit/core';
import { describeHostileServer } from '../../support/sse-hostile-server.js';

// jsdom has `window` and `document`: both transports run here, against the same hostile server.
describe.each([
  ['fetch-event-source', fetchEventSourceTransport],
  ['fetch + eventsource-parser', fetchSseTransport],
])('the %s transport', (_name, transport) => {
  describeHostileServer(transport);
});
