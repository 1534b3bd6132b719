import { StrictMode, useMemo, useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import type { Virtualizer } from '@tanstack/react-virtual';
import { consecutiveKeys, useAppendingVirtualizer } from '../../src/components/virtual-append.js';

// The append path of the event log's virtualizer (src/components/virtual-append.ts): on a pure
// append the offsets are computed for the new rows only. Every row's offset must still be the sum
// of the sizes before it, after an append, after a dropped head, and after a row changes height.

type AnyVirtualizer = Virtualizer<HTMLDivElement, Element>;
const estimate = 24;

/** Rows of different heights, and an expanded row taller still. */
function heightOf(key: number, expanded: ReadonlySet<number>) {
  return expanded.has(key) ? 90 : 20 + (key % 3) * 6;
}

interface ListProps {
  keys: readonly number[];
  expanded?: ReadonlySet<number>;
  onRender: (virtualizer: AnyVirtualizer) => void;
  estimateSize: () => number;
  anchorTo?: 'start' | 'end';
}

function List({ keys, expanded = new Set(), onRender, estimateSize, anchorTo = 'end' }: ListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useMemo(() => {
    const first = keys[0] ?? 0;
    const consecutive = (keys.at(-1) ?? 0) - first === keys.length - 1;
    return consecutive ? consecutiveKeys(first) : (index: number) => keys[index] ?? index;
  }, [keys]);
  const virtualizer = useAppendingVirtualizer({
    count: keys.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan: 4,
    anchorTo,
    followOnAppend: anchorTo === 'end',
  });
  onRender(virtualizer);
  return (
    <div ref={scrollRef} style={{ height: 200, overflowY: 'auto', position: 'relative' }}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            style={{
              position: 'absolute',
              top: 0,
              width: '100%',
              transform: `translateY(${item.start}px)`,
              height: heightOf(Number(item.key), expanded),
            }}
          />
        ))}
      </div>
    </div>
  );
}

