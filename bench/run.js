// `npm run bench`: builds the package, measures it and prints one table: each row its figure, its
// budget and ✓ or ✗. Not a test (nothing is asserted; the figures move with the machine): every
// comparison is measured in the same run, as medians over rounds with their spread.
//
//   node bench/run.js [--no-build] [--skip-browser]
//   node bench/run.js --engine-only [--alloc]   (`npm run bench:engine`: the engine rows alone, from
//   the sources, in about a minute; --alloc prints the bytes allocated per event instead)
//   node bench/run.js --engine-only --compare=<git ref> [--pairs=3]   (the events/s ratios to the
//   parser floor of the sources and of <ref>'s src/, the same bench file, in alternating processes:
//   where `window` and `document` exist and where they do not, on CPU time)
//
// - sizes: bench/sizes.js (esbuild over dist/ with code splitting, brotli per chunk);
// - engine: bench/engine.bench.ts bundled by esbuild and run in plain Node with --expose-gc;
// - endless line: bench/endless-line.bench.ts, the same way, one process per transport and stream;
// - React commits: bench/react-commits.bench-run.tsx in vitest (jsdom, like the unit tests);
// - Chromium: bench/event-log.bench-browser.tsx and bench/thread-frames.bench-browser.tsx in vitest
//   browser mode (bench/vitest.browser.config.ts; `npm run bench:log` runs the first alone,
//   `npm run bench:thread` the second).
// - bundlers: bench/bundlers.js (the pages an app writes, in esbuild, Vite, webpack and Next.js: a
//   second table, printed last; `npm run bench:bundlers` prints it alone; --skip-bundlers leaves
//   it out).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureSizes } from './sizes.js';
import { formatBundlerTable, measureBundlers } from './bundlers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = join(root, 'node_modules', '.cache', 'agent-console-kit-bench');
const flags = new Set(process.argv.slice(2));
const engineOnly = flags.has('--engine-only');

function run(command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? '');
    throw new Error(`bench: ${command} ${args.join(' ')} exited with ${result.status}`);
  }
  return result.stdout;
}

function step(name) {
  process.stderr.write(`bench: ${name}…\n`);
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

if (!flags.has('--no-build') && !engineOnly) {
  step('building dist/');
  run(join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'error']);
}
let sizes;
if (!engineOnly) {
  step('sizes');
  sizes = await measureSizes();
}

