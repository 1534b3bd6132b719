import { describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import type { RunEvent } from 'agent-console-kit';
import { manyEvents, messageEvent, renderLog, startedAt } from '../support/event-log.js';

function renderedRows(container: HTMLElement) {
  return container.querySelectorAll('[role="listitem"]');
}

function scroller() {
  return screen.getByRole('log', { name: 'Run events' });
}

async function scrollTo(element: HTMLElement, top: number) {
  element.scrollTop = top;
  element.dispatchEvent(new Event('scroll'));
  await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
}

describe('given 100,000 events in real Chromium', () => {
  it('has no axe violations', async () => {
    const { container } = renderLog({ events: manyEvents(100_000), status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#100000 / })).toBeVisible();

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('renders fewer than 100 rows and shows the newest event', async () => {
    const { container } = renderLog({ events: manyEvents(100_000) });

    await expect.element(page.getByRole('button', { name: /^#100000 / })).toBeVisible();
    const rows = renderedRows(container);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(100);
    expect(screen.getByText('100,000 events.')).toBeVisible();
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('100000');
  });

  it('follows the newest event as events arrive while the reader is at the end', async () => {
    const events = manyEvents(100_000);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#100000 / })).toBeVisible();

    rerender({ events: [...events, ...manyEvents(50, 100_001)], status: 'streaming' });

    await expect.element(page.getByRole('button', { name: /^#100050 / })).toBeVisible();
    expect(renderedRows(container).length).toBeLessThan(100);
    expect(screen.queryByRole('button', { name: /jump to latest/ })).toBeNull();
  });

  it('renders the appended rows in the commit that brings them while following', async () => {
    const events = manyEvents(100_000);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#100000 / })).toBeVisible();

    // No frame in between: the newest row is there as soon as the append is committed, not
    // after the scroll that follows it.
    rerender({ events: [...events, ...manyEvents(100, 100_001)], status: 'streaming' });

    expect(container.querySelector('[data-sequence="100100"]')).not.toBeNull();
    expect(renderedRows(container).length).toBeLessThan(100);
    await expect.element(page.getByRole('button', { name: /^#100100 / })).toBeVisible();
  });
});

describe('given a full buffer (maxEvents reached)', () => {
  // 1,000 events: the oldest dropped as new ones arrive does not need 100,000 (under React's
  // development build a head drop of 100,000 changed elements costs seconds of prop diffing).
  it('renders the newest rows in the same commit when a full buffer drops as many as arrive', async () => {
    const events = manyEvents(1_000);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#1000 / })).toBeVisible();

    // The count stays the same: 100 dropped from the head, 100 appended.
    rerender({ events: [...events.slice(100), ...manyEvents(100, 1_001)], status: 'streaming' });

    expect(container.querySelector('[data-sequence="1100"]')).not.toBeNull();
    expect(renderedRows(container).length).toBeLessThan(100);
    await expect.element(page.getByRole('button', { name: /^#1100 / })).toBeVisible();
    expect(screen.queryByRole('button', { name: /jump to latest/ })).toBeNull();
  });
});

describe('given events streaming in one by one', () => {
  it('has no axe violations after the stream', async () => {
    let events = manyEvents(300);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    for (let sequence = 301; sequence <= 320; sequence += 1) {
      events = [...events, messageEvent(sequence)];
      rerender({ events, status: 'streaming' });
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    }

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('keeps following frame after frame', async () => {
    let events = manyEvents(300);
    const { rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#300 / })).toBeVisible();

    for (let sequence = 301; sequence <= 360; sequence += 1) {
      events = [...events, messageEvent(sequence)];
      rerender({ events, status: 'streaming' });
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    }

    await expect.element(page.getByRole('button', { name: /^#360 / })).toBeVisible();
    expect(screen.queryByRole('button', { name: /jump to latest/ })).toBeNull();
    const log = scroller();
    expect(log.scrollHeight - log.clientHeight - log.scrollTop).toBeLessThanOrEqual(24);
  });

  it('keeps the reader’s place while a bounded buffer drops the oldest events', async () => {
    const window = (from: number) => manyEvents(1_000, from);
    const { rerender } = renderLog({ events: window(1), status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#1000 / })).toBeVisible();
    const log = scroller();
    await scrollTo(log, log.scrollHeight / 2);
    const logTop = log.getBoundingClientRect().top;
    const anchorRow = [...log.querySelectorAll<HTMLElement>('[data-sequence]')].find(
      (row) => row.getBoundingClientRect().top >= logTop + 40,
    );
    const sequence = anchorRow?.dataset['sequence'];
    expect(sequence).toBeDefined();
    const topBefore = anchorRow?.getBoundingClientRect().top ?? 0;

    rerender({ events: window(11), droppedEvents: 10, status: 'streaming' });

    await expect
      .element(page.getByRole('button', { name: '10 new events, jump to latest' }))
      .toBeVisible();
    await waitFor(() => {
      const row = log.querySelector<HTMLElement>(`[data-sequence="${sequence}"]`);
      expect(Math.abs((row?.getBoundingClientRect().top ?? -1) - topBefore)).toBeLessThanOrEqual(2);
    });
  });
});

describe('given a reader who scrolls up', () => {
  it('has no axe violations while the jump button shows', async () => {
    const events = manyEvents(2_000);
    const { container, rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2000 / })).toBeVisible();
    await scrollTo(scroller(), 0);
    rerender({ events: [...events, ...manyEvents(3, 2_001)], status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /jump to latest/ })).toBeVisible();

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('stops following and counts the new events', async () => {
    const events = manyEvents(2_000);
    const { rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2000 / })).toBeVisible();

    await scrollTo(scroller(), 0);
    rerender({ events: [...events, ...manyEvents(7, 2_001)], status: 'streaming' });

    await expect
      .element(page.getByRole('button', { name: '7 new events, jump to latest' }))
      .toBeVisible();
    expect(screen.getByRole('button', { name: /^#1 / })).toBeVisible();
    expect(screen.queryByRole('button', { name: /^#2007 / })).toBeNull();
    expect(scroller().scrollTop).toBe(0);
  });

  it('jumps to the latest event, follows again and puts focus on the log', async () => {
    const events = manyEvents(2_000);
    const { rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2000 / })).toBeVisible();
    await scrollTo(scroller(), 0);
    const more = [...events, ...manyEvents(3, 2_001)];
    rerender({ events: more, status: 'streaming' });

    await userEvent.click(page.getByRole('button', { name: '3 new events, jump to latest' }));

    await expect.element(page.getByRole('button', { name: /^#2003 / })).toBeVisible();
    expect(screen.queryByRole('button', { name: /jump to latest/ })).toBeNull();
    expect(document.activeElement).toBe(scroller());
    rerender({ events: [...more, messageEvent(2_004)], status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2004 / })).toBeVisible();
  });

  it('follows again when the reader scrolls back to the end', async () => {
    const events = manyEvents(2_000);
    const { rerender } = renderLog({ events, status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2000 / })).toBeVisible();
    await scrollTo(scroller(), 0);
    rerender({ events: [...events, messageEvent(2_001)], status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /jump to latest/ })).toBeVisible();

    await scrollTo(scroller(), scroller().scrollHeight);

    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /jump to latest/ })).toBeNull(),
    );
  });

  it('never moves focus while events arrive', async () => {
    const events = manyEvents(500);
    const { rerender } = renderLog({ events, status: 'streaming' });
    const search = screen.getByRole('searchbox', { name: 'Search payloads' });
    search.focus();

    rerender({ events: [...events, ...manyEvents(100, 501)], status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#600 / })).toBeVisible();

    expect(document.activeElement).toBe(search);
  });

  it('keeps a focused row rendered when it scrolls out of view', async () => {
    const events = manyEvents(2_000);
    const { rerender } = renderLog({ events, status: 'streaming' });
    const row = page.getByRole('button', { name: /^#2000 / });
    await expect.element(row).toBeVisible();
    (row.element() as HTMLElement).focus();

    rerender({ events: [...events, ...manyEvents(200, 2_001)], status: 'streaming' });
    await expect.element(page.getByRole('button', { name: /^#2200 / })).toBeVisible();

    expect(document.activeElement?.textContent).toMatch(/^#2000 /);
  });
});

describe('given rows to inspect', () => {
  it('has no axe violations with a row expanded', async () => {
    const { container } = renderLog({ events: manyEvents(20) });
    await userEvent.click(page.getByRole('button', { name: /^#20 / }));
    await expect
      .element(page.getByRole('button', { name: /^#20 / }))
      .toHaveAttribute('aria-expanded', 'true');

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('expands a row to its pretty-printed payload and collapses it again', async () => {
    const { container } = renderLog({ events: manyEvents(1_000) });
    const toggle = page.getByRole('button', { name: /^#1000 / });
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(toggle);

    await expect.element(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle.element().closest('[data-sequence]')).toHaveAttribute('data-state', 'open');
    const payload = container.querySelector('pre');
    expect(payload?.textContent).toBe(JSON.stringify(messageEvent(1_000).payload, null, 2));
    expect(toggle.element().getAttribute('aria-controls')).toBe(payload?.id);
    await expect.element(page.getByText('"text": "token 1000"')).toBeVisible();
    expect(renderedRows(container).length).toBeLessThan(100);

    await userEvent.click(toggle);

    await expect.element(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(container.querySelector('pre')).toBeNull();
    expect(toggle.element().closest('[data-sequence]')).toHaveAttribute('data-state', 'closed');
  });

  it('shows each row’s sequence, time since start, event name, server id and the text it added', async () => {
    renderLog({
      events: [messageEvent(1), messageEvent(2, { id: undefined, receivedAt: startedAt + 1234 })],
    });

    const row = screen.getByRole('button', { name: /^#2 / });
    expect(row.textContent).toBe('#2 +1.234 s message no id token 2');
    expect(screen.getByRole('button', { name: /^#1 / }).textContent).toContain(
      '+0.010 s message id 1',
    );
  });

  it('shows a short payload preview for an event that added no text', async () => {
    renderLog({
      events: [
        messageEvent(1, {
          event: 'tool.call',
          data: '{"tool":"search"}',
        }),
      ],
    });

    const row = screen.getByRole('button', { name: /^#1 / });
    expect(row.textContent).toBe('#1 +0.010 s tool.call id 1 {"tool":"search"}');
  });

  it('says what a run.failed event reported, not the head of its JSON', async () => {
    const payload = { error: { title: 'Internal Server Error', detail: 'A tool broke.' } };
    renderLog({
      events: [
        messageEvent(1, {
          event: 'run.failed',
          data: JSON.stringify(payload),
        }),
      ],
    });

    const row = screen.getByRole('button', { name: /^#1 / });
    expect(row.textContent).toBe('#1 +0.010 s run.failed id 1 A tool broke. run failed');
  });

  it('marks attempt boundaries, restarts, invalid payloads and parse errors', async () => {
    const events = [
      messageEvent(1),
      messageEvent(2, { attempt: 2, id: '2' }),
      messageEvent(3, { attempt: 3, id: '1', restart: true }),
      messageEvent(4, { attempt: 3, data: '{"messages":"nope"}' }),
      messageEvent(5, { attempt: 3, data: 'not json {' }),
    ];
    const { container } = renderLog({ events, droppedEvents: 12, duplicateEvents: 2 });

    await expect.element(page.getByText('Attempt 2: reconnected')).toBeVisible();
    await expect
      .element(page.getByText('Attempt 3: the server started the run over'))
      .toBeVisible();
    expect(screen.getByRole('button', { name: /^#4 / }).textContent).toContain('invalid payload');
    expect(screen.getByRole('button', { name: /^#5 / }).textContent).toContain('not JSON');
    expect(screen.getByRole('button', { name: /^#5 / }).textContent).toContain('not json {');
    expect(container.querySelectorAll('[data-attempt-start]')).toHaveLength(2);
    expect(container.querySelectorAll('[data-restart]').length).toBeGreaterThan(0);
    expect(screen.getByText(/12 earlier events dropped \(buffer limit\)\./)).toBeVisible();
    expect(screen.getByText(/2 duplicate events ignored\./)).toBeVisible();
  });
});

describe('given a filter', () => {
  function mixedEvents(): RunEvent[] {
    return Array.from({ length: 3_000 }, (_, index) =>
      index % 3 === 0
        ? messageEvent(index + 1, {
            event: 'tool.call',
            data: JSON.stringify({ tool: index % 2 === 0 ? 'search' : 'calendar' }),
          })
        : messageEvent(index + 1),
    );
  }

  it('has no axe violations while filtered', async () => {
    const { container } = renderLog({ events: mixedEvents() });
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Event' }), 'tool.call');

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('filters by event name from the names seen', async () => {
    const { container } = renderLog({ events: mixedEvents() });
    const select = page.getByRole('combobox', { name: 'Event' });
    const options = within(select.element() as HTMLElement)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['All events', 'message', 'tool.call']);

    await userEvent.selectOptions(select, 'tool.call');

    await expect.element(page.getByText('Showing 1,000 of 3,000 events.')).toBeVisible();
    const names = [...container.querySelectorAll('[data-event]')].map((row) =>
      row.getAttribute('data-event'),
    );
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['tool.call']));
  });

  it('searches the payloads', async () => {
    const { container } = renderLog({ events: mixedEvents() });

    await userEvent.fill(page.getByRole('searchbox', { name: 'Search payloads' }), 'CALENDAR');

    await expect.element(page.getByText('Showing 500 of 3,000 events.')).toBeVisible();
    const previews = [...container.querySelectorAll('.ack-event-log__preview')].map(
      (preview) => preview.textContent,
    );
    expect(previews.length).toBeGreaterThan(0);
    expect(previews.every((preview) => preview === '{"tool":"calendar"}')).toBe(true);
  });

  it('says so when nothing matches', async () => {
    renderLog({ events: mixedEvents() });

    await userEvent.fill(page.getByRole('searchbox', { name: 'Search payloads' }), 'no such text');

    await expect.element(page.getByText('No event matches the filter.')).toBeVisible();
  });
});
