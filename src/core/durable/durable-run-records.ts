import type { DurableRunStore, DurableRunStoreRecord } from '../storage/durable-run-store.js';

// What a durable run keeps in its store record as it goes, so that a reload, another tab and the
// run list find what it showed.

/** Writes the state and `updated_at` shown into the record when they differ (not once settled). */
export function recordState(
  store: DurableRunStore,
  localId: string,
  shown: { serverState: string; updatedAt: string | undefined; at: number },
): void {
  const stored = store.get(localId);
  if (
    stored === undefined ||
    stored.phase === 'settled' ||
    (stored.lastState === shown.serverState && stored.lastUpdatedAt === shown.updatedAt)
  ) {
    return;
  }
  store.update(localId, {
    lastState: shown.serverState,
    lastUpdatedAt: shown.updatedAt,
    lastSnapshotAt: shown.at,
  });
}

/** Whether to announce the approval batch now: once per batch, across reloads and tabs. */
export function claimAnnouncement(
  store: DurableRunStore,
  localId: string,
  batchKey: string,
): boolean {
  if (store.get(localId)?.announcedBatchKey === batchKey) return false;
  store.update(localId, { announcedBatchKey: batchKey });
  return true;
}

/** A record for a run id the store does not know (attached from a link or another device). */
export function adoptRun(
  store: DurableRunStore,
  agentId: string,
  runId: string,
): DurableRunStoreRecord {
  const created = store.create({ agentId });
  return (
    store.update(created.localId, { phase: 'created', runId }) ?? {
      ...created,
      phase: 'created',
      runId,
    }
  );
}
