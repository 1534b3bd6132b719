/** What a store gives `useSyncExternalStore`: a subscription and the current snapshot. */
export interface Subscribable<Snapshot> {
  /** Calls `listener` after each change; returns the unsubscription. */
  subscribe: (listener: () => void) => () => void;
  /** The current snapshot: the same object until something changes. */
  getSnapshot: () => Snapshot;
}

/**
 * The listeners of a store. `subscribe` is bound (pass it around as a function); `notify` calls a
 * copy of the set, so a listener that unsubscribes or subscribes while it runs changes only the
 * next notification. Without `onError` a listener that throws stops the others.
 */
export class ListenerSet {
  readonly #listeners = new Set<() => void>();

  /** Adds `listener`; returns its removal. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** Calls every listener; one that throws is given to `onError` and the others still run. */
  notify(onError?: (error: unknown) => void): void {
    for (const listener of [...this.#listeners]) {
      if (onError === undefined) {
        listener();
        continue;
      }
      try {
        listener();
      } catch (error) {
        onError(error);
      }
    }
  }
}
