// `node bench/agent-store.js [--rounds=200]`: the server store's latency on both databases, one
// request at a time: the thread list's first page, a thread's load, and a save that appends a
// message (a versioned write). Not a test: it prints p50/p95 and asserts nothing.
//
// PGlite in a data folder (the embedded default), and a real PostgreSQL started for the run
// (test/support/postgres-server.ts: the Debian package, fsync on as shipped). Both hold 100 users'
// 50 threads of 20 messages each before the measure; the measured user has 50 threads too.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = join(root, 'node_modules', '.cache', 'agent-console-kit-bench', 'agent-store');
const roundsFlag = process.argv.find((arg) => arg.startsWith('--rounds='));
const rounds = roundsFlag === undefined ? 200 : Number(roundsFlag.slice('--rounds='.length));

/** The sources, bundled to plain ESM this Node runs (the peers stay imports of node_modules). */
async function load(entry, name) {
  mkdirSync(work, { recursive: true });
  const outfile = join(work, `${name}.mjs`);
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['pg', '@electric-sql/pglite'],
    logLevel: 'silent',
  });
  return import(pathToFileURL(outfile).href);
}

const text = (index) => `Message ${index}: ${'lorem ipsum dolor sit amet '.repeat(18)}`;
const message = (id, index) => ({
  id,
  role: index % 2 === 0 ? 'USER' : 'GLEAN_AI',
  text: text(index),
  status: 'done',
  createdAt: 1_700_000_000_000 + index,
});
const messages = (count, prefix = 'm') =>
  Array.from({ length: count }, (_, index) => message(`${prefix}-${index}`, index));

async function fill(store) {
  const users = Array.from({ length: 100 }, (_, index) => `other-${index}`);
  const thread = messages(20);
  for (const user of [...users, 'measured']) {
    await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.saveThread(user, { id: `thread-${index}`, agentId: 'a', messages: thread }),
      ),
    );
  }
}

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function measure(operation) {
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    await operation(round);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function bench(name, store) {
  await fill(store);
  const rows = [];
  rows.push(['list (first page of 50)', await measure(() => store.listThreads('measured'))]);
  rows.push([
    'load (20+ messages)',
    await measure((round) => store.loadThread('measured', `thread-${round % 50}`)),
  ]);
  const revisions = new Map();
  rows.push([
    'save (append one message)',
    await measure(async (round) => {
      const id = `thread-${round % 50}`;
      const expected = revisions.get(id) ?? 1;
      const saved = await store.saveThread(
        'measured',
        { id, agentId: 'a', messages: [...messages(20), message(`new-${round}`, round)] },
        { expectedRevision: expected },
      );
      revisions.set(id, saved.revision);
    }),
  ]);
  return rows.map(([operation, { p50, p95 }]) => ({ database: name, operation, p50, p95 }));
}

const server = await load('src/server/index.ts', 'server');
const { startPostgresServer } = await load('test/support/postgres-server.ts', 'postgres-server');
const results = [];

const dataDir = mkdtempSync(join(tmpdir(), 'ack-bench-pglite-'));
try {
  const store = await server.createPgliteStore({ dataDir });
  results.push(...(await bench('PGlite (data folder)', store)));
  await store.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const postgres = await startPostgresServer({ durable: true });
try {
  const store = await server.createPostgresStore({ connectionString: postgres.connectionString });
  results.push(...(await bench('PostgreSQL 127.0.0.1 (pg)', store)));
  await store.close();
} finally {
  await postgres.stop();
}

const format = (ms) => `${ms.toFixed(2)} ms`;
console.log(`\nAgentStore, ${rounds} rounds each, one request at a time (${process.version})\n`);
console.log('| database | operation | p50 | p95 |');
console.log('| --- | --- | --- | --- |');
for (const row of results) {
  console.log(`| ${row.database} | ${row.operation} | ${format(row.p50)} | ${format(row.p95)} |`);
}
