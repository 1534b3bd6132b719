/**
 * Memory of the transport while a server streams a `data:` line that never ends (`npm run bench`,
 * bundled by bench/run.js with esbuild and run in plain Node with --expose-gc, one process per
 * measure). Prints one JSON object on stdout. Not a test: it asserts nothing.
 *
 *   node endless-line.bench.js <endless | events | unbounded>
 *
 * `endless`: the server offers 50 MB of one line (64 kB writes) and the transport runs with the
 * default `maxEventSize`; `events`: the baseline, the same bytes as 1 kB events; `unbounded`: for
 * contrast, a 20 MB line with the bound off (`maxEventSize: Infinity`), as before it existed. The
 * figures: the RSS and the JS heap + array buffer peaks above the process's own before the
 * request (sampled every 5 ms and every 64 events), the bytes the server wrote before the client
 * went, the time and how the attempt ended.
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import { createAgentClient } from 'agent-console-kit';
import { defaultSseTransport } from 'agent-console-kit/core';

const writeSize = 64 * 1024;
const [mode = 'endless'] = process.argv.slice(2);
const offeredBytes = (mode === 'unbounded' ? 20 : 50) * 1024 * 1024;
const transport = defaultSseTransport;

function endlessChunks(): Buffer[] {
  return [Buffer.from('data: '), Buffer.alloc(writeSize, 'x')];
}

function eventChunk(): Buffer {
  // 64 events of 1 kB (1,024 bytes with their blank line): one write of 64 kB.
  const event = `data: ${'y'.repeat(1024 - 'data: '.length - 2)}\n\n`;
  return Buffer.from(event.repeat(writeSize / 1024));
}

let written = 0;
const server = createServer((request, response) => {
  request.resume();
  response.socket?.setNoDelay(true);
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const [head, body] = mode === 'events' ? [undefined, eventChunk()] : endlessChunks();
  if (head !== undefined) response.write(head);
  const pump = () => {
    while (written < offeredBytes && !response.destroyed) {
      written += (body as Buffer).length;
      if (!response.write(body)) {
        response.once('drain', pump);
        return;
      }
    }
    if (!response.destroyed) response.end();
  };
  pump();
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const address = server.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage();
let rssPeak = before.rss;
const heldBefore = before.heapUsed + before.arrayBuffers;
let heldPeak = heldBefore;
const sample = () => {
  const now = process.memoryUsage();
  rssPeak = Math.max(rssPeak, now.rss);
  heldPeak = Math.max(heldPeak, now.heapUsed + now.arrayBuffers);
};
const sampler = setInterval(sample, 5);
let events = 0;
let outcome = 'closed';
const started = performance.now();
try {
  // The client sends the request; the transport named reads the answer.
  await createAgentClient({ baseUrl: `http://127.0.0.1:${port}` }).streamRun(
    { agentId: 'bench' },
    {
      transport,
      signal: new AbortController().signal,
      maxEventSize: mode === 'unbounded' ? Infinity : undefined,
      onMessage: () => {
        events++;
        if (events % 64 === 0) sample();
      },
    },
  );
} catch (error) {
  outcome = error instanceof Error ? error.name : String(error);
}
const ms = performance.now() - started;
sample();
clearInterval(sampler);
server.closeAllConnections();
server.close();

process.stdout.write(
  JSON.stringify({
    mode,
    offeredBytes,
    writtenBytes: written,
    events,
    outcome,
    ms,
    rssGrowth: rssPeak - before.rss,
    heldGrowth: heldPeak - heldBefore,
  }),
);
