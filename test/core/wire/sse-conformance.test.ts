import { describe } from 'vitest';
import { fetchEventSourceTransport, fetchSseTransport } from 'agent-console-kit/core';
import { describeConformance } from '../../support/sse-conformance.js';

// jsdom has `window` and `document`: both transports run here, through the same rows.
describe('the fetch-event-source transport', () => {
  describeConformance('fetch-event-source', fetchEventSourceTransport);
});

describe('the fetch + eventsource-parser transport', () => {
  describeConformance('fetch + eventsource-parser', fetchSseTransport);
});
