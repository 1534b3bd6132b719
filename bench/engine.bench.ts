/**
 * Engine figures of `npm run bench`, in plain Node (bundled by bench/run.js with esbuild, run with
 * --expose-gc). Prints one JSON object on stdout. Not a test: it asserts nothing.
 *
 * - events/s through RunStream, where `window` and `document` exist and where they do not, ÷ the
 *   parser floor: eventsource-parser + JSON.parse on the same bytes (in memory), on CPU time;
 * - heap growth after 1,000,000 and 2,000,000 events with maxEvents 10,000 (after GC);
 * - added time to the first event over a raw fetch of the same stream (mock server, real socket).
 *
 * bench/run.js bundles it with `agent-console-kit` resolved to the React-free core barrel.
 * `node engine.bench.js profile` runs only RunStream on the 100,000-event bytes (for --cpu-prof);
 * `node engine.bench.js throughput` only the events/s rounds; `node engine.bench.js alloc` the
 * bytes allocated per event by either side (V8's sampling heap profiler, the objects the garbage
 * collector already took included), their largest allocation sites and the collections a run
 * causes (`npm run bench:engine -- alloc` bundles and runs it).
 */
import { createParser } from 'eventsource-parser';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { createAgentClient } from 'agent-console-kit';
import { createRunStream, defaultSseTransport } from 'agent-console-kit/core';
import { durablePolling } from './durable-polling.js';
import {
  createMockAgentServer,
  encodeStreamItem,
  manyEvents,
  type MockStreamItem,
} from 'agent-console-kit/testing';

// The runtimes the transport may see: `window` and `document` (a browser) or neither (Node). The
// least of both, for plain Node; an older transport read through fetch-event-source there (it reaches
// timers and fetch through `window`, and removes a visibility listener from `document`), so
// `--compare` with an older commit measures both of its transports.
type Runtime = 'browser' | 'node';
const runtimes: readonly Runtime[] = ['browser', 'node'];
const globals = globalThis as { window?: unknown; document?: unknown };
function enterRuntime(runtime: Runtime) {
  if (runtime === 'browser') {
    globals.window = globalThis;
    globals.document = { removeEventListener: () => undefined, hidden: false };
  } else {
    delete globals.window;
    delete globals.document;
  }
}

const throughputEvents = 100_000;
const throughputRounds = Number(process.env['BENCH_ROUNDS'] ?? 15);
const heapMaxEvents = 10_000;
const firstEventRounds = 31;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1
    ? (sorted[Math.floor(middle)] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

function encode(items: readonly MockStreamItem[], firstId = 1): Uint8Array[] {
  let text = '';
  items.forEach((item, index) => {
    text += encodeStreamItem(item, firstId + index);
  });
  const bytes = new TextEncoder().encode(text);
  const chunkSize = 64 * 1024;
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    chunks.push(bytes.subarray(offset, offset + chunkSize));
  }
  return chunks;
}

/** A fetch answering with `chunks`, `repeat` times over, produced as they are read. */
function inMemoryFetch(
  chunks: readonly Uint8Array[],
  repeat = 1,
  onChunk?: (index: number) => void,
): typeof fetch {
  return async () => {
    let index = 0;
    const total = chunks.length * repeat;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (index >= total) {
            controller.close();
            return;
          }
          onChunk?.(index);
          controller.enqueue(chunks[index % chunks.length] as Uint8Array);
          index += 1;
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
  };
}

function messageText(data: string): string {
  const payload = JSON.parse(data) as {
    messages?: { role?: string; content?: { type?: string; text?: string }[] }[];
  };
  let text = '';
  for (const message of payload.messages ?? []) {
    if (message.role === 'USER') continue;
    for (const block of message.content ?? []) {
      if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    }
  }
  return text;
}

interface Timing {
  /** Wall time, ms. */
  ms: number;
  /** CPU time of the process (all its threads, the garbage collector's included), ms. */
  cpuMs: number;
}

function elapsed(started: number, cpu: NodeJS.CpuUsage): Timing {
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

async function timeRunStream(chunks: Uint8Array[], runtime: Runtime = 'browser'): Promise<Timing> {
  enterRuntime(runtime);
  const client = createAgentClient({
    baseUrl: 'http://bench.invalid',
    fetch: inMemoryFetch(chunks),
  });
  // The default options (maxEvents 5000) and transport.
  const stream = createRunStream(client, { transport: defaultSseTransport });
  let notifications = 0;
  stream.subscribe(() => notifications++);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const final = await stream.start({ agentId: 'bench' });
  const timing = elapsed(started, cpu);
  if (final.totalEvents !== throughputEvents || final.status !== 'done') {
    throw new Error(`RunStream saw ${final.totalEvents} events (${final.status})`);
  }
  return timing;
}

/**
 * The parser floor: the same body, read as a transport reads it (the response's own reader),
 * decoded and parsed by eventsource-parser, each event's data through JSON.parse and its text
 * taken: what any reader of the stream pays.
 */
async function timeParserFloor(chunks: Uint8Array[]): Promise<Timing> {
  let count = 0;
  let characters = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const response = await inMemoryFetch(chunks)(
    'http://bench.invalid/rest/api/v1/agents/runs/stream',
  );
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      count++;
      characters += messageText(event.data).length;
    },
  });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  const timing = elapsed(started, cpu);
  if (count !== throughputEvents || characters === 0) {
    throw new Error(`the parser floor saw ${count} events`);
  }
  return timing;
}

