import { describe, expect, it } from 'vitest';
import { defaultDurablePollPolicy } from '../../../src/core/durable/durable-poll-schedule.js';
import { durablePollDelay } from '../../../src/core/durable/durable-poll-schedule.js';
import { type DurablePollSituation } from '../../../src/core/durable/durable-poll-schedule.js';

const second = 1000;
const minute = 60 * second;

describe('the durable poll schedule', () => {
  // [situation, delay]: the README's table, row by row.
  const table: [string, DurablePollSituation, number | undefined][] = [
    ['running, just changed', { phase: 'active', sinceChangeMs: 0 }, 1000],
    ['running, 9.9 s since a change', { phase: 'active', sinceChangeMs: 9_999 }, 1000],
    ['running, 10 s since a change', { phase: 'active', sinceChangeMs: 10_000 }, 2000],
    ['running, 1 min since a change', { phase: 'active', sinceChangeMs: minute }, 2000],
    ['running, 2 min since a change', { phase: 'active', sinceChangeMs: 2 * minute }, 5000],
    ['running, 20 min since a change', { phase: 'active', sinceChangeMs: 20 * minute }, 5000],
    ['cancelling', { phase: 'cancelling', sinceChangeMs: 5 * minute }, 1000],
    ['waiting for approval', { phase: 'requires-input', sinceChangeMs: 0 }, 15_000],
    ['an unknown state', { phase: 'unknown', sinceChangeMs: 0 }, 15_000],
    ['hidden, running, just changed', { phase: 'active', sinceChangeMs: 0, hidden: true }, 4000],
    [
      'hidden, running, patient',
      { phase: 'active', sinceChangeMs: 3 * minute, hidden: true },
      20_000,
    ],
    [
      'hidden, waiting for approval',
      { phase: 'requires-input', sinceChangeMs: 0, hidden: true },
      30_000,
    ],
    ['hidden, cancelling', { phase: 'cancelling', sinceChangeMs: 0, hidden: true }, 4000],
    ['offline', { phase: 'active', sinceChangeMs: 0, offline: true }, undefined],
    ['settled', { phase: 'settled', sinceChangeMs: 0 }, undefined],
    [
      '1 failed read (jitter at its lowest)',
      { phase: 'active', sinceChangeMs: 0, consecutiveFailures: 1, random: () => 0 },
      1000,
    ],
    [
      '1 failed read (jitter at its highest)',
      { phase: 'active', sinceChangeMs: 0, consecutiveFailures: 1, random: () => 1 },
      2000,
    ],
    [
      '3 failed reads',
      { phase: 'active', sinceChangeMs: 0, consecutiveFailures: 3, random: () => 1 },
      8000,
    ],
    [
      '10 failed reads: capped',
      { phase: 'active', sinceChangeMs: 0, consecutiveFailures: 10, random: () => 1 },
      30_000,
    ],
    [
      'a 429 with Retry-After 45 s',
      {
        phase: 'active',
        sinceChangeMs: 0,
        consecutiveFailures: 1,
        retryAfterMs: 45_000,
        random: () => 1,
      },
      45_000,
    ],
    [
      'a 429 with Retry-After 45 s, hidden',
      {
        phase: 'active',
        sinceChangeMs: 0,
        consecutiveFailures: 1,
        retryAfterMs: 45_000,
        hidden: true,
        random: () => 1,
      },
      45_000,
    ],
    [
      '3 s before the 40-minute deadline, patient',
      { phase: 'active', sinceChangeMs: 5 * minute, untilDeadlineMs: 3000 },
      4000,
    ],
    [
      '0.5 s before the deadline, hidden',
      { phase: 'active', sinceChangeMs: 5 * minute, hidden: true, untilDeadlineMs: 500 },
      1500,
    ],
    [
      'past the deadline: the usual pace',
      { phase: 'active', sinceChangeMs: 5 * minute, untilDeadlineMs: -1 },
      5000,
    ],
    [
      'the deadline does not hurry a paused run',
      { phase: 'requires-input', sinceChangeMs: 0, untilDeadlineMs: 100 },
      15_000,
    ],
  ];

  it.each(table)('%s', (_name, situation, expected) => {
    expect(durablePollDelay(situation)).toBe(expected);
  });

  it('takes a policy', () => {
    const policy = { ...defaultDurablePollPolicy, steadyMs: 3000 };
    expect(durablePollDelay({ phase: 'active', sinceChangeMs: 30_000 }, policy)).toBe(3000);
  });

  it('reads a 30-minute run about 560 times in the foreground and 140 in the background', () => {
    // Requests per run: the bench row's number, as a check of the schedule's shape.
    const count = (hidden: boolean) => {
      let time = 0;
      let reads = 0;
      while (time < 30 * minute) {
        time += durablePollDelay({ phase: 'active', sinceChangeMs: time, hidden }) ?? 0;
        reads++;
      }
      return reads;
    };
    expect(count(false)).toBeLessThan(600);
    expect(count(true)).toBeLessThan(count(false) / 3);
  });
});
