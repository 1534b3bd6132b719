import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * `false` while a server renders and while the browser hydrates what it sent, `true` from the
 * commit after (and from the first commit of a render the browser does alone).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
