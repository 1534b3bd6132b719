// What the run store and the thread store share about browser storage. A page with a thread store
// loads this module and not the run store (a durable run's, loaded on its first durable turn).

/**
 * A synchronous key-value storage: `window.localStorage` and `window.sessionStorage` fit as they
 * are.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A storage in memory (what `storage: 'memory'` uses). */
export function createMemoryStorage(): KeyValueStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}

/** What went wrong with a run store's or a thread store's storage; the run goes on in memory. */
export class AgentStorageError extends Error {
  override name = 'AgentStorageError';
  readonly kind = 'storage';
  /** `'quota'` when the storage is full, `'unavailable'` when it refused otherwise. */
  readonly reason: 'quota' | 'unavailable';
  constructor(message: string, options: { reason: 'quota' | 'unavailable'; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.reason = options.reason;
  }
}

/** A refused storage write as an AgentStorageError: `'quota'` when full, else `'unavailable'`. */
export function storageWriteError(
  cause: unknown,
  messages: { quota: string; unavailable: string },
): AgentStorageError {
  const reason = isQuotaExceeded(cause) ? 'quota' : 'unavailable';
  return new AgentStorageError(messages[reason], { reason, cause });
}

/** Stored JSON, or undefined when there is none or it does not parse (storage others can write). */
export function parseStoredJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The page's window where there is one that takes listeners (the `storage` event of other tabs). */
export function browserWindow():
  Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined {
  const candidate = (globalThis as { window?: unknown }).window;
  return typeof candidate === 'object' &&
    candidate !== null &&
    typeof (candidate as EventTarget).addEventListener === 'function'
    ? (candidate as EventTarget)
    : undefined;
}

/** Whether a storage write failed because the storage is full (each browser names it its way). */
export function isQuotaExceeded(cause: unknown): boolean {
  const name = typeof cause === 'object' && cause !== null && 'name' in cause ? cause.name : '';
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? cause.code : 0;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22;
}
