import type { SseTransport } from './sse-transport.js';

/**
 * The transport over plain `fetch` and `eventsource-parser`: it needs no `window` or `document`,
 * so it runs in Node 20+, Deno, Bun, workers and server routes. It is chosen automatically there
 * (see `defaultSseTransport`) and behaves as {@link fetchEventSourceTransport} does: one request
 * per attempt, never retried here, the same errors for the same faults, the same idle timeout.
 *
 * Its body and `eventsource-parser` load on first use (a dynamic `import()`), so a bundler puts
 * them in a chunk of their own that a browser page never fetches.
 */
export const fetchSseTransport: SseTransport = async (options) => {
  const { connectWithFetch } = await import('./fetch-sse-connect.js');
  return connectWithFetch(options);
};
