import { describe } from 'vitest';
import { fetchSseTransport } from 'agent-console-kit/core';
import { describeIdleDefault } from '../../support/idle-default.js';

describe('the fetch + eventsource-parser transport in plain Node', () => {
  describeIdleDefault(fetchSseTransport);
});
