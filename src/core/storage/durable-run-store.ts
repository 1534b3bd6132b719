import type { AgentMessage } from '../wire/schemas.js';
import {
  AgentStorageError,
  browserWindow,
  createMemoryStorage,
  parseStoredJson,
  storageWriteError,
  type KeyValueStorage,
} from '../base/storage-helpers.js';

export { AgentStorageError, createMemoryStorage, type KeyValueStorage };

/** Where a durable run stands in its record. */
export type DurableRunStoreRecordPhase = 'creating' | 'created' | 'settled';

/**
 * What a {@link DurableRunStore} keeps of one durable run: ids, phases and times, and a short preview of
 * what was asked. Never a token, a header, a whole input, the output or a tool's arguments.
 */
export interface DurableRunStoreRecord {
  v: 1;
  /** This library's id for the run, known before the POST. */
  localId: string;
  agentId: string;
  /** The service's run id, from the 201 (absent while `creating`). */
  runId?: string;
  /**
   * `'creating'`: written before the start POST (a reload finds it: "may have started, not sent
   * again"); `'created'`: the 201 gave the run id; `'settled'`: a final state was seen.
   */
  phase: DurableRunStoreRecordPhase;
  /** When the record was written first (ms since the epoch). */
  startedAt: number;
  /** What was asked, at most 200 characters: the last message's text, or the input's field names. */
  request: { kind: 'messages' | 'input'; preview: string };
  /** The server's last state seen. */
  lastState?: string;
  /** The server's `updated_at` last seen. */
  lastUpdatedAt?: string;
  /** When a snapshot with a new state or `updated_at` was last written (ms since the epoch). */
  lastSnapshotAt?: number;
  /** When the run settled (ms since the epoch). */
  settledAt?: number;
  /** The approval batch last announced (`onRequiresInput`), so a reload does not announce it again. */
  announcedBatchKey?: string;
  /** The approval batch whose decisions were last sent. */
  decidedBatchKey?: string;
}

/** The longest preview a {@link DurableRunStoreRecord} keeps. */
export const runRecordPreviewLength = 200;