interface Side {
  ms: number[];
  cpuMs: number[];
  ratios: number[];
  cpuRatios: number[];
}

async function throughput() {
  const chunks = encode(manyEvents(throughputEvents));
  for (const runtime of runtimes) await timeRunStream(chunks, runtime);
  await timeParserFloor(chunks);
  const floor = { ms: [] as number[], cpuMs: [] as number[] };
  const sides: Record<Runtime, Side> = {
    browser: { ms: [], cpuMs: [], ratios: [], cpuRatios: [] },
    node: { ms: [], cpuMs: [], ratios: [], cpuRatios: [] },
  };
  for (let round = 0; round < throughputRounds; round++) {
    // Alternating order, so neither side always runs on a warmer (or more collected) heap.
    const order: (Runtime | 'floor')[] =
      round % 2 === 0 ? ['floor', 'browser', 'node'] : ['node', 'browser', 'floor'];
    const timings: Partial<Record<Runtime | 'floor', Timing>> = {};
    for (const side of order) {
      timings[side] =
        side === 'floor' ? await timeParserFloor(chunks) : await timeRunStream(chunks, side);
    }
    const base = timings.floor as Timing;
    floor.ms.push(base.ms);
    floor.cpuMs.push(base.cpuMs);
    for (const runtime of runtimes) {
      const run = timings[runtime] as Timing;
      const side = sides[runtime];
      side.ms.push(run.ms);
      side.cpuMs.push(run.cpuMs);
      side.ratios.push(base.ms / run.ms);
      side.cpuRatios.push(base.cpuMs / run.cpuMs);
    }
  }
  const perSecond = (ms: number) => Math.round((throughputEvents / ms) * 1000);
  const summary = (side: Side) => ({
    perSecond: perSecond(median(side.ms)),
    cpuPerSecond: perSecond(median(side.cpuMs)),
    ratio: median(side.ratios),
    ratios: side.ratios,
    cpuRatio: median(side.cpuRatios),
    cpuRatios: side.cpuRatios,
  });
  const browser = summary(sides.browser);
  const node = summary(sides.node);
  return {
    events: throughputEvents,
    bytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
    rounds: throughputRounds,
    floorPerSecond: perSecond(median(floor.ms)),
    floorCpuPerSecond: perSecond(median(floor.cpuMs)),
    browser,
    node,
    // The lower of the two, for `--compare`.
    ratio: Math.min(browser.ratio, node.ratio),
    cpuRatio: Math.min(browser.cpuRatio, node.cpuRatio),
  };
}

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Messages from the user role: parsed, validated, classified and buffered like any message, but
 * they add nothing to `text`, which by contract keeps the whole output (and so grows with it).
 */
async function heap() {
  const block = 100_000;
  const items = Array.from({ length: block }, (_, index) => ({
    data: { messages: [{ role: 'USER', content: [{ type: 'text', text: `${index} ` }] }] },
  }));
  const chunks = encode(items);
  const chunksPerMillion = chunks.length * 10;
  const samples: Record<number, number> = {};
  let before = 0;
  let stream: ReturnType<typeof createRunStream> | undefined;
  const fetchStub = inMemoryFetch(chunks, 20, (index) => {
    // Sampled when the first million's chunks are all read (the stream pulls one chunk ahead).
    if (index > 0 && index % chunksPerMillion === 0) {
      samples[index / chunksPerMillion] = collect() - before;
    }
  });
  const client = createAgentClient({ baseUrl: 'http://bench.invalid', fetch: fetchStub });
  stream = createRunStream(client, { maxEvents: heapMaxEvents });
  before = collect();
  const pending = stream.start({ agentId: 'bench' });
  const final = await pending;
  const end = collect() - before;
  if (final.totalEvents !== block * 20 || final.events.length !== heapMaxEvents) {
    throw new Error(`heap run saw ${final.totalEvents} events, kept ${final.events.length}`);
  }
  stream = undefined;
  return { maxEvents: heapMaxEvents, atOneMillion: samples[1] ?? end, atTwoMillions: end };
}

