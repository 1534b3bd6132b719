/**
 * Stream production of the mock agent service: turns a run scenario into server-sent-event bytes,
 * with its timing (delays, heartbeats), its faults (drops, half-open connections), resume or
 * restart after `Last-Event-ID`, chunked writes and either line ending.
 */
import { encodeStreamItem, isEventItem } from './mock-events.js';
import type { MockStreamItem } from './mock-events.js';
import type { MockRunScenario } from './mock-agent-types.js';

/** One streaming attempt, planned. */
export interface MockStreamPlan {
  /** The items of the whole run (`repeat` applied). */
  items: MockStreamItem[];
  /** Assigned event position (1-based) of each item; 0 for comments and raw items. */
  ids: number[];
  /** The first item this attempt sends (after a resume). */
  startIndex: number;
  scenario: MockRunScenario;
  /** Whether this attempt obeys `dropAfter`. */
  drops: boolean;
}

/** How a stream ended, as recorded on its request. */
export type MockStreamEnd = 'completed' | 'dropped' | 'closedByClient';

/**
 * Plan a streaming attempt.
 * @param events the run's items for this request (see `resolveRunEvents`)
 * @param lastEventId the attempt's `Last-Event-ID` header
 * @param streamNumber the agent's streaming attempts so far, this one included (1, 2, ...)
 */
export function planStream(
  events: MockStreamItem[],
  scenario: MockRunScenario,
  lastEventId: string | undefined,
  streamNumber: number,
): MockStreamPlan {
  const repeat = Math.max(1, Math.floor(scenario.repeat ?? 1));
  const items = repeat === 1 ? events : Array.from({ length: repeat }, () => events).flat();
  const ids: number[] = [];
  let counter = 0;
  for (const item of items) ids.push(isEventItem(item) ? ++counter : 0);
  let startIndex = 0;
  if ((scenario.onReconnect ?? 'restart') === 'resume' && lastEventId !== undefined) {
    const last = Number.parseInt(lastEventId, 10);
    if (Number.isFinite(last) && last > 0) {
      const found = ids.indexOf(last);
      startIndex = found >= 0 ? found + 1 : last >= counter ? items.length : 0;
    }
  }
  const dropTimes = scenario.dropTimes ?? 1;
  return { items, ids, startIndex, scenario, drops: streamNumber <= dropTimes };
}

/** The text of a run as one answer (the platform API without `stream: true`). */
export function planText(plan: MockStreamPlan): string {
  return plan.items.map((item) => ('text' in item && !('data' in item) ? item.text : '')).join('');
}

/** Abortable wait; resolves early (never rejects) on abort and leaves no timer behind. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A macrotask gap, so separate writes really leave separately. */
function macrotask(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown })
    .setImmediate;
  return new Promise((resolve) => {
    if (immediate) immediate(resolve);
    else setTimeout(resolve, 0);
  });
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

const drop = Symbol('drop');

async function* produceStream(
  plan: MockStreamPlan,
  signal: AbortSignal,
  onEvent: () => void,
): AsyncGenerator<Uint8Array | typeof drop> {
  const { scenario } = plan;
  const encoder = new TextEncoder();
  const lineEnding = scenario.lineEnding ?? '\n';
  const chunkSize =
    scenario.chunkSize !== undefined ? Math.max(1, Math.floor(scenario.chunkSize)) : undefined;
  let eventsSent = 0;
  let firstEvent = true;

  async function* pieces(text: string): AsyncGenerator<Uint8Array> {
    const bytes = encoder.encode(text);
    if (chunkSize === undefined || bytes.length <= chunkSize) {
      yield bytes;
      return;
    }
    for (let offset = 0; offset < bytes.length; offset += chunkSize) {
      if (offset > 0) await macrotask();
      if (signal.aborted) return;
      yield bytes.slice(offset, offset + chunkSize);
    }
  }

  async function* pause(ms: number): AsyncGenerator<Uint8Array> {
    const heartbeat = scenario.heartbeatEveryMs;
    if (heartbeat === undefined || heartbeat <= 0) {
      if (ms > 0) await sleep(ms, signal);
      return;
    }
    let remaining = ms;
    while (remaining > 0 && !signal.aborted) {
      const step = Math.min(heartbeat, remaining);
      await sleep(step, signal);
      remaining -= step;
      if (remaining > 0 && !signal.aborted) yield* pieces(`: keep-alive${lineEnding}`);
    }
  }

  if (scenario.retryField !== undefined)
    yield* pieces(`retry: ${scenario.retryField}${lineEnding}`);

  for (let index = plan.startIndex; index < plan.items.length; index++) {
    const item = plan.items[index];
    if (item === undefined || signal.aborted) return;
    const isEvent = isEventItem(item);
    if (isEvent) {
      if (plan.drops && scenario.dropAfter !== undefined && eventsSent >= scenario.dropAfter) {
        yield drop;
        return;
      }
      if (scenario.halfOpenAfter !== undefined && eventsSent >= scenario.halfOpenAfter) {
        await waitForAbort(signal);
        return;
      }
      yield* pause(firstEvent ? (scenario.firstEventDelayMs ?? 0) : (scenario.delayMs ?? 0));
      if (signal.aborted) return;
      firstEvent = false;
      // counted when handed over (before its first byte is read)
      eventsSent++;
      onEvent();
    }
    yield* pieces(encodeStreamItem(item, plan.ids[index] ?? 0, lineEnding));
  }
  if (signal.aborted) return;
  if (plan.drops && scenario.dropAfter !== undefined && eventsSent >= scenario.dropAfter) {
    yield drop;
    return;
  }
  if (
    scenario.neverEnd === true ||
    (scenario.halfOpenAfter !== undefined && eventsSent >= scenario.halfOpenAfter)
  ) {
    await waitForAbort(signal);
  }
}

/** What a stream body reports while it runs. */
export interface MockStreamHooks {
  /** An event is handed over (before its first byte is read). */
  onEvent(): void;
  /** The stream ended; called once. */
  onEnd(how: MockStreamEnd): void;
}

/**
 * The response body of a planned attempt: pulled one piece at a time (nothing is produced ahead
 * of the reader), errored when the scenario drops the connection, stopped when the reader cancels.
 */
export function createStreamBody(
  plan: MockStreamPlan,
  hooks: MockStreamHooks,
): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  let finished = false;
  const finish = (how: MockStreamEnd) => {
    if (finished) return;
    finished = true;
    hooks.onEnd(how);
  };
  const generator = produceStream(plan, abort.signal, () => hooks.onEvent());
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await generator.next();
          if (finished) return;
          if (next.done) {
            finish('completed');
            controller.close();
          } else if (next.value === drop) {
            finish('dropped');
            controller.error(
              new TypeError('mock agent service: connection dropped by the scenario'),
            );
          } else {
            controller.enqueue(next.value);
          }
        } catch (error) {
          if (finished) return;
          finish('dropped');
          controller.error(error);
        }
      },
      cancel() {
        finish('closedByClient');
        abort.abort();
        void generator.return(undefined).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
