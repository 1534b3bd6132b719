import { describe, expect, it } from 'vitest';
import { onDemand } from '../../../src/core/base/on-demand.js';

describe('onDemand', () => {
  it('loads on the first call only and keeps the value', async () => {
    let loads = 0;
    const value = onDemand(async () => ({ n: ++loads }));
    expect(value.loaded()).toBeUndefined();
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([value(), value()]);
    expect(first).toBe(second);
    expect(await value()).toBe(first);
    expect(value.loaded()).toBe(first);
    expect(loads).toBe(1);
  });

  it('asks again after a failed load, and keeps nothing of it', async () => {
    let calls = 0;
    const value = onDemand(async () => {
      calls += 1;
      if (calls === 1) throw new Error('chunk lost');
      return 'module';
    });
    await expect(value()).rejects.toThrow('chunk lost');
    expect(value.loaded()).toBeUndefined();
    expect(await value()).toBe('module');
    expect(value.loaded()).toBe('module');
    expect(calls).toBe(2);
  });
});