async function firstEvent() {
  const server = await createMockAgentServer({
    agents: [
      {
        agent: { agent_id: 'first', name: 'First', capabilities: {} },
        run: { events: manyEvents(3) },
      },
    ],
  });
  try {
    const client = createAgentClient({ baseUrl: server.url });
    const raw: number[] = [];
    const viaStream: number[] = [];
    const timeRaw = async () => {
      const prepared = await client.prepareRun({ agentId: 'first' });
      const started = performance.now();
      const response = await fetch(prepared.url, {
        method: prepared.method,
        headers: { ...prepared.headers, accept: 'text/event-stream' },
        body: prepared.body,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (text.includes('\n\n')) break;
      }
      const ms = performance.now() - started;
      await reader.cancel();
      return ms;
    };
    const timeStream = async () => {
      const stream = createRunStream(client);
      let started = 0;
      const first = new Promise<number>((resolve) => {
        const stop = stream.observe({
          onEvent: () => {
            stop();
            resolve(performance.now() - started);
          },
        });
      });
      // RunStream prepares the request itself: that is part of what it adds.
      started = performance.now();
      const done = stream.start({ agentId: 'first' });
      const ms = await first;
      stream.abort();
      await done;
      return ms;
    };
    await timeRaw();
    await timeStream();
    for (let round = 0; round < firstEventRounds; round++) {
      if (round % 2 === 0) {
        raw.push(await timeRaw());
        viaStream.push(await timeStream());
      } else {
        viaStream.push(await timeStream());
        raw.push(await timeRaw());
      }
    }
    return {
      rounds: firstEventRounds,
      rawMs: median(raw),
      runStreamMs: median(viaStream),
      addedMs: median(viaStream.map((ms, index) => ms - (raw[index] ?? Number.NaN))),
    };
  } finally {
    await server.close();
  }
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * Bytes allocated per event by `side` over `runs` runs of the 100,000 events (after one warm-up),
 * from V8's sampling heap profiler with the objects collected since included; its allocation sites
 * by self size; and the garbage collections of those runs (per kind: count and pause time).
 */
async function allocation(
  chunks: Uint8Array[],
  side: (chunks: Uint8Array[]) => Promise<Timing>,
  runs: number,
) {
  await side(chunks);
  collect();
  const gcs: Record<string, { count: number; ms: number }> = {};
  const kinds: Record<number, string> = {
    [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
    [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
    [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind =
        kinds[(entry as PerformanceEntry & { detail: { kind: number } }).detail.kind] ?? 'other';
      const total = (gcs[kind] ??= { count: 0, ms: 0 });
      total.count += 1;
      total.ms += entry.duration;
    }
  });
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  observer.observe({ entryTypes: ['gc'] });
  let ms = 0;
  for (let run = 0; run < runs; run++) ms += (await side(chunks)).ms;
  await new Promise((resolve) => setTimeout(resolve, 0));
  observer.disconnect();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  const sites = new Map<string, number>();
  let total = 0;
  const walk = (node: SamplingNode) => {
    total += node.selfSize;
    if (node.selfSize > 0) {
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '');
      const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const events = runs * throughputEvents;
  return {
    bytesPerEvent: Math.round(total / events),
    msPerRun: Math.round(ms / runs),
    gcPerRun: Object.fromEntries(
      Object.entries(gcs).map(([kind, { count, ms: pause }]) => [
        kind,
        { count: count / runs, ms: Math.round((pause / runs) * 10) / 10 },
      ]),
    ),
    sites: [...sites]
      .sort((left, right) => right[1] - left[1])
      .slice(0, 25)
      .map(([site, bytes]) => `${Math.round(bytes / events)} B ${site}`),
  };
}

async function main() {
  if (process.argv[2] === 'alloc') {
    const chunks = encode(manyEvents(throughputEvents));
    const runs = Number(process.env['BENCH_ROUNDS'] ?? 4);
    const results = {
      runStream: await allocation(chunks, timeRunStream, runs),
      baseline: await allocation(chunks, timeParserFloor, runs),
    };
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    return;
  }
  if (process.argv[2] === 'throughput') {
    process.stdout.write(`${JSON.stringify(await throughput())}\n`);
    return;
  }
  if (process.argv[2] === 'profile') {
    const chunks = encode(manyEvents(throughputEvents));
    for (let round = 0; round < 10; round++) await timeRunStream(chunks);
    return;
  }
  if (process.argv[2] === 'profile-baseline') {
    const chunks = encode(manyEvents(throughputEvents));
    for (let round = 0; round < 10; round++) await timeParserFloor(chunks);
    return;
  }
  const results = {
    node: process.version,
    throughput: await throughput(),
    firstEvent: await firstEvent(),
    heap: await heap(),
    durablePolling: await durablePolling(),
  };
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

await main();