function range(from: number, to: number) {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

function frames(count = 3) {
  return act(async () => {
    for (let frame = 0; frame < count; frame++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
}

function setup(keys: readonly number[], anchorTo: 'start' | 'end' = 'end') {
  let virtualizer: AnyVirtualizer | undefined;
  let estimates = 0;
  const estimateSize = () => {
    estimates += 1;
    return estimate;
  };
  const onRender = (next: AnyVirtualizer) => {
    virtualizer = next;
  };
  const view = render(
    <StrictMode>
      <List keys={keys} onRender={onRender} estimateSize={estimateSize} anchorTo={anchorTo} />
    </StrictMode>,
  );
  return {
    get virtualizer() {
      if (!virtualizer) throw new Error('not rendered');
      return virtualizer;
    },
    /** Calls of `estimateSize` since the last call: one per row whose offset was computed unmeasured. */
    takeEstimates() {
      const count = estimates;
      estimates = 0;
      return count;
    },
    rerender(nextKeys: readonly number[], expanded?: ReadonlySet<number>) {
      view.rerender(
        <StrictMode>
          <List
            keys={nextKeys}
            expanded={expanded}
            onRender={onRender}
            estimateSize={estimateSize}
            anchorTo={anchorTo}
          />
        </StrictMode>,
      );
    },
  };
}

/**
 * The first row (if any) whose key, size or offset is not what the sizes say: its key the list's,
 * its size the measured one (else the estimate), its offset the sum of the sizes before it.
 */
function firstWrongRow(virtualizer: AnyVirtualizer, keys: readonly number[]) {
  virtualizer.getVirtualItems();
  const measurements = virtualizer.measurementsCache;
  if (measurements.length !== keys.length) return `count ${measurements.length}`;
  let start = 0;
  for (let index = 0; index < keys.length; index++) {
    const item = measurements[index];
    const size = virtualizer.itemSizeCache.get(keys[index] ?? -1) ?? estimate;
    if (
      item === undefined ||
      item.key !== keys[index] ||
      item.size !== size ||
      item.start !== start
    ) {
      return `row ${index}: key ${item?.key} size ${item?.size} start ${item?.start}, expected key ${keys[index]} size ${size} start ${start}`;
    }
    start += size;
  }
  return virtualizer.getTotalSize() === start ? null : `total ${virtualizer.getTotalSize()}`;
}

/** The rendered rows sit where their offsets say, one after the other without gaps or overlaps. */
function renderedRowsLineUp(virtualizer: AnyVirtualizer) {
  const items = virtualizer.getVirtualItems();
  return items.every((item, position) => {
    const element = virtualizer.elementsCache.get(item.key) as HTMLElement | undefined;
    const next = items[position + 1];
    return (
      element !== undefined &&
      element.offsetHeight === item.size &&
      (next === undefined || next.index !== item.index + 1 || next.start === item.start + item.size)
    );
  });
}

describe('useAppendingVirtualizer', () => {
  it('computes only the appended rows, and every offset is still the sum of the sizes before it', async () => {
    let keys = range(1, 5_000);
    const list = setup(keys);
    await frames();
    expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
    for (let append = 0; append < 3; append++) {
      keys = range(1, keys.length + 100);
      list.takeEstimates();
      list.rerender(keys);
      // The appended rows, not the 5,000 before them (the virtualizer's own path asks for all).
      expect(list.takeEstimates()).toBeLessThanOrEqual(100);
      await frames();
      expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
      expect(renderedRowsLineUp(list.virtualizer)).toBe(true);
    }
    // The measurements a reader copies are whole rows, and a copy, as before (also rows not read
    // yet, right after an append).
    keys = range(1, keys.length + 100);
    list.rerender(keys);
    const copy = list.virtualizer.measurementsCache.slice();
    expect(copy).toHaveLength(keys.length);
    expect(copy[0]).toMatchObject({ index: 0, key: 1, start: 0 });
    expect(copy.at(-2)).toMatchObject({ index: keys.length - 2, key: keys.at(-2) });
    copy.fill(undefined as never);
    expect(list.virtualizer.measurementsCache[0]).toMatchObject({ index: 0, key: 1 });
  });

  it('recomputes from the first row when the head is dropped, also when the list grows', async () => {
    let keys = range(1, 5_000);
    const list = setup(keys);
    await frames();
    // As many dropped as appended (a full buffer).
    keys = range(31, 5_030);
    list.rerender(keys);
    await frames();
    expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
    // Fewer dropped than appended: the count grows, but the rows already there changed keys.
    keys = range(41, 5_100);
    list.takeEstimates();
    list.rerender(keys);
    expect(list.takeEstimates()).toBeGreaterThan(1_000);
    await frames();
    expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
    expect(renderedRowsLineUp(list.virtualizer)).toBe(true);
    // Keys with gaps (a filtered list), then an append to them.
    keys = keys.filter((key) => key % 2 === 0);
    list.rerender(keys);
    await frames();
    keys = [...keys, 5_102, 5_104, 5_106];
    list.rerender(keys);
    await frames();
    expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
    expect(renderedRowsLineUp(list.virtualizer)).toBe(true);
  });

  it.each(['end', 'start'] as const)(
    'keeps the new height of a row that changed size, before an append and in the same render as one (anchored to the %s)',
    async (anchorTo) => {
      let keys = range(1, 5_000);
      const list = setup(keys, anchorTo);
      await frames();
      if (anchorTo === 'start') {
        list.virtualizer.scrollToEnd();
        await frames();
      }
      // A row in view grows (expanded): the resize observer reports it.
      const shown = list.virtualizer.getVirtualItems();
      const grown = Number(shown[shown.length - 3]?.key);
      list.rerender(keys, new Set([grown]));
      await frames();
      expect(list.virtualizer.itemSizeCache.get(grown)).toBe(90);
      keys = range(1, 5_100);
      list.rerender(keys, new Set([grown]));
      await frames();
      expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
      expect(renderedRowsLineUp(list.virtualizer)).toBe(true);
      // A size that changes after the last pass, with an append in the same render: the pass starts
      // at that row, far before the previous count.
      act(() => {
        list.virtualizer.resizeItem(10, 57);
        keys = range(1, 5_200);
        list.rerender(keys, new Set([grown]));
      });
      expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
      expect(list.virtualizer.measurementsCache[10]?.size).toBe(57);
      await frames();
      expect(firstWrongRow(list.virtualizer, keys)).toBeNull();
    },
  );
});
