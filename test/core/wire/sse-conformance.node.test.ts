import { describe } from 'vitest';
import { fetchSseTransport } from 'agent-console-kit/core';
import { describeConformance } from '../../support/sse-conformance.js';

describe('the fetch + eventsource-parser transport in plain Node', () => {
  describeConformance('fetch + eventsource-parser', fetchSseTransport);
});
