/**
 * Chromium row of `npm run bench`: AgentEventLog with 100,000 events (following the newest): the
 * DOM rows it keeps, and the time to append 100 events, 40 times. Writes
 * node_modules/.cache/agent-console-kit-bench/event-log.json for bench/run.js.
 */
import { it } from 'vitest';
import { commands } from 'vitest/browser';
import { AgentEventLog, classifyEvent, type RunEvent } from 'agent-console-kit';
import { measureSteps, mount, reactBuild } from './browser-harness.js';

const initialEvents = 100_000;
const appendSize = 100;
const appends = 40;
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
  const sizes: number[] = [all.length];
  const timings = await measureSteps(
    mounted,
    appends,
    () => {
      all = [...all, ...events(all.length + 1, appendSize)];
      sizes.push(all.length);
      return { events: all };
    },
    (step) =>
      mounted.container.querySelector(`[data-sequence="${initialEvents + step * appendSize}"]`) !==
      null,
  );
  const rowsAtEnd = mounted.container.querySelectorAll('[data-sequence]').length;
  mounted.unmount();
  await commands.writeFile(
    'node_modules/.cache/agent-console-kit-bench/event-log.json',
    JSON.stringify({
      react: reactBuild(),
      events: initialEvents,
      appendSize,
      appends,
      rows: Math.max(rowsAtMount, rowsAtEnd),
      ...timings,
    }),
  );
});