step('engine (plain Node)');
/** bench/engine.bench.ts bundled against the sources under `src`. */
async function bundleEngine(src, outfile) {
  await build({
    entryPoints: [join(root, 'bench', 'engine.bench.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    // The React-free core, as an app on the server would import it.
    alias: {
      'agent-console-kit': join(src, 'core', 'index.ts'),
      'agent-console-kit/testing': join(src, 'testing', 'index.ts'),
    },
    nodePaths: [join(root, 'node_modules')],
    external: ['msw', 'msw/*'],
    logLevel: 'error',
  });
}
const engineBundle = join(work, 'engine.bench.js');
await bundleEngine(join(root, 'src'), engineBundle);
const compare = process.argv.find((arg) => arg.startsWith('--compare='))?.slice(10);
if (compare !== undefined) {
  // The same bench file against another commit's src/: each process measures its own ratio (both
  // sides alternate inside it), and the processes alternate too.
  if (!/^[\w./~^-]+$/.test(compare)) throw new Error(`bench: not a git ref: ${compare}`);
  const pairs = Number(process.argv.find((arg) => arg.startsWith('--pairs='))?.slice(8) ?? 3);
  const other = join(work, 'compare');
  mkdirSync(other, { recursive: true });
  run('sh', ['-c', `git archive ${compare} src | tar -x -C '${other}'`]);
  const otherBundle = join(work, 'engine.compare.js');
  await bundleEngine(join(other, 'src'), otherBundle);
  const sides = [
    { name: compare, bundle: otherBundle, browser: [], node: [] },
    { name: 'sources', bundle: engineBundle, browser: [], node: [] },
  ];
  for (let pair = 0; pair < pairs; pair++) {
    for (const side of pair % 2 === 0 ? sides : [...sides].reverse()) {
      const result = JSON.parse(run(process.execPath, ['--expose-gc', side.bundle, 'throughput']));
      side.browser.push(result.browser.cpuRatio);
      side.node.push(result.node.cpuRatio);
      step(
        `${side.name}: on CPU time ${result.browser.cpuRatio.toFixed(3)} (browser), ${result.node.cpuRatio.toFixed(3)} (Node)`,
      );
    }
  }
  const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const list = (values) => values.map((value) => value.toFixed(2)).join(', ');
  for (const side of sides) {
    console.log(
      `${side.name}: events/s ÷ the parser floor, on CPU time: ${medianOf(side.browser).toFixed(3)} where window and document exist (${list(side.browser)}), ${medianOf(side.node).toFixed(3)} where they do not (${list(side.node)}); medians of ${pairs} processes`,
    );
  }
  process.exit(0);
}
if (flags.has('--alloc')) {
  // Bytes allocated per event by RunStream and by the baseline, their largest allocation sites,
  // and the garbage collections per run (see `allocation` in bench/engine.bench.ts).
  process.stdout.write(run(process.execPath, ['--expose-gc', engineBundle, 'alloc']));
  process.exit(0);
}
const engine = JSON.parse(run(process.execPath, ['--expose-gc', engineBundle]));

step('endless line (plain Node)');
const endlessBundle = join(work, 'endless-line.bench.js');
await build({
  entryPoints: [join(root, 'bench', 'endless-line.bench.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: endlessBundle,
  alias: { 'agent-console-kit': join(root, 'src', 'core', 'index.ts') },
  nodePaths: [join(root, 'node_modules')],
  logLevel: 'error',
});
/** The endless line under the default bound, its baseline, the bound off. */
const endless = {};
for (const mode of ['endless', 'events', 'unbounded']) {
  endless[mode] = JSON.parse(run(process.execPath, ['--expose-gc', endlessBundle, mode]));
}

let react;
if (!engineOnly) {
  step('React commits (jsdom)');
  const reactOutput = join(work, 'react.json');
  run(
    join(root, 'node_modules', '.bin', 'vitest'),
    ['run', '--config', 'bench/vitest.config.ts', '--reporter=dot'],
    { BENCH_OUTPUT: reactOutput },
  );
  react = JSON.parse(readFileSync(reactOutput, 'utf8'));
}

let eventLog;
let thread;
if (!flags.has('--skip-browser') && !engineOnly) {
  step('Chromium');
  run(join(root, 'node_modules', '.bin', 'vitest'), [
    'run',
    '--config',
    'bench/vitest.browser.config.ts',
    '--reporter=dot',
  ]);
  eventLog = JSON.parse(readFileSync(join(work, 'event-log.json'), 'utf8'));
  thread = JSON.parse(readFileSync(join(work, 'thread.json'), 'utf8'));
}

// ---- the table -------------------------------------------------------------------------------

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const ms = (value) => `${value.toFixed(1)} ms`;
const count = (value) => Math.round(value).toLocaleString('en-US');
const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1
    ? sorted[Math.floor(middle)]
    : (sorted[middle - 1] + sorted[middle]) / 2;
};
const spread = (values, format) => `${format(Math.min(...values))}–${format(Math.max(...values))}`;

const rows = [];
function row(measure, figure, budget, met) {
  rows.push({ measure, figure, budget, verdict: met === undefined ? '–' : met ? '✓' : '✗' });
}

if (sizes !== undefined) {
  row(
    'brotli size, `agent-console-kit/core` + hooks (peers external), loaded up front',
    `${kB(sizes.core.brotli)} (${kB(sizes.core.minified)} minified; + ${kB(sizes.core.lazy.brotli)} lazy: the durable runs' wire)`,
    '≤ 15 kB',
    sizes.core.brotli <= 15_000,
  );
  row(
    'brotli size, everything in the main entry and `/console`, loaded up front',
    `${kB(sizes.all.brotli)} (${kB(sizes.all.minified)} minified; + ${kB(sizes.all.lazy.brotli)} lazy)`,
    '≤ 30 kB',
    sizes.all.brotli <= 30_000,
  );
}
const { throughput } = engine;
// On CPU time: the process's own work, whatever else the machine runs (wall time beside it).
for (const [runtime, label] of [
  ['browser', 'where `window` and `document` exist'],
  ['node', 'where they do not (Node)'],
]) {
  const side = throughput[runtime];
  row(
    `events/s: RunStream ${label} ÷ the parser floor (eventsource-parser + JSON.parse), same ${count(throughput.events)} events, on CPU time`,
    `${side.cpuRatio.toFixed(2)} (median of ${throughput.rounds}, ${spread(side.cpuRatios, (value) => value.toFixed(2))}; ${count(side.cpuPerSecond)} vs ${count(throughput.floorCpuPerSecond)} events per CPU second; on wall time ${side.ratio.toFixed(2)})`,
    '≥ 0.7',
    side.cpuRatio >= 0.7,
  );
}
if (react !== undefined) {
  const commitRounds = react.rounds.map((round) => ({
    ...round,
    limit: (1.1 * round.ms) / 16,
  }));
  const commitsMedian = median(commitRounds.map((round) => round.commits));
  const durationMedian = median(commitRounds.map((round) => round.ms));
  row(
    `React commits, ${count(react.events)} events one per write ~1 ms apart`,
    `${count(commitsMedian)} in ${count(durationMedian)} ms (median of ${commitRounds.length}; ${commitRounds.map((round) => `${round.commits}/${Math.floor(round.limit)}`).join(', ')} commits/limit)`,
    '≤ 1.1 × duration / 16 ms',
    commitRounds.every((round) => round.commits <= round.limit),
  );
}
const { heap } = engine;
const heapDrift = Math.abs(heap.atTwoMillions - heap.atOneMillion) / heap.atOneMillion;
row(
  `heap growth after 1,000,000 events, maxEvents ${count(heap.maxEvents)} (after GC); at 2,000,000`,
  `${(heap.atOneMillion / 1e6).toFixed(1)} MB; ${(heap.atTwoMillions / 1e6).toFixed(1)} MB (${heapDrift >= 0 ? '' : ''}${(heapDrift * 100).toFixed(0)} % apart)`,
  '< 50 MB; ± 10 %',
  heap.atOneMillion < 50e6 && heapDrift <= 0.1,
);
// The default maxEventSize (4 MiB): an endless line may cost the bound and its copies in flight,
// not what the server sends.
const defaultMaxEventSize = 4 * 1024 * 1024;
const mB = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
{
  const { endless: line, events, unbounded } = endless;
  row(
    `endless \`data:\` line, 50 MB offered, default maxEventSize: RSS; heap + array buffers (peaks over the start)`,
    `+${mB(line.rssGrowth)}; +${mB(line.heldGrowth)} (${line.outcome} after ${ms(line.ms)}, the server wrote ${mB(line.writtenBytes)}) vs the same 50 MB as 1 kB events: +${mB(events.rssGrowth)}; +${mB(events.heldGrowth)} (${count(events.events)} events, ${ms(events.ms)}); bound off, a 20 MB line: +${mB(unbounded.rssGrowth)}; +${mB(unbounded.heldGrowth)} (${ms(unbounded.ms)})`,
    'ends typed; held ≤ baseline + 2 × 4 MiB',
    line.outcome === 'AgentEventTooLargeError' &&
      line.heldGrowth <= events.heldGrowth + 2 * defaultMaxEventSize,
  );
}
const { durablePolling } = engine;
row(
  `durable run polling: reads of a ${durablePolling.minutes}-minute run that never changes (mock service, real socket)`,
  `${durablePolling.visible} visible (${durablePolling.visiblePerMinute.toFixed(1)}/min); ${durablePolling.hidden} in a hidden tab (${durablePolling.hiddenPerMinute.toFixed(1)}/min)`,
  '≤ 15/min visible; ≤ 4/min hidden',
  durablePolling.visiblePerMinute <= 15 && durablePolling.hiddenPerMinute <= 4,
);
const { firstEvent } = engine;
row(
  'added time to first event over a raw `fetch` (mock server, real socket)',
  `${ms(firstEvent.addedMs)} (median of ${firstEvent.rounds} pairs; raw ${ms(firstEvent.rawMs)}, RunStream ${ms(firstEvent.runStreamMs)})`,
  '≤ 2 ms median',
  firstEvent.addedMs <= 2,
);
if (eventLog !== undefined) {
  row(
    `Chromium: \`AgentEventLog\` with ${count(eventLog.events)} events: DOM rows; p95 to append ${eventLog.appendSize} while following`,
    `${eventLog.rows} rows; p95 ${ms(eventLog.p95)} (p50 ${ms(eventLog.p50)}, max ${ms(eventLog.max)}, ${eventLog.appends} appends${eventLog.notShown > 0 ? `, ${eventLog.notShown} not shown` : ''}; the ${eventLog.warmUp.appends} appends before them, right after the mount, not counted: max ${ms(eventLog.warmUp.max)})`,
    '≤ 60 rows; ≤ 8 ms',
    eventLog.rows <= 60 && eventLog.p95 <= 8 && eventLog.notShown === 0,
  );
} else if (!engineOnly) {
  row('Chromium: `AgentEventLog`, 100,000 events', 'skipped (--skip-browser)', '≤ 60 rows; ≤ 8 ms');
}
if (thread !== undefined) {
  // The thread as it ships (its default `visibleMessages`). Bounded: twice the messages
  // keep (about) the same DOM, and streaming tokens into the last answer adds no elements beyond
  // its own text (≤ 1 %).
  const perMessage = (thread.nodesAtTwice - thread.nodesAtStart) / thread.messages;
  const nodesBounded =
    thread.nodesAtTwice <= thread.nodesAtStart * 1.1 &&
    thread.nodesAtEnd <= thread.nodesAtStart * 1.01;
  row(
    `Chromium: \`AgentThread\` with ${count(thread.messages)} messages (stylesheet loaded): DOM elements; p95 per streamed token frame`,
    `${count(thread.nodesAtStart)} elements, ${count(thread.nodesAtTwice)} with ${count(thread.messages * 2)} messages (${perMessage.toFixed(1)} per message), ${count(thread.nodesAtEnd)} after ${thread.frames} token frames; p95 ${ms(thread.p95)} (p50 ${ms(thread.p50)}, max ${ms(thread.max)}${thread.notShown > 0 ? `, ${thread.notShown} not shown` : ''}); same run, every message shown (\`visibleMessages={Infinity}\`): ${count(thread.allShown.nodesAtStart)} and ${count(thread.allShown.nodesAtTwice)} elements, p95 ${ms(thread.allShown.p95)} (p50 ${ms(thread.allShown.p50)})`,
    'bounded; ≤ 8 ms',
    nodesBounded && thread.p95 <= 8 && thread.notShown === 0,
  );
} else if (!engineOnly) {
  row(
    'Chromium: `AgentThread` with 1,000 messages: DOM nodes; p95 per streamed token frame',
    'skipped (--skip-browser)',
    'bounded; ≤ 8 ms',
  );
}

const headers = { measure: 'measure', figure: 'figure', budget: 'budget', verdict: '' };
const widths = Object.fromEntries(
  Object.keys(headers).map((key) => [
    key,
    Math.max(headers[key].length, ...rows.map((entry) => entry[key].length)),
  ]),
);
const line = (entry) =>
  `| ${Object.keys(headers)
    .map((key) => entry[key].padEnd(widths[key]))
    .join(' | ')} |`;
console.log(
  `agent-console-kit bench: Node ${engine.node}, ${new Date().toISOString().slice(0, 16)} UTC${eventLog ? `, React ${eventLog.react} build in Chromium` : ''}`,
);
console.log('');
console.log(line(headers));
console.log(
  `|${Object.keys(headers)
    .map((key) => '-'.repeat(widths[key] + 2))
    .join('|')}|`,
);
for (const entry of rows) console.log(line(entry));

if (!engineOnly && !flags.has('--skip-bundlers')) {
  step('bundlers (esbuild, Vite, webpack, Next.js)');
  const bundlers = await measureBundlers({ onStep: (name) => step(`bundlers: ${name}`) });
  console.log('');
  console.log(formatBundlerTable(bundlers));
}
