import { describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { screen } from '@testing-library/react';
import { manyEvents, renderLog } from '../support/event-log.js';

// The log recycles its rows: a row that comes into view takes the elements of a row that left
// (an append while following replaces every row in view). A recycled row must be measured like a
// new one, show only its own event, and a focused row must keep its element.

function renderedRows(container: HTMLElement) {
  return [...container.querySelectorAll<HTMLElement>('[role="listitem"]')].sort(
    (a, b) => Number(a.dataset['index']) - Number(b.dataset['index']),
  );
}

/** Rows of consecutive indexes touch: no gap, no overlap (a row measured at the wrong height leaves one). */
function rowsLineUp(container: HTMLElement) {
  const rows = renderedRows(container);
  return rows.every((row, position) => {
    const next = rows[position + 1];
    if (!next || Number(next.dataset['index']) !== Number(row.dataset['index']) + 1) return true;
    return Math.abs(next.getBoundingClientRect().top - row.getBoundingClientRect().bottom) < 0.5;
  });
}

function frames(count = 3) {
  return new Promise<void>((resolve) => {
    const step = (left: number) =>
      left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1));
    step(count);
  });
}

describe('given rows recycled while following', () => {
  it('measures a row that takes the elements of another, also when it is taller', async () => {
    const events = manyEvents(2_000);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2000 / })).toBeVisible();
    const before = new Set(renderedRows(container));

    // Every fifth appended event starts another attempt: its row has a marker and is taller.
    const appended = manyEvents(100, 2_001, (sequence) => Math.floor(sequence / 5));
    rerender({ events: [...events, ...appended], status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2100 / })).toBeVisible();
    await frames();

    const after = renderedRows(container);
    // The rows in view are the elements of the rows before (recycled), and they line up.
    expect(after.some((row) => before.has(row))).toBe(true);
    expect(container.querySelectorAll('[data-attempt-start]').length).toBeGreaterThan(0);
    expect(rowsLineUp(container)).toBe(true);

    // And back to plain rows, shorter, in the same elements.
    rerender({ events: [...events, ...appended, ...manyEvents(100, 2_101, () => 420)] });
    await expect.element(page.getByRole('button', { name: /^#2200 / })).toBeVisible();
    await frames();
    expect(rowsLineUp(container)).toBe(true);
  });

  it('measures a recycled row whose element keeps its height (no resize to observe)', async () => {
    // Every event starts another attempt: every row has a marker and the same, taller height.
    const events = manyEvents(2_000, 1, (sequence) => sequence);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2000 / })).toBeVisible();
    await frames();
    expect(rowsLineUp(container)).toBe(true);

    rerender({
      events: [...events, ...manyEvents(100, 2_001, (sequence) => sequence)],
      status: 'streaming',
    });
    await expect.element(page.getByRole('button', { name: /^#2100 / })).toBeVisible();
    await frames();
    expect(rowsLineUp(container)).toBe(true);
  });

  it('shows in a recycled row only its own event: not expanded, its own text', async () => {
    const events = manyEvents(2_000);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    await userEvent.click(page.getByRole('button', { name: /^#2000 / }));
    await expect.element(page.getByText(/"token 2000"/)).toBeVisible();
    // Focus elsewhere, so the expanded row is not kept for focus.
    screen.getByRole('searchbox', { name: 'Search payloads' }).focus();

    rerender({ events: [...events, ...manyEvents(100, 2_001)], status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2100 / })).toBeVisible();
    await frames();

    expect(container.querySelector('[data-sequence="2000"]')).toBeNull();
    expect(container.querySelectorAll('[data-state="open"]')).toHaveLength(0);
    expect(container.querySelectorAll('pre')).toHaveLength(0);
    for (const row of renderedRows(container)) {
      const sequence = row.querySelector<HTMLElement>('[data-sequence]')?.dataset['sequence'];
      expect(row.querySelector('button')?.textContent).toMatch(
        new RegExp(`^#${sequence} .*token ${sequence}$`),
      );
      expect(row.getAttribute('aria-posinset')).toBe(String(Number(row.dataset['index']) + 1));
    }
    expect(rowsLineUp(container)).toBe(true);
  });

  it('keeps the element of a focused row while the rows around it are recycled', async () => {
    const events = manyEvents(2_000);
    const { rerender } = renderLog({ events, status: 'streaming' });
    const row = page.getByRole('button', { name: /^#1995 / });
    await expect.element(row).toBeVisible();
    const focused = row.element() as HTMLElement;
    focused.focus();

    let all = events;
    for (let append = 0; append < 3; append++) {
      all = [...all, ...manyEvents(100, all.length + 1)];
      rerender({ events: all, status: 'streaming' });
      await expect
        .element(page.getByRole('button', { name: new RegExp(`^#${all.length} `) }))
        .toBeVisible();
      expect(document.activeElement).toBe(focused);
      expect(focused.textContent).toMatch(/^#1995 /);
    }
  });
});
