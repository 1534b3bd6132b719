import { Profiler, StrictMode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStore } from 'agent-console-kit';
import type { Subscribable } from '../../src/core/base/subscribable.js';

/** A store of the shape every engine has: a snapshot replaced on each change. */
function createCounterStore(): Subscribable<{ count: number; label: string }> & {
  set(next: { count: number; label: string }): void;
} {
  let snapshot = { count: 0, label: 'a' };
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      snapshot = next;
      for (const listener of listeners) listener();
    },
  };
}

describe('useStore, given an engine-shaped store', () => {
  it('renders the selected slice and skips a render when the slice did not change', () => {
    const store = createCounterStore();
    let commits = 0;
    function Label() {
      const label = useStore(store, (snapshot) => snapshot.label);
      return <p>{label}</p>;
    }
    render(
      <StrictMode>
        <Profiler id="label" onRender={() => void (commits += 1)}>
          <Label />
        </Profiler>
      </StrictMode>,
    );
    expect(screen.getByText('a')).toBeInTheDocument();
    const before = commits;

    act(() => store.set({ count: 1, label: 'a' }));
    expect(commits).toBe(before);

    act(() => store.set({ count: 2, label: 'b' }));
    expect(screen.getByText('b')).toBeInTheDocument();
    expect(commits).toBe(before + 1);
  });

  it('returns the rendered slice while isEqual says it is the same', () => {
    const store = createCounterStore();
    const seen: { count: number }[] = [];
    function Count() {
      const slice = useStore(
        store,
        (snapshot) => ({ count: snapshot.count }),
        (previous, next) => previous.count === next.count,
      );
      seen.push(slice);
      return <p>{slice.count}</p>;
    }
    render(<Count />);
    act(() => store.set({ count: 0, label: 'changed' }));
    expect(new Set(seen).size).toBe(1);
  });
});
