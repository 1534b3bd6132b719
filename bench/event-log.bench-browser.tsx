/**
 * Chromium row of `npm run bench`: AgentEventLog with 100,000 events (following the newest): the
 * DOM rows it keeps, and the time to append 100 events, 40 times after 5 warm-up appends. Writes
 * node_modules/.cache/agent-console-kit-bench/event-log.json for bench/run.js.
 */
import { it } from 'vitest';
import { commands } from 'vitest/browser';
import { AgentEventLog, type RunEvent } from 'agent-console-kit';
import { classifyEvent } from 'agent-console-kit/core';
import { measureSteps, mount, reactBuild } from './browser-harness.js';

const initialEvents = 100_000;
const appendSize = 100;
const appends = 40;
const warmUpAppends = 5;
const startedAt = Date.UTC(2026, 0, 1, 12, 0, 0);

function events(from: number, count: number): RunEvent[] {
  return Array.from({ length: count }, (_, index) => {
    const sequence = from + index;
    const data = JSON.stringify({
      messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text: `${sequence} ` }] }],
    });
    return classifyEvent(
      { id: String(sequence), event: 'message', data },
      { sequence, receivedAt: startedAt + sequence, attempt: 1, restart: false },
    );
  });
}

it('measures AgentEventLog', async () => {
  let all = events(1, initialEvents);
  const mounted = await mount(
    (props: { events: readonly RunEvent[] }) => (
      <AgentEventLog events={props.events} status="streaming" startedAt={startedAt} height={480} />
    ),
    { events: all },
  );
  const rowsAtMount = mounted.container.querySelectorAll('[data-sequence]').length;
  let appended = 0;
  const append = () => {
    all = [...all, ...events(all.length + 1, appendSize)];
    appended += 1;
    return { events: all };
  };
  const shown = () =>
    mounted.container.querySelector(
      `[data-sequence="${initialEvents + appended * appendSize}"]`,
    ) !== null;
  // The first appends after mounting 100,000 events also pay the JIT's warm-up and the collection
  // of what the mount allocated: measured and reported, not counted in the percentiles.
  const warmUp = await measureSteps(mounted, warmUpAppends, append, shown);
  const timings = await measureSteps(mounted, appends, append, shown);
  const rowsAtEnd = mounted.container.querySelectorAll('[data-sequence]').length;
  mounted.unmount();
  await commands.writeFile(
    'node_modules/.cache/agent-console-kit-bench/event-log.json',
    JSON.stringify({
      react: reactBuild(),
      events: initialEvents,
      appendSize,
      appends,
      warmUp: { appends: warmUpAppends, max: warmUp.max, samples: warmUp.samples },
      rows: Math.max(rowsAtMount, rowsAtEnd),
      ...timings,
    }),
  );
});
