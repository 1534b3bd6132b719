import { useRef } from 'react';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';

/*
 * Appends to a long list without recomputing every row's offset.
 *
 * @tanstack/virtual-core (3.19) recomputes the offsets of all rows from the first whenever the
 * count changes: its measurement options are a memo on the count, and a new count resets the index
 * from which it recomputes (`pendingMin`) to 0. At 100,000 rows that is a pass over every row, a new
 * 1.6 MB `Float64Array` and a 100,000-entry key array per append, the largest single cost of
 * following a fast run. On a pure append (the keys of the rows already there are unchanged) the
 * offsets of those rows cannot change, so this hook lets the virtualizer continue from the previous
 * count (or from the first row resized since its last pass, if that is earlier). Everything else (a
 * dropped head, a new filter, a resize) takes the virtualizer's own path, from the first row.
 *
 * This reaches into private members of virtual-core's `Virtualizer` (`pendingMin`,
 * `getMeasurementOptions`, and the one-lane measurements `_singleLaneMeasurements`, whose offsets
 * array it lets an append reuse); when a version lacks the first two, the hook changes nothing.
 * package.json pins @tanstack/react-virtual exactly (it pins virtual-core exactly), so an app gets the
 * version these were read from. The tests (test/virtual-append.browser.test.tsx) check every row's
 * offset after each kind of change.
 */

type AnyVirtualizer = Virtualizer<HTMLDivElement, Element>;
type ItemKey = (index: number) => number | string | bigint;

interface MeasurementInternals {
  pendingMin: number | null;
  getMeasurementOptions: () => { count: number };
  /** Offsets and sizes of a one-lane list, two numbers per row; reused while long enough. */
  _singleLaneMeasurements?: { flat: Float64Array; items: unknown[] } | null;
}

interface AppendState {
  /** Set before the virtualizer takes new options that append to the rows it has. */
  appendedFrom: number | null;
}

/** Each instance's state, once its measurements are hooked (undefined: the internals were not found). */
const appendStates = new WeakMap<AnyVirtualizer, AppendState | undefined>();

/** Key functions whose key is `first + index`, by their first key. */
const firstKeyOf = new WeakMap<ItemKey, number>();

/** A key function for rows keyed `first`, `first + 1`, …: two of them agree up to any index when their first keys do. */
export function consecutiveKeys(first: number): (index: number) => number {
  const getItemKey = (index: number) => first + index;
  firstKeyOf.set(getItemKey, first);
  return getItemKey;
}

/** Whether the rows `0 … previousCount - 1` have the same keys under both functions. */
function samePrefix(previous: ItemKey, next: ItemKey, previousCount: number): boolean {
  const previousFirst = firstKeyOf.get(previous);
  const nextFirst = firstKeyOf.get(next);
  if (previousFirst !== undefined && nextFirst !== undefined) return previousFirst === nextFirst;
  for (let index = 0; index < previousCount; index += 1) {
    if (previous(index) !== next(index)) return false;
  }
  return true;
}

function internalsOf(instance: AnyVirtualizer): MeasurementInternals | undefined {
  const candidate = instance as unknown as Partial<MeasurementInternals>;
  return typeof candidate.getMeasurementOptions === 'function' && 'pendingMin' in candidate
    ? (candidate as MeasurementInternals)
    : undefined;
}

/** Makes the virtualizer continue from `state.appendedFrom` the next time its options change. */
function continueOnAppend(instance: AnyVirtualizer, state: AppendState): boolean {
  const internals = internalsOf(instance);
  if (!internals) return false;
  const measurementOptions = internals.getMeasurementOptions;
  let last: unknown = measurementOptions();
  internals.getMeasurementOptions = () => {
    const options = measurementOptions();
    if (options !== last) {
      last = options;
      const from = state.appendedFrom;
      state.appendedFrom = null;
      // The new options reset `pendingMin` to null (from the first row); on an append, the
      // measurements are current up to `from`.
      if (from !== null) {
        internals.pendingMin = from;
        const single = internals._singleLaneMeasurements;
        // The offsets: room for more than this append, so the next ones write into the same array
        // instead of copying it into a new one.
        const need = options.count * 2;
        if (single && single.flat.length < need) {
          const grown = new Float64Array(need + Math.max(2_048, need >> 2));
          grown.set(single.flat.subarray(0, from * 2));
          single.flat = grown;
        }
      }
    }
    return options;
  };
  return true;
}

