/**
 * A page for durable runs that tests drive: a manual clock and timers, a document whose visibility
 * they set, a window that fires `online`/`offline`/`pageshow`, a navigator with `onLine` and an
 * optional Web Locks stand-in. Requests still go over real sockets.
 */
import { expect, onTestFinished } from 'vitest';
import { createAgentClient, createDurableRunStore } from 'agent-console-kit';
import type {
  AgentConversation,
  DurableRunOptions,
  DurableRunRecord,
  KeyValueStorage,
} from 'agent-console-kit/core';
import { createMockAgentServer, demoAgents } from 'agent-console-kit/testing';
import type { DurableRunEnvironment } from '../../src/core/durable/durable-run.js';
import { createMemoryStorage } from '../../src/core/storage/durable-run-store.js';
import { type DurableRunLockManager } from '../../src/core/durable/tab-leader.js';

export interface ManualPage {
  environment: DurableRunEnvironment;
  /** Moves the clock and runs every timer that falls due, in order. */
  advance(ms: number): void;
  /** The delays of the timers now scheduled, soonest first. */
  scheduled(): number[];
  now(): number;
  goOffline(): void;
  goOnline(): void;
  hide(): void;
  show(): void;
  pageshow(): void;
  /**
   * A conversation's or console's `durableRun` on this page: a run store on `storage` (a new
   * memory storage unless given; give the same one to two loads of a page) reading this clock.
   */
  durableRun(storage?: KeyValueStorage): Pick<DurableRunOptions, 'store' | 'environment'>;
}

export function manualPage(options: { locks?: DurableRunLockManager } = {}): ManualPage {
  let now = 1_790_000_000_000;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const documentTarget = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  const windowTarget = new EventTarget();
  const navigatorState: { onLine: boolean; locks?: DurableRunLockManager } = {
    onLine: true,
    ...(options.locks ? { locks: options.locks } : {}),
  };
  const page: ManualPage = {
    durableRun: (storage = createMemoryStorage()) => ({
      store: createDurableRunStore({ storage, now: () => now }),
      environment: page.environment,
    }),
    environment: {
      now: () => now,
      setTimeout: (callback, ms) => {
        const id = nextId++;
        timers.set(id, { at: now + ms, callback });
        return id;
      },
      clearTimeout: (handle) => {
        timers.delete(handle as number);
      },
      random: () => 0.5,
      document: documentTarget,
      window: windowTarget,
      navigator: navigatorState,
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of timers) {
          if (entry[1].at <= until && (due === undefined || entry[1].at < due[1].at)) due = entry;
        }
        if (due === undefined) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = until;
    },
    scheduled: () => [...timers.values()].map((timer) => timer.at - now).sort((a, b) => a - b),
    now: () => now,
    goOffline() {
      navigatorState.onLine = false;
      windowTarget.dispatchEvent(new Event('offline'));
    },
    goOnline() {
      navigatorState.onLine = true;
      windowTarget.dispatchEvent(new Event('online'));
    },
    hide() {
      documentTarget.visibilityState = 'hidden';
      documentTarget.dispatchEvent(new Event('visibilitychange'));
    },
    show() {
      documentTarget.visibilityState = 'visible';
      documentTarget.dispatchEvent(new Event('visibilitychange'));
    },
    pageshow() {
      windowTarget.dispatchEvent(new Event('pageshow'));
    },
  };
  return page;
}

/**
 * A page on a manual clock, the mock service with the demo agents on that clock, and a client of
 * it (token `tok-5f3a9c`). The service closes when the test ends.
 */
export async function serveDurableAgents() {
  const page = manualPage();
  const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
  onTestFinished(() => server.close());
  const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-5f3a9c' });
  return { page, server, client };
}

/**
 * The Web Locks API of one browser, for several pages: a lock is held while its callback's promise
 * is pending; `ifAvailable` answers `null` when it is held; a waiting request is granted in turn
 * and can be aborted with its signal.
 */
export function fakeLocks(): DurableRunLockManager & { holders(): string[] } {
  const held = new Set<string>();
  const queues = new Map<string, (() => void)[]>();
  const grant = (name: string, callback: (lock: unknown) => unknown): Promise<unknown> => {
    held.add(name);
    return Promise.resolve()
      .then(() => callback({ name }))
      .finally(() => {
        held.delete(name);
        queues.get(name)?.shift()?.();
      });
  };
  return {
    holders: () => [...held],
    request(name, options, callback) {
      if (!held.has(name)) return grant(name, callback);
      if (options.ifAvailable === true) return Promise.resolve().then(() => callback(null));
      return new Promise((resolve, reject) => {
        const queue = queues.get(name) ?? [];
        queues.set(name, queue);
        const start = () => {
          options.signal?.removeEventListener('abort', onAbort);
          grant(name, callback).then(resolve, reject);
        };
        const onAbort = () => {
          queue.splice(queue.indexOf(start), 1);
          reject(new DOMException('aborted', 'AbortError'));
        };
        options.signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(start);
      });
    },
  };
}

/** A durable run record as a read answers it: `RUNNING`, nothing pending, no output yet. */
export function durableRunRecord(patch: Partial<DurableRunRecord> = {}): DurableRunRecord {
  return {
    runId: 'run-1',
    agentId: 'agent',
    state: 'RUNNING',
    serverState: 'RUNNING',
    createdAt: '2026-11-27T20:00:00Z',
    updatedAt: '2026-11-27T20:00:00Z',
    expiresAt: undefined,
    pendingInteractions: [],
    output: { text: '', messages: [], present: false },
    error: undefined,
    requestId: 'request-1',
    status: 200,
    ...patch,
  };
}

/** Waits until the conversation's durable run has no read in flight and is not starting. */
export async function idleConversation(conversation: AgentConversation) {
  await expect
    .poll(() => {
      const run = conversation.getSnapshot().durableRun;
      return run?.connection === 'polling' || run?.status === 'starting';
    })
    .toBe(false);
}

/** Moves the page's clock by `ms` in 500 ms steps, the conversation idle after each. */
export async function tickConversation(
  page: ManualPage,
  conversation: AgentConversation,
  ms: number,
) {
  for (let left = ms; left > 0; left -= 500) {
    page.advance(Math.min(500, left));
    await idleConversation(conversation);
  }
}
