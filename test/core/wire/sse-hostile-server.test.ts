import { describe } from 'vitest';
import { defaultSseTransport } from 'agent-console-kit/core';
import { describeHostileServer } from '../../support/sse-hostile-server.js';

describe('the transport where `window` and `document` exist (jsdom)', () => {
  describeHostileServer(defaultSseTransport);
});