/**
 * `useVirtualizer` for a list that grows at the end, with `getItemKey` required: on a pure append the
 * offsets are computed for the new rows only.
 */
export function useAppendingVirtualizer(
  options: Parameters<typeof useVirtualizer<HTMLDivElement, Element>>[0] & { getItemKey: ItemKey },
): AnyVirtualizer {
  // The instance is created by `useVirtualizer` and stays the same: the one of the last render is
  // the one that will take these options.
  const instanceRef = useRef<AnyVirtualizer | null>(null);
  const instance = instanceRef.current;
  const state = instance ? appendStates.get(instance) : undefined;
  if (instance && state) {
    const previousCount = instance.options.count;
    const pending = internalsOf(instance)?.pendingMin ?? null;
    state.appendedFrom =
      previousCount > 0 &&
      options.count > previousCount &&
      samePrefix(instance.options.getItemKey, options.getItemKey, previousCount)
        ? // A row resized since the last pass is not in the offsets yet: continue from it. (3.19
          // folds a resize in at once, so this is only a safeguard.)
          Math.min(previousCount, pending ?? previousCount)
        : null;
  }
  const virtualizer = useVirtualizer(options);
  instanceRef.current = virtualizer;
  if (!appendStates.has(virtualizer)) {
    const next: AppendState = { appendedFrom: null };
    appendStates.set(virtualizer, continueOnAppend(virtualizer, next) ? next : undefined);
  }
  const current = appendStates.get(virtualizer);
  if (current) current.appendedFrom = null;
  return virtualizer;
}

/**
 * React keys for the rendered rows (`keys`, in order): a row keeps its slot while it stays
 * rendered, and a row that comes in takes the slot of one that left, in the order those had, so
 * React updates the elements of a row that left instead of removing them and creating others (an
 * append while following replaces every row in view) and keeps them in the same DOM order.
 */
export function rowSlots(
  previous: ReadonlyMap<number, number>,
  keys: readonly number[],
): Map<number, number> {
  const kept = new Set<number>();
  for (const key of keys) {
    const slot = previous.get(key);
    if (slot !== undefined) kept.add(slot);
  }
  const free: number[] = [];
  let next = 0;
  for (const slot of previous.values()) {
    if (!kept.has(slot)) free.push(slot);
    next = Math.max(next, slot + 1);
  }
  const slots = new Map<number, number>();
  let taken = 0;
  for (const key of keys) {
    let slot = previous.get(key);
    if (slot === undefined) {
      slot = taken < free.length ? (free[taken] ?? next++) : next++;
      taken += 1;
    }
    slots.set(key, slot);
  }
  return slots;
}

/**
 * After a commit, measures the rows whose element now shows another row (a slot from
 * {@link rowSlots}): the virtualizer measures an element when its ref attaches, and an element that
 * stays attached keeps its ref. Forgets the rows those elements showed before.
 */
export function measureReusedRows(virtualizer: AnyVirtualizer, list: Element | null): void {
  if (!list) return;
  const { elementsCache } = virtualizer;
  let reused = false;
  for (const element of list.children) {
    const index = virtualizer.indexFromElement(element);
    if (index < 0 || index >= virtualizer.options.count) continue;
    const key = virtualizer.options.getItemKey(index);
    if (elementsCache.get(key) === element) continue;
    reused = true;
    virtualizer.measureElement(element);
  }
  if (!reused) return;
  for (const [key, element] of elementsCache) {
    const index = virtualizer.indexFromElement(element);
    if (element.isConnected && virtualizer.options.getItemKey(index) !== key) {
      elementsCache.delete(key);
    }
  }
}
