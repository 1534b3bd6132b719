import { describe } from 'vitest';
import { defaultSseTransport } from 'agent-console-kit/core';
import { describeConformance } from '../../support/sse-conformance.js';

describe('the transport where `window` and `document` exist (jsdom)', () => {
  describeConformance(defaultSseTransport);
});
