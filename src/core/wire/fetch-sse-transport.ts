import type * as ReaderModule from './fetch-sse-connect.js';
import type { SseTransport } from './sse-types.js';

type Reader = typeof ReaderModule;

let reader: Reader | undefined;

async function loadReader(): Promise<Reader> {
  reader ??= await import('./fetch-sse-connect.js');
  return reader;
}

/**
 * The transport over `eventsource-parser`: it needs no `window` or `document`, so it reads in
 * Node 20+, Deno, Bun, workers and server routes. It is chosen automatically there (see
 * `defaultSseTransport`) and behaves as `fetchEventSourceTransport` does: the same messages, the
 * same errors for the same faults.
 *
 * Its body and `eventsource-parser` load on first use (a dynamic `import()`, before the first
 * request goes out), so a bundler puts them in a chunk of their own that a browser page never
 * fetches.
 */
export const fetchSseTransport: SseTransport = Object.assign(
  async (response: Response, options: Parameters<SseTransport>[1]) =>
    (reader ?? (await loadReader())).readEventStream(response, options),
  { preload: loadReader },
);
