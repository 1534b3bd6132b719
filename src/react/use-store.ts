import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { Subscribable } from '../core/base/subscribable.js';

const selectWhole = <Snapshot>(snapshot: Snapshot) => snapshot;

/**
 * A store's snapshot, or a slice of it, through `useSyncExternalStore`. The slice is computed once
 * per snapshot, and a slice `isEqual` to the one rendered last is returned as that same value, so
 * React sees no change. `select` and `isEqual` may change on every render (inline functions).
 *
 * @example
 * const status = useStore(stream, (snapshot) => snapshot.status);
 */
export function useStore<Snapshot>(store: Subscribable<Snapshot>): Snapshot;
export function useStore<Snapshot, Selected>(
  store: Subscribable<Snapshot>,
  select: (snapshot: Snapshot) => Selected,
  isEqual?: (previous: Selected, next: Selected) => boolean,
): Selected;
export function useStore<Snapshot, Selected>(
  store: Subscribable<Snapshot>,
  select: (snapshot: Snapshot) => Selected = selectWhole as (snapshot: Snapshot) => Selected,
  isEqual: (previous: Selected, next: Selected) => boolean = Object.is,
): Selected {
  const renderedRef = useRef<{ value: Selected } | undefined>(undefined);
  const getSelection = useMemo(() => {
    let memo: { snapshot: Snapshot; value: Selected } | undefined;
    return () => {
      const snapshot = store.getSnapshot();
      if (memo !== undefined && memo.snapshot === snapshot) return memo.value;
      const next = select(snapshot);
      const rendered = renderedRef.current;
      const value = rendered !== undefined && isEqual(rendered.value, next) ? rendered.value : next;
      memo = { snapshot, value };
      return value;
    };
  }, [store, select, isEqual]);
  const value = useSyncExternalStore(store.subscribe, getSelection, getSelection);
  useEffect(() => {
    renderedRef.current = { value };
  }, [value]);
  return value;
}
