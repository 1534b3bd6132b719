import { describe, expect, it } from 'vitest';
import { rowSlots } from '../../src/components/virtual-append.js';

describe('rowSlots', () => {
  it('numbers the first rows from 0', () => {
    expect([...rowSlots(new Map(), [7, 8, 9])]).toEqual([
      [7, 0],
      [8, 1],
      [9, 2],
    ]);
  });

  it('keeps the slot of a row that stays, and gives the slots of the rows that left to the new ones in their order', () => {
    const previous = rowSlots(new Map(), [1, 2, 3, 4]);
    // 1 and 2 left, 5 and 6 came: they take 1's and 2's slots, in that order.
    expect([...rowSlots(previous, [3, 4, 5, 6])]).toEqual([
      [3, 2],
      [4, 3],
      [5, 0],
      [6, 1],
    ]);
  });

  it('gives new slots when more rows are rendered, and never one slot to two rows', () => {
    const previous = new Map([
      [10, 5],
      [11, 2],
    ]);
    const slots = rowSlots(previous, [11, 12, 13, 14]);
    expect(slots.get(11)).toBe(2);
    expect(slots.get(12)).toBe(5);
    expect(new Set(slots.values()).size).toBe(4);
    expect(Math.min(...slots.values())).toBeGreaterThanOrEqual(2);
  });

  it('replaces every row of an append that scrolls them all out, keeping their slots', () => {
    const previous = rowSlots(new Map(), [100, 101, 102]);
    expect([...rowSlots(previous, [200, 201, 202]).values()]).toEqual([0, 1, 2]);
  });
});
