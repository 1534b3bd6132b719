import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import type { RunEvent } from 'agent-console-kit';
import { eventsToNdjson } from 'agent-console-kit/core';
import { messageEvent, renderLog, startedAt } from '../support/event-log.js';

// The virtual rows themselves need a real layout: see agent-event-log.browser.test.tsx.

const events: RunEvent[] = [
  messageEvent(1),
  messageEvent(2, { event: 'tool.call', data: '{"tool":"search"}' }),
  messageEvent(3, { data: 'not json' }),
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('given no events', () => {
  it('has no axe violations', async () => {
    const { container } = renderLog({ events: [] });
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('shows a labelled, focusable log that says it is empty', () => {
    renderLog({ events: [] });

    const log = screen.getByRole('log', { name: 'Run events' });
    expect(log).toHaveAttribute('tabindex', '0');
    expect(log).toHaveTextContent('No events yet.');
    expect(screen.getByRole('region', { name: 'Run events' })).toBeInTheDocument();
    expect(screen.getByText('0 events.')).toBeInTheDocument();
  });
});

describe('given a run whose status changes', () => {
  it('has no axe violations', async () => {
    const { container } = renderLog({ events, status: 'streaming' });
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('announces each change once in a polite live region, not each event', () => {
    const { rerender } = renderLog({ events: [], status: 'idle' });
    const region = screen.getAllByRole('status').find((element) => element.className === '');
    if (!region) throw new Error('no live region');
    expect(region).toHaveTextContent('');

    rerender({ events: [], status: 'connecting' });
    expect(region).toHaveTextContent('Run started.');
    rerender({ events: events.slice(0, 1), status: 'streaming' });
    rerender({ events: events.slice(0, 2), status: 'streaming' });
    expect(region).toHaveTextContent('Run started.');
    rerender({ events: events.slice(0, 2), status: 'reconnecting' });
    expect(region).toHaveTextContent('Reconnecting.');
    rerender({ events, status: 'streaming' });
    expect(region).toHaveTextContent('Reconnected.');
    rerender({ events, status: 'done' });
    expect(region).toHaveTextContent('Run finished: 3 events.');
    rerender({ events: [], status: 'connecting' });
    expect(region).toHaveTextContent('Run started.');
    rerender({ events: [], status: 'error' });
    expect(region).toHaveTextContent('Run failed.');
    rerender({ events: [], status: 'aborted' });
    expect(region).toHaveTextContent('Run stopped.');
    // The log itself is not read out as rows arrive.
    expect(screen.getByRole('log')).toHaveAttribute('aria-live', 'off');
  });

  it('leaves the announcing to the page when asked', () => {
    renderLog({ events, status: 'streaming', announceStatus: false });

    expect(screen.getAllByRole('status').map((element) => element.className)).toEqual([
      'ack-event-log__copy-status',
    ]);
  });
});

describe('given events to count, filter and export', () => {
  it('has no axe violations', async () => {
    const { container } = renderLog({ events, droppedEvents: 40, duplicateEvents: 1 });
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('counts events, dropped events and duplicates', () => {
    renderLog({ events, droppedEvents: 40, duplicateEvents: 1 });

    expect(
      screen.getByText(
        '3 events. 40 earlier events dropped (buffer limit). 1 duplicate event ignored.',
      ),
    ).toBeInTheDocument();
  });

  it('offers the event names seen as a filter', async () => {
    const user = userEvent.setup();
    renderLog({ events });
    const select = screen.getByRole('combobox', { name: 'Event' });

    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All events', 'message', 'tool.call']);
    await user.selectOptions(select, 'tool.call');
    expect(screen.getByText('Showing 1 of 3 events.')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search payloads' }), 'nothing like it');
    expect(await screen.findByText('Showing 0 of 3 events.')).toBeInTheDocument();
    expect(screen.getByRole('log')).toHaveTextContent('No event matches the filter.');
  });

  it('copies the shown events to the clipboard as NDJSON', async () => {
    const user = userEvent.setup();
    renderLog({ events });

    await user.click(screen.getByRole('button', { name: 'Copy NDJSON' }));

    expect(await screen.findByText('Copied 3 events as NDJSON.')).toBeInTheDocument();
    const copied = await navigator.clipboard.readText();
    expect(copied).toBe(eventsToNdjson(events));
    const lines = copied
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      {
        sequence: 1,
        id: '1',
        event: 'message',
        attempt: 1,
        restart: false,
        receivedAt: new Date(startedAt + 10).toISOString(),
        kind: 'message',
        payload: events[0]?.payload,
      },
      expect.objectContaining({ sequence: 2, event: 'tool.call', payload: { tool: 'search' } }),
      expect.objectContaining({ sequence: 3, kind: 'parse-error', data: 'not json' }),
    ]);
  });

  it('says so when the clipboard refuses', async () => {
    const user = userEvent.setup();
    renderLog({ events });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));

    await user.click(screen.getByRole('button', { name: 'Copy NDJSON' }));

    expect(
      await screen.findByText('Copying failed: the browser refused clipboard access.'),
    ).toBeInTheDocument();
  });

  it('downloads the shown events as an NDJSON file from a Blob URL', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:http://localhost/events';
    });
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    renderLog({ events, downloadFileName: 'my-run.ndjson' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Event' }), 'message');
    await user.click(screen.getByRole('button', { name: 'Download NDJSON' }));

    expect(clicked).toHaveLength(1);
    expect(clicked[0]?.download).toBe('my-run.ndjson');
    expect(clicked[0]?.href).toBe('blob:http://localhost/events');
    expect(blobs[0]?.type).toBe('application/x-ndjson');
    expect(await blobs[0]?.text()).toBe(
      eventsToNdjson(events.filter((event) => event.event === 'message')),
    );
    await expect.poll(() => revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/events');
    expect(document.querySelector('a[download]')).toBeNull();
  });
});