/** Options of {@link createDurableRunStore}. */
export interface DurableRunStoreOptions {
  /**
   * Where records are kept: any `getItem`/`setItem`/`removeItem` storage, or `'local'`,
   * `'session'`, `'memory'`.
   * @default 'local' in a browser (window.localStorage), 'memory' elsewhere
   */
  storage?: KeyValueStorage | 'local' | 'session' | 'memory';
  /**
   * The first part of every key.
   * @default 'agent-console-kit:v1'
   */
  namespace?: string;
  /**
   * The second part of every key: give the signed-in user (and the deployment) so that two users
   * of one browser never see each other's runs.
   * @default 'default'
   */
  scope?: string;
  /**
   * How long a settled record is kept (a reload soon after the end still shows the answer once,
   * without announcing it again).
   * @default 86_400_000 (24 h)
   */
  settledRetentionMs?: number;
  /**
   * The clock, in ms since the epoch.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Where the `storage` event of other tabs comes from.
   * @default globalThis.window, when there is one
   */
  eventTarget?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

/** A change of a record: the record after it, or `undefined` when it was removed. */
export interface DurableRunStoreChange {
  localId: string;
  record: DurableRunStoreRecord | undefined;
  /** Whether it came from another tab (the `storage` event). */
  external: boolean;
}

/** What {@link DurableRunStore.create} is given. */
export interface DurableRunStoreRecordInit {
  agentId: string;
  localId?: string;
  messages?: readonly AgentMessage[] | undefined;
  input?: Record<string, unknown> | undefined;
}

/** The records of durable runs, written so that a reload at any moment finds its run again. */
export interface DurableRunStore {
  readonly namespace: string;
  readonly scope: string;
  /** The last storage failure (the records then live in memory), if any. */
  readonly error: AgentStorageError | undefined;
  /** Writes a `'creating'` record: call it before the start POST. */
  create(init: DurableRunStoreRecordInit): DurableRunStoreRecord;
  get(localId: string): DurableRunStoreRecord | undefined;
  /** The record of a run id for an agent. */
  findByRunId(agentId: string, runId: string): DurableRunStoreRecord | undefined;
  /**
   * Every record, newest first. `prune` (default true) removes settled records past retention
   * first; `false` only reads (no write, no change notified: safe while rendering).
   */
  list(filter?: { agentId?: string; prune?: boolean }): DurableRunStoreRecord[];
  /** Merges `patch` into a record and writes it; `undefined` when there is no such record. */
  update(
    localId: string,
    patch: Partial<Omit<DurableRunStoreRecord, 'v' | 'localId'>>,
  ): DurableRunStoreRecord | undefined;
  /** Marks a record settled; `true` only for the call that settled it (the once-only key). */
  settle(localId: string, state: string): boolean;
  remove(localId: string): void;
  /** Removes settled records past retention. */
  prune(): void;
  /** Listens to changes, this tab's and (through the `storage` event) other tabs'. */
  subscribe(listener: (change: DurableRunStoreChange) => void): () => void;
}

// The names before the store was named for what it holds (the lead cuts them with the API).

const defaultNamespace = 'agent-console-kit:v1';
const dayMs = 24 * 60 * 60 * 1000;

/**
 * Creates a {@link DurableRunStore}. Records are plain JSON under `{namespace}:{scope}:run:{localId}`,
 * with an index at `{namespace}:{scope}:runs`. A full or refusing storage sets `error` (a typed
 * {@link AgentStorageError}) and the records go on in memory.
 *
 * @example
 * const store = createDurableRunStore({ scope: `user-${userId}` });
 * const run = createDurableRun(client, { agentId, store });
 */
export function createDurableRunStore(options: DurableRunStoreOptions = {}): DurableRunStore {
  const namespace = options.namespace ?? defaultNamespace;
  const scope = options.scope ?? 'default';
  const retentionMs = options.settledRetentionMs ?? dayMs;
  const now = options.now ?? Date.now;
  const storage = resolveStorage(options.storage);
  const prefix = `${namespace}:${scope}:`;
  const indexKey = `${prefix}runs`;
  const recordKey = (localId: string) => `${prefix}run:${localId}`;
  // What could not be written stays here, so the run goes on in memory.
  const fallback = new Map<string, string | null>();
  const listeners = new Set<(change: DurableRunStoreChange) => void>();
  let error: AgentStorageError | undefined;
  let counter = 0;

  const read = (key: string): string | null => {
    if (fallback.has(key)) return fallback.get(key) ?? null;
    try {
      return storage.getItem(key);
    } catch (cause) {
      error = toStorageError(cause);
      return null;
    }
  };
  const write = (key: string, value: string | null) => {
    try {
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
      fallback.delete(key);
    } catch (cause) {
      error = toStorageError(cause);
      fallback.set(key, value);
    }
  };
  const readIndex = (): string[] => {
    const parsed = parseStoredJson(read(indexKey));
    return Array.isArray(parsed)
      ? parsed.filter((item): item is string => typeof item === 'string')
      : [];
  };
  // A record is known by the key it is stored under: one whose `localId` says otherwise (written
  // by hand or by another version) could otherwise be listed but never removed.
  const readRecord = (localId: string): DurableRunStoreRecord | undefined => {
    const record = asRecord(parseStoredJson(read(recordKey(localId))));
    return record === undefined || record.localId === localId ? record : { ...record, localId };
  };
  const notify = (
    localId: string,
    record: DurableRunStoreRecord | undefined,
    external: boolean,
  ) => {
    for (const listener of [...listeners]) listener({ localId, record, external });
  };
  const put = (record: DurableRunStoreRecord) => {
    write(recordKey(record.localId), JSON.stringify(record));
    const index = readIndex();
    if (!index.includes(record.localId))
      write(indexKey, JSON.stringify([...index, record.localId]));
    notify(record.localId, record, false);
  };
  const removeRecord = (localId: string) => {
    write(recordKey(localId), null);
    const index = readIndex();
    if (index.includes(localId)) {
      write(indexKey, JSON.stringify(index.filter((item) => item !== localId)));
    }
    notify(localId, undefined, false);
  };

  const onStorage = (event: Event) => {
    const key = (event as StorageEvent).key;
    if (typeof key !== 'string' || !key.startsWith(`${prefix}run:`)) return;
    const localId = key.slice(`${prefix}run:`.length);
    notify(localId, readRecord(localId), true);
  };
  const eventTarget = options.eventTarget ?? browserWindow();

  const store: DurableRunStore = {
    namespace,
    scope,
    get error() {
      return error;
    },
    create(init) {
      const localId =
        init.localId ?? `local-${now().toString(36)}-${(++counter).toString(36)}-${randomPart()}`;
      const record: DurableRunStoreRecord = {
        v: 1,
        localId,
        agentId: init.agentId,
        phase: 'creating',
        startedAt: now(),
        request: previewOf(init),
      };
      put(record);
      return record;
    },
    get: readRecord,
    findByRunId(agentId, runId) {
      for (const localId of readIndex()) {
        const record = readRecord(localId);
        if (record?.agentId === agentId && record.runId === runId) return record;
      }
      return undefined;
    },
    list(filter = {}) {
      if (filter.prune !== false) store.prune();
      return readIndex()
        .map(readRecord)
        .filter((record): record is DurableRunStoreRecord => record !== undefined)
        .filter((record) => filter.agentId === undefined || record.agentId === filter.agentId)
        .sort((a, b) => b.startedAt - a.startedAt);
    },
    update(localId, patch) {
      const record = readRecord(localId);
      if (record === undefined) return undefined;
      const next: DurableRunStoreRecord = { ...record, ...stripUndefined(patch), v: 1, localId };
      put(next);
      return next;
    },
    settle(localId, state) {
      const record = readRecord(localId);
      if (record === undefined || record.phase === 'settled') return false;
      put({ ...record, phase: 'settled', lastState: state, settledAt: now() });
      return true;
    },
    remove: removeRecord,
    prune() {
      const cutoff = now() - retentionMs;
      for (const localId of readIndex()) {
        const record = readRecord(localId);
        if (record === undefined) {
          write(indexKey, JSON.stringify(readIndex().filter((item) => item !== localId)));
        } else if (record.phase === 'settled' && (record.settledAt ?? 0) <= cutoff) {
          removeRecord(localId);
        }
      }
    },
    subscribe(listener) {
      if (listeners.size === 0) eventTarget?.addEventListener('storage', onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) eventTarget?.removeEventListener('storage', onStorage);
      };
    },
  };
  return store;
}

