import { describe, expect, it } from 'vitest';
import { defaultSseTransport } from 'agent-console-kit/core';
import { describeSseTransportFaults } from '../../support/sse-transport-faults.js';

// Plain Node: no window, no document, no jsdom.
it('runs without browser globals', () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
});

describe('the transport in plain Node', () => {
  describeSseTransportFaults(defaultSseTransport);
});
