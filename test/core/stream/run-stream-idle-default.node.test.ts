import { describe } from 'vitest';
import { defaultSseTransport } from 'agent-console-kit/core';
import { describeIdleDefault } from '../../support/idle-default.js';

describe('the transport in plain Node', () => {
  describeIdleDefault(defaultSseTransport);
});
