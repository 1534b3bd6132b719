import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { AgentEventLog, type RunEvent } from 'agent-console-kit';
import { classifyEvent } from 'agent-console-kit/core';
import { indexEventNames } from '../../src/components/event-log-format.js';

// The event names of the log's filter, kept up to date per append (and per dropped head) rather
// than counted again over the whole list.

function makeEvent(sequence: number, event: string): RunEvent {
  return classifyEvent(
    { id: String(sequence), event, data: '{}' },
    { sequence, receivedAt: sequence, attempt: 1, restart: false },
  );
}

const nameOf = (sequence: number) => (sequence % 5 === 0 ? 'tool.call' : 'message');
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) =>
    makeEvent(from + index, nameOf(from + index)),
  );

/** The counts from scratch, to compare with. */
function countsOf(events: readonly RunEvent[]) {
  const counts = new Map<string, number>();
  for (const event of events) counts.set(event.event, (counts.get(event.event) ?? 0) + 1);
  return counts;
}

describe('indexEventNames', () => {
  it('counts the names of a list, sorted', () => {
    const index = indexEventNames(undefined, [
      makeEvent(1, 'run.started'),
      makeEvent(2, 'message'),
      makeEvent(3, 'message'),
    ]);
    expect(index.names).toEqual(['message', 'run.started']);
    expect(index.counts).toEqual(
      new Map([
        ['run.started', 1],
        ['message', 2],
      ]),
    );
  });

  it('follows appends and a dropped head, as a bounded buffer gives them', () => {
    // The same event objects from one snapshot to the next, as RunStream publishes them.
    const all = range(1, 400);
    let index = indexEventNames(undefined, all.slice(0, 100));
    for (let end = 110; end <= 400; end += 10) {
      const events = all.slice(Math.max(0, end - 100), end); // keeps the newest 100
      index = indexEventNames(index, events);
      expect(index.events).toBe(events);
      expect(index.counts).toEqual(countsOf(events));
    }
  });

  it('drops a name when its last event leaves the head, and adds one that arrives', () => {
    const first = [makeEvent(1, 'run.started'), ...range(2, 20)];
    const before = indexEventNames(undefined, first);
    expect(before.names).toEqual(['message', 'run.started', 'tool.call']);

    const next = [...first.slice(1), makeEvent(21, 'run.finished')];
    const after = indexEventNames(before, next);
    expect(after.names).toEqual(['message', 'run.finished', 'tool.call']);
    expect(after.counts).toEqual(countsOf(next));
    // The previous index is left as it was.
    expect(before.names).toEqual(['message', 'run.started', 'tool.call']);
    expect(before.counts).toEqual(countsOf(first));
  });

  it('keeps the same names array while no name comes or goes', () => {
    const all = range(1, 50);
    const before = indexEventNames(undefined, all.slice(0, 40));
    const after = indexEventNames(before, all.slice(2, 50));
    expect(after.names).toBe(before.names);
    expect(indexEventNames(after, after.events)).toBe(after);
  });

  it('counts again a list that is not the previous one grown or trimmed', () => {
    const before = indexEventNames(undefined, range(1, 30));
    // A new run: other events under the same sequence numbers.
    const other = Array.from({ length: 30 }, (_, index) => makeEvent(index + 1, 'other'));
    expect(indexEventNames(before, other).names).toEqual(['other']);
    // Emptied, then a list that skips what the previous one ended with.
    expect(indexEventNames(before, []).names).toEqual([]);
    const gap = [...range(1, 30).slice(0, 10), makeEvent(40, 'late')];
    expect(indexEventNames(before, gap).counts).toEqual(countsOf(gap));
  });
});

describe('AgentEventLog name filter', () => {
  it('offers only the names still in the list after its head drops', () => {
    const first = [makeEvent(1, 'run.started'), ...range(2, 30)];
    const { rerender } = render(<AgentEventLog events={first} />);
    const options = () =>
      within(screen.getByRole('combobox', { name: 'Event' }))
        .getAllByRole('option')
        .map((option) => option.textContent);
    expect(options()).toEqual(['All events', 'message', 'run.started', 'tool.call']);

    const next = [...first.slice(1), makeEvent(31, 'run.finished')];
    rerender(<AgentEventLog events={next} />);
    expect(options()).toEqual(['All events', 'message', 'run.finished', 'tool.call']);
  });
});