function resolveStorage(option: DurableRunStoreOptions['storage']): KeyValueStorage {
  if (typeof option === 'object') return option;
  if (option === 'memory') return createMemoryStorage();
  const name = option === 'session' ? 'sessionStorage' : 'localStorage';
  try {
    const candidate = (globalThis as Record<string, unknown>)[name];
    if (isStorage(candidate) && browserWindow() !== undefined) return candidate;
  } catch {
    // A sandboxed frame throws on reading localStorage.
  }
  return createMemoryStorage();
}

function isStorage(value: unknown): value is KeyValueStorage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as KeyValueStorage).getItem === 'function' &&
    typeof (value as KeyValueStorage).setItem === 'function' &&
    typeof (value as KeyValueStorage).removeItem === 'function'
  );
}

function toStorageError(cause: unknown): AgentStorageError {
  return storageWriteError(cause, {
    quota: 'The run store is full: this run is kept in memory only and will not survive a reload.',
    unavailable:
      'The run store refused a write: this run is kept in memory only and will not survive a reload.',
  });
}

function asRecord(value: unknown): DurableRunStoreRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Partial<DurableRunStoreRecord>;
  const phases: readonly unknown[] = ['creating', 'created', 'settled'];
  if (
    record.v !== 1 ||
    typeof record.localId !== 'string' ||
    typeof record.agentId !== 'string' ||
    !phases.includes(record.phase) ||
    typeof record.startedAt !== 'number' ||
    (record.runId !== undefined && typeof record.runId !== 'string')
  ) {
    return undefined;
  }
  const request = record.request as Partial<DurableRunStoreRecord['request']> | undefined;
  return {
    ...record,
    request: {
      kind: request?.kind === 'input' ? 'input' : 'messages',
      preview: typeof request?.preview === 'string' ? request.preview.slice(0, 200) : '',
    },
  } as DurableRunStoreRecord;
}

function previewOf(init: DurableRunStoreRecordInit): DurableRunStoreRecord['request'] {
  if (init.messages !== undefined && init.messages.length > 0) {
    const last = init.messages[init.messages.length - 1];
    const text = (last?.content ?? [])
      .map((block) => (typeof block.text === 'string' ? block.text : ''))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    return { kind: 'messages', preview: truncate(text) };
  }
  // Form values may be personal: only the field names are kept.
  return { kind: 'input', preview: truncate(Object.keys(init.input ?? {}).join(', ')) };
}

function truncate(text: string): string {
  return text.length > runRecordPreviewLength
    ? `${text.slice(0, runRecordPreviewLength - 1)}…`
    : text;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}

function randomPart(): string {
  return Math.floor(Math.random() * 0x100000000)
    .toString(36)
    .padStart(7, '0');
}

let pageStore: DurableRunStore | undefined;

/** The store shared by the durable runs of a page that were given none. */
export function defaultRunStore(): DurableRunStore {
  return (pageStore ??= createDurableRunStore());
}
