// What the run store and the thread store share about browser storage.

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
