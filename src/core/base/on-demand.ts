/** A value loaded on first use (a module by `import()`) and kept. */
export interface OnDemand<T> {
  /** Loads it (once; a failed load, such as a chunk the network lost, is asked again). */
  (): Promise<T>;
  /** It, once loaded; `undefined` before. */
  loaded(): T | undefined;
}

/** `load` called on first use and its value kept; a failed load is asked again by the next call. */
export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  const get = () =>
    (loading ??= load().then(
      (loadedValue) => (value = loadedValue),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(get, { loaded: () => value });
}
