import { describe, expect, it } from 'vitest';
import type { BackoffPolicy } from '../../../src/core/base/backoff.js';
import { backoffDelay } from '../../../src/core/base/backoff.js';

const policy = (jitter: BackoffPolicy['jitter']): BackoffPolicy => ({
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  jitter,
});

describe('given no jitter', () => {
  it('doubles from the base delay up to the cap', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 40].map((retry) => backoffDelay(retry, policy('none')));

    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('stays finite for a huge retry index', () => {
    expect(backoffDelay(5000, policy('none'))).toBe(30_000);
  });
});

describe('given full jitter', () => {
  it('spreads the delay over [0, exponential]', () => {
    expect(backoffDelay(2, policy('full'), {}, () => 0)).toBe(0);
    expect(backoffDelay(2, policy('full'), {}, () => 0.5)).toBe(2000);
    expect(backoffDelay(2, policy('full'), {}, () => 0.999_999)).toBe(4000);
  });
});

describe('given equal jitter', () => {
  it('keeps at least half the exponential delay', () => {
    expect(backoffDelay(2, policy('equal'), {}, () => 0)).toBe(2000);
    expect(backoffDelay(2, policy('equal'), {}, () => 0.999_999)).toBe(4000);
  });
});

describe('given a Retry-After', () => {
  it('never waits less, even beyond the cap', () => {
    expect(backoffDelay(0, policy('full'), { retryAfterMs: 5000 }, () => 0)).toBe(5000);
    expect(backoffDelay(0, policy('none'), { retryAfterMs: 60_000 })).toBe(60_000);
  });

  it('does not shorten a longer computed delay', () => {
    expect(backoffDelay(3, policy('none'), { retryAfterMs: 10 })).toBe(8000);
  });
});

describe("given the server's retry: field", () => {
  it('never waits less, but stays under the cap', () => {
    expect(backoffDelay(0, policy('full'), { serverRetryMs: 3000 }, () => 0)).toBe(3000);
    expect(backoffDelay(0, policy('none'), { serverRetryMs: 120_000 })).toBe(30_000);
  });
});
