// `npm run bench`: runs bench/run-stream.bench-run.tsx in vitest (jsdom, like the unit tests) and
// prints its figures. Not a test: the numbers vary with the machine; nothing is asserted.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'agent-console-kit-bench-'));
const output = join(folder, 'results.json');

const vitest = spawnSync(
  join(root, 'node_modules', '.bin', 'vitest'),
  ['run', '--config', 'bench/vitest.config.ts', '--reporter=dot'],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, BENCH_OUTPUT: output },
  },
);
if (vitest.status !== 0) {
  console.error(`bench: vitest exited with ${vitest.status}`);
  process.exit(vitest.status ?? 1);
}
const results = JSON.parse(readFileSync(output, 'utf8'));
rmSync(folder, { recursive: true, force: true });

const { react, throughput } = results;
const number = (value) => value.toLocaleString('en-US');
console.log(`agent-console-kit bench (Node ${results.node})`);
console.log('');
console.log(
  `React commits for ${number(react.events)} events at full speed (mock server, real socket; median of ${react.rounds}):`,
);
console.log(
  `  useAgentRunStream           ${String(react.hookCommits).padStart(6)} commits  (${react.hookCommitsEach.join(', ')}; ${react.hookMs} ms)`,
);
console.log(
  `  naive useState per event    ${String(react.naiveCommits).padStart(6)} commits  (${react.naiveCommitsEach.join(', ')}; ${react.naiveMs} ms)`,
);
console.log(
  `The same, ${number(react.pacedEvents)} events 1 ms apart (one write each; one round):`,
);
console.log(
  `  useAgentRunStream           ${String(react.pacedHookCommits).padStart(6)} commits  (${react.pacedHookMs} ms)`,
);
console.log(
  `  naive useState per event    ${String(react.pacedNaiveCommits).padStart(6)} commits  (${react.pacedNaiveMs} ms)`,
);
console.log('');
console.log(
  `Events per second on the same ${number(throughput.bytes)} bytes, ${number(throughput.events)} events, in memory (median of ${throughput.rounds}):`,
);
console.log(
  `  RunStream                          ${number(throughput.runStreamPerSecond).padStart(10)} events/s`,
);
console.log(
  `  fetch-event-source alone           ${number(throughput.fetchEventSourcePerSecond).padStart(10)} events/s`,
);
console.log(
  `  fetch-event-source + JSON.parse    ${number(throughput.fetchEventSourceWithJsonPerSecond).padStart(10)} events/s`,
);
console.log(
  `  RunStream / fetch-event-source alone: ${throughput.ratio}; / with JSON.parse: ${throughput.ratioWithJson}`,
);
