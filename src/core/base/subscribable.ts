/** What a store gives `useSyncExternalStore`: a subscription and the current snapshot. */
export interface Subscribable<Snapshot> {
  /** Calls `listener` after each change; returns the unsubscription. */
  subscribe: (listener: () => void) => () => void;
  /** The current snapshot: the same object until something changes. */
  getSnapshot: () => Snapshot;
}

/**
 * What an engine does when it gains its first listener and when it has lost its last one: its
 * lifecycle follows subscription, as a TanStack `QueryObserver`'s does (`onSubscribe`,
 * `onUnsubscribe`).
 */
export interface ListenerSetLifecycle {
  /**
   * Called when a listener arrives and none was there (not when one comes back within the grace
   * after the last left: nothing was stopped then).
   */
  onFirst?: (() => void) | undefined;
  /** Called when the last listener has left and none came back within the grace. */
  onLast?: (() => void) | undefined;
}

/**
 * The listeners of a store. `subscribe` is bound (pass it around as a function); `notify` calls a
 * copy of the set, so a listener that unsubscribes or subscribes while it runs changes only the
 * next notification. Without `onError` a listener that throws stops the others.
 *
 * With a lifecycle, the store starts on its first listener and stops after its last one, a grace
 * later (see `#stopSoon`).
 */
export class ListenerSet {
  readonly #listeners = new Set<() => void>();
  readonly #lifecycle: ListenerSetLifecycle;
  #everObserved = false;
  // The grace in progress (a new object per grace, so an older one that ends late does nothing).
  #grace: object | undefined;

  constructor(lifecycle: ListenerSetLifecycle = {}) {
    this.#lifecycle = lifecycle;
  }

  /** How many listeners there are. */
  get size(): number {
    return this.#listeners.size;
  }

  /** Whether a listener has come and gone and none is here now (the grace included). */
  get unobserved(): boolean {
    return this.#everObserved && this.#listeners.size === 0;
  }

  /** Adds `listener`; returns its removal. */
  subscribe = (listener: () => void): (() => void) => {
    const first = this.#listeners.size === 0;
    this.#listeners.add(listener);
    this.#everObserved = true;
    if (first) {
      if (this.#grace !== undefined) this.#grace = undefined;
      else this.#lifecycle.onFirst?.();
    }
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#stopSoon();
    };
  };

  /**
   * For work begun while nobody listens: when a listener has come and gone and none is there now,
   * `onLast` runs after the grace unless one arrives (e.g. a stale closure's `start()` after an
   * unmount is stopped before its request goes out). Before the first listener it does nothing:
   * a child's mount effect runs before its parent subscribes.
   */
  stopUnlessObserved(): void {
    if (this.unobserved) this.#stopSoon();
  }

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

  #stopSoon() {
    const onLast = this.#lifecycle.onLast;
    if (onLast === undefined || this.#grace !== undefined) return;
    const grace = {};
    this.#grace = grace;
    // Why a grace, and why a microtask: <StrictMode> unmounts and mounts every effect again
    // within one synchronous commit, so a subscriber that comes back does so before this
    // microtask runs (one POST per start(), no second read), while after a real unmount the stop
    // comes before a request prepared meanwhile goes out (preparing one takes several microtasks).
    queueMicrotask(() => {
      if (this.#grace !== grace) return;
      this.#grace = undefined;
      if (this.#listeners.size === 0) onLast();
    });
  }
}
