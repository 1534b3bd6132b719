import type { ThreadStore } from '../storage/thread-store.js';
import { onDemand } from '../base/on-demand.js';

/**
 * `createThreadStore()` whose code loads on the first read or write (each method waits for it):
 * the store of a durable console, which only such a console loads. A failed load rejects that
 * call, as a store that cannot be read does, and is asked again by the next one.
 */
export function createDeferredThreadStore(): ThreadStore {
  const store = onDemand(() =>
    import('./console-thread-store.js').then((module) => module.createThreadStore()),
  );
  return {
    list: (options) => store().then((loaded) => loaded.list(options)),
    load: (threadId) => store().then((loaded) => loaded.load(threadId)),
    save: (thread, options) => store().then((loaded) => loaded.save(thread, options)),
    rename: (threadId, title) => store().then((loaded) => loaded.rename(threadId, title)),
    delete: (threadId) => store().then((loaded) => loaded.delete(threadId)),
  };
}
