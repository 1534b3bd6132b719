import { describe, expect, it, vi } from 'vitest';
import { defaultRunStore } from '../../../src/core/storage/durable-run-store.js';

// The package loads each module once (docs/decisions/0017-no-lazy-copies.md): the default run
// store is the module's, not the global object's.
describe('given the default run store', () => {
  it('is one per module instance, and nothing of it is kept on the global object', async () => {
    const store = defaultRunStore();

    expect(defaultRunStore()).toBe(store);
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContainEqual(
      expect.stringContaining('agent-console-kit'),
    );
    vi.resetModules();
    const other = await import('../../../src/core/storage/durable-run-store.js');
    expect(other.defaultRunStore()).not.toBe(store);
  });
});
