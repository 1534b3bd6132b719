/**
 * The polling cost of a durable run: the reads a 30-minute run that never changes costs, counted at
 * the mock service (real sockets), in a visible tab and in a hidden one. The clocks of the page
 * and of the service are one manual clock, so the half hour takes about a second.
 */
// A namespace import: `--compare=<older ref>` bundles this file against sources without durable
// runs, where named imports would not build (only the throughput rounds run there).
import * as core from 'agent-console-kit/core';
import { createMockAgentServer } from 'agent-console-kit/testing';

const minutes = 30;

async function readsOfOneRun(hidden: boolean): Promise<number> {
  let now = Date.UTC(2026, 10, 25);
  const timers = new Map<number, { at: number; callback: () => void }>();
  let nextId = 1;
  const server = await createMockAgentServer({
    now: () => now,
    agents: [
      {
        agent: { agent_id: 'long', name: 'Long', capabilities: { 'ap.io.messages': true } },
        // Longer than the half hour measured, and silent: the schedule is never reset by a change.
        durable: {
          turns: [{ runningMs: 2 * 60 * 60_000, text: '' }],
          executionTimeoutMs: 3 * 60 * 60_000,
        },
      },
    ],
  });
  try {
    const run = core.createDurableRun(
      core.createAgentClient({ baseUrl: server.url, api: 'platform' }),
      {
        agentId: 'long',
        store: core.createDurableRunStore({ storage: 'memory' }),
        environment: {
          now: () => now,
          setTimeout: (callback, ms) => {
            timers.set(nextId, { at: now + ms, callback });
            return nextId++;
          },
          clearTimeout: (id) => void timers.delete(id as number),
          document: Object.assign(new EventTarget(), {
            visibilityState: hidden ? 'hidden' : 'visible',
          }),
          window: new EventTarget(),
          navigator: { onLine: true },
        },
      },
    );
    await run.start({ messages: [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }] });
    const end = now + minutes * 60_000;
    while (now < end) {
      // The read in flight answers before the clock moves on.
      while (run.getSnapshot().connection === 'polling')
        await new Promise((resolve) => setTimeout(resolve, 1));
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of timers) if (due === undefined || entry[1].at < due[1].at) due = entry;
      if (due === undefined || due[1].at > end) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].callback();
    }
    run.detach();
    return server.service.durableStats.polls;
  } finally {
    await server.close();
  }
}

/** Reads of a 30-minute run, visible and hidden, and what that is per minute. */
export async function durablePolling() {
  const visible = await readsOfOneRun(false);
  const hidden = await readsOfOneRun(true);
  return {
    minutes,
    visible,
    hidden,
    visiblePerMinute: visible / minutes,
    hiddenPerMinute: hidden / minutes,
  };
}
