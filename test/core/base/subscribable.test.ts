import { describe, expect, it } from 'vitest';
import { ListenerSet } from '../../../src/core/base/subscribable.js';

const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

function lifecycle() {
  const calls: string[] = [];
  const listeners = new ListenerSet({
    onFirst: () => calls.push('first'),
    onLast: () => calls.push('last'),
  });
  return { calls, listeners };
}

describe('given a listener set with a lifecycle', () => {
  it('starts on the first listener and stops a microtask after the last one left', async () => {
    const { calls, listeners } = lifecycle();
    const stopA = listeners.subscribe(() => undefined);
    const stopB = listeners.subscribe(() => undefined);
    expect(calls).toEqual(['first']);

    stopA();
    stopB();
    stopB();
    expect(calls).toEqual(['first']);
    await microtask();
    expect(calls).toEqual(['first', 'last']);

    listeners.subscribe(() => undefined);
    expect(calls).toEqual(['first', 'last', 'first']);
  });

  it('a listener back within the grace (a StrictMode remount) neither stops nor starts it', async () => {
    const { calls, listeners } = lifecycle();
    const stop = listeners.subscribe(() => undefined);
    stop();
    const again = listeners.subscribe(() => undefined);
    await microtask();
    expect(calls).toEqual(['first']);

    again();
    listeners.subscribe(() => undefined)();
    await microtask();
    expect(calls).toEqual(['first', 'last']);
  });

  it('stopUnlessObserved stops work begun after the last listener left, not before the first came', async () => {
    const { calls, listeners } = lifecycle();
    listeners.stopUnlessObserved();
    await microtask();
    expect(calls).toEqual([]);

    listeners.subscribe(() => undefined)();
    await microtask();
    listeners.stopUnlessObserved();
    await microtask();
    expect(calls).toEqual(['first', 'last', 'last']);
  });
});
