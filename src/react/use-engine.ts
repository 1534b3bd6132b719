import { useEffect, useRef, useState } from 'react';
import type { Subscribable } from '../core/base/subscribable.js';
import { useStore } from './use-store.js';

/** What a stateful hook drives: a store of the core that takes new options. */
export interface Engine<Snapshot, Options> extends Subscribable<Snapshot> {
  /** Replaces the options (each engine says which apply at once). */
  setOptions(options: Options): void;
}

/** How {@link useEngine} reads its engine. */
export interface UseEngineRead<Snapshot, Selected, E> {
  /**
   * An engine made elsewhere (shared between components): used instead of creating one, and its
   * options are left as they are.
   * @default undefined (the hook creates its own)
   */
  shared?: E | undefined;
  /** A slice of the snapshot (see `useStore`). @default the whole snapshot */
  select?: ((snapshot: Snapshot) => Selected) | undefined;
  /** When two slices count as the same. @default Object.is */
  isEqual?: ((previous: Selected, next: Selected) => boolean) | undefined;
}

const whole = <Snapshot>(snapshot: Snapshot) => snapshot;
type Callback = (...args: unknown[]) => unknown;
type SnapshotOf<E> = E extends Subscribable<infer Snapshot> ? Snapshot : never;
type OptionsOf<E> = E extends { setOptions(options: infer Options): void } ? Options : never;

/**
 * The one hook under the stateful hooks, as TanStack's `useBaseQuery` is: creates the engine once
 * (the first render's options), hands every render's options to `engine.setOptions` in an effect,
 * and reads it with `useStore`. The engine's lifecycle follows subscription (it starts on its
 * first listener and stops after its last, a grace later), so the hook has no unmount or
 * StrictMode logic of its own. Every `on…` option is given as a stable function that calls the
 * newest render's callback (the AI SDK's latest-ref), so inline callbacks restart nothing.
 *
 * Returns the snapshot (or slice) and the engine.
 */
export function useEngine<E extends Engine<unknown, never>, Selected = SnapshotOf<E>>(
  create: (options: OptionsOf<E>) => E,
  options: OptionsOf<E>,
  read: UseEngineRead<SnapshotOf<E>, Selected, E> = {},
): [Selected, E] {
  const latestRef = useRef(options);
  latestRef.current = options;
  const [callbacks] = useState(() => new Map<string, Callback>());
  const current = (): OptionsOf<E> => withLatestCallbacks(latestRef, callbacks);

  const { shared } = read;
  // Created during render (an engine starts nothing until subscribed or told to), once.
  const [own] = useState<{ engine: E | undefined }>(() => ({
    engine: shared === undefined ? create(current()) : undefined,
  }));
  if (shared === undefined) own.engine ??= create(current());
  const engine = shared ?? (own.engine as E);
  // The engine as its own types see it (E's parameters are inferred from its methods).
  const typed = engine as unknown as Engine<SnapshotOf<E>, OptionsOf<E>>;

  useEffect(() => {
    if (shared === undefined) typed.setOptions(current());
  });

  const selected = useStore(
    typed,
    read.select ?? (whole as (snapshot: SnapshotOf<E>) => Selected),
    read.isEqual ?? Object.is,
  );
  return [selected, engine];
}

/** The options with each `on…` function replaced by a stable caller of the newest one. */
function withLatestCallbacks<Options>(
  latestRef: { readonly current: Options },
  callbacks: Map<string, Callback>,
): Options {
  const options = { ...(latestRef.current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(options)) {
    if (typeof value !== 'function' || !/^on[A-Z]/.test(key)) continue;
    let callback = callbacks.get(key);
    if (callback === undefined) {
      callback = (...args) => {
        const newest = (latestRef.current as Record<string, unknown>)[key];
        return typeof newest === 'function' ? (newest as Callback)(...args) : undefined;
      };
      callbacks.set(key, callback);
    }
    options[key] = callback;
  }
  return options as Options;
}
