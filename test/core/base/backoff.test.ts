import { describe, expect, it } from 'vitest';
import { retry, type BackoffTimers } from '../../../src/core/base/backoff.js';

/** Timers that run only when the test says, and say what is scheduled. */
function manualTimers() {
  const timers = new Map<number, { ms: number; callback: () => void }>();
  let next = 1;
  const given: BackoffTimers = {
    setTimeout: (callback, ms) => {
      timers.set(next, { ms, callback });
      return next++;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  return {
    given,
    delays: () => [...timers.values()].map((timer) => timer.ms),
    /** Runs the timer scheduled, then lets the retry send again. */
    async fire() {
      const [entry] = timers;
      if (entry === undefined) throw new Error('Nothing is scheduled.');
      timers.delete(entry[0]);
      entry[1].callback();
      for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    },
  };
}

async function flush() {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
}

const policy = { baseDelayMs: 2000, maxDelayMs: 5000, jitter: 'none' as const };

describe('retry', () => {
  it('sends again after a passing failure, after the backoff delays (capped), until it resolves', async () => {
    const timers = manualTimers();
    let calls = 0;
    const result = retry(
      () => (++calls < 4 ? Promise.reject(new Error('503')) : Promise.resolve('answered')),
      { retries: 3, policy, retryable: () => true, timers: timers.given },
    );
    const delays: number[] = [];
    for (let wait = 0; wait < 3; wait++) {
      await flush();
      delays.push(...timers.delays());
      await timers.fire();
    }
    await expect(result).resolves.toBe('answered');
    expect(calls).toBe(4);
    expect(delays).toEqual([2000, 4000, 5000]);
  });

  it('throws a final failure at once, and the last one after the retries', async () => {
    const timers = manualTimers();
    let calls = 0;
    await expect(
      retry(() => Promise.reject(new Error(`refused ${++calls}`)), {
        retries: 3,
        policy,
        retryable: (error) => !(error as Error).message.startsWith('refused'),
        timers: timers.given,
      }),
    ).rejects.toThrow('refused 1');
    expect(timers.delays()).toEqual([]);

    const failing = retry(() => Promise.reject(new Error(`failure ${++calls}`)), {
      retries: 1,
      policy,
      retryable: () => true,
      timers: timers.given,
    });
    failing.catch(() => undefined);
    await flush();
    await timers.fire();
    await expect(failing).rejects.toThrow('failure 3');
  });

  it('an abort ends the wait: nothing is sent again, the timer is gone, the last failure thrown', async () => {
    const timers = manualTimers();
    const fence = new AbortController();
    let calls = 0;
    const result = retry(() => Promise.reject(new Error(`failure ${++calls}`)), {
      retries: 3,
      policy,
      retryable: () => true,
      signal: fence.signal,
      timers: timers.given,
    });
    result.catch(() => undefined);
    await flush();
    expect(timers.delays()).toEqual([2000]);
    fence.abort();
    await expect(result).rejects.toThrow('failure 1');
    expect(calls).toBe(1);
    expect(timers.delays()).toEqual([]);
  });
});
