import type { DurableRunStore, DurableRunStoreRecord } from '../storage/durable-run-store.js';

/** The Web Locks API as a durable run uses it (`navigator.locks`). */
export interface DurableRunLockManager {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => unknown,
  ): Promise<unknown>;
}

/** Whether this tab reads the run (`leader`) or follows the one that does (`follower`). */
export type TabRole = 'leader' | 'follower';

/**
 * Asks for the lead of one run among the tabs of a browser: the tab holding the Web Lock `name`
 * leads, the others follow and queue for the lock, so that one of them takes over when the leading
 * tab closes. `onRole` is called when the role is decided and when it changes. Returns the end: the
 * lock is let go (or no longer waited for) and `onRole` is not called again.
 */
export function requestTabLead(
  locks: DurableRunLockManager,
  name: string,
  onRole: (role: TabRole) => void,
): () => void {
  let ended = false;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const waiting = new AbortController();
  // The lock is held while the promise the callback returns is pending.
  const lead = () => {
    if (ended) return undefined;
    onRole('leader');
    return held;
  };
  locks
    .request(name, { ifAvailable: true }, (lock) => {
      if (ended) return undefined;
      if (lock !== null) return lead();
      onRole('follower');
      locks.request(name, { signal: waiting.signal }, lead).catch(() => undefined);
      return undefined;
    })
    .catch(() => {
      // No lock to be had (a refusing implementation): this tab reads, as without Web Locks.
      if (!ended) onRole('leader');
    });
  return () => {
    ended = true;
    waiting.abort();
    release();
  };
}

/** The name of the Web Lock of one run of one agent in one store scope. */
export function tabLeadLockName(store: DurableRunStore, agentId: string, runId: string): string {
  return `agent-console-kit:durable-run:${store.scope}:${agentId}:${runId}`;
}

/**
 * Calls `onWrite` when the store's record `localId` is written, by another tab (the `storage`
 * event) or another object of this page, with a state or `updated_at` other than the one `shown`
 * gives (`news`), or settled. Returns the unsubscribe.
 */
export function watchRecordWrites(
  store: DurableRunStore,
  localId: string | undefined,
  shown: () => { lastState: string | undefined; lastUpdatedAt: string | undefined },
  onWrite: (record: DurableRunStoreRecord, news: boolean) => void,
): () => void {
  return store.subscribe((change) => {
    if (change.localId !== localId || change.record === undefined) return;
    const seen = shown();
    const news =
      change.record.lastState !== seen.lastState ||
      change.record.lastUpdatedAt !== seen.lastUpdatedAt;
    onWrite(change.record, news);
  });
}
