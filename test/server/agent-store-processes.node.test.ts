// Two app processes on one PostgreSQL: 50 users each saving 20 times into one thread, half of the
// saves from each process, all at once; every save retried on a conflict. None lost or doubled.
import { build } from 'esbuild';
import { fork } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresStore, type AgentStore } from '../../src/server/index.js';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the project: the bundle imports `pg` from its node_modules.
const work = join(root, 'node_modules', '.cache', 'agent-console-kit-test');
const writer = join(work, `agent-store-writer-${process.pid}.mjs`);

let server: PostgresServer;

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  const [started] = await Promise.all([
    startPostgresServer(),
    build({
      entryPoints: [join(root, 'test/support/agent-store-writer.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: writer,
      external: ['pg', '@electric-sql/pglite'],
      logLevel: 'silent',
    }),
  ]);
  server = started;
}, 120_000);
afterAll(async () => {
  rmSync(writer, { force: true });
  await server?.stop();
});

interface WriterReport {
  done: number;
  conflicts: number;
}

/** A forked writer: `ready` once its store is open, its report once every save is in. */
function startWriter(name: string, users: string[], saves: number) {
  const child = fork(writer, [server.connectionString, name, users.join(','), String(saves)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: { ready?: boolean }) => {
      if (message.ready === true) resolve();
    });
    child.once('exit', (code) => reject(new Error(`writer ${name} exited with ${code} early`)));
  });
  const report = new Promise<WriterReport>((resolve, reject) => {
    child.on('message', (message: Partial<WriterReport>) => {
      if (message.done !== undefined) resolve(message as WriterReport);
    });
    child.once('exit', (code) =>
      code === 0 ? undefined : reject(new Error(`writer ${name} exited with ${code}`)),
    );
  });
  // Failing before `ready`, it fails the test there: its report is then not awaited.
  report.catch(() => undefined);
  return { child, ready, report };
}

it('keeps every save of 50 users × 20 saves from two processes: none lost, none doubled', async () => {
  const users = Array.from({ length: 50 }, (_, index) => `user-${index}`);
  // Both open the store at once on a new database: the migrations run once between them.
  const writers = [startWriter('laptop', users, 10), startWriter('phone', users, 10)];
  await Promise.all(writers.map((one) => one.ready));
  for (const one of writers) one.child.send('go');
  const reports = await Promise.all(writers.map((one) => one.report));
  expect(reports.map((report) => report.done)).toEqual([500, 500]);

  let store: AgentStore | undefined;
  try {
    store = await createPostgresStore({ connectionString: server.connectionString });
    const expectedIds = ['laptop', 'phone'].flatMap((name) =>
      Array.from({ length: 10 }, (_, index) => `${name}-${index}`),
    );
    for (const user of users) {
      const thread = await store.loadThread(user, 'shared');
      const ids = thread?.messages.map((message) => message.id) ?? [];
      expect(ids.length, user).toBe(20);
      expect([...ids].sort(), user).toEqual([...expectedIds].sort());
      // Each process's own saves in its order.
      for (const name of ['laptop', 'phone']) {
        const own = ids.filter((id) => id.startsWith(`${name}-`));
        expect(own, user).toEqual(expectedIds.filter((id) => id.startsWith(`${name}-`)));
      }
      expect(thread?.revision, user).toBe(20);
    }
    const conflicts = reports.reduce((sum, report) => sum + report.conflicts, 0);
    console.info(`1000 saves from two processes; ${conflicts} conflicts retried`);
  } finally {
    await store?.close();
  }
});
