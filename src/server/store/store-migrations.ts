/**
 * The store's schema, as numbered migrations: TypeScript strings, so that they ship inside the
 * built module (no .sql file to copy or to find at run time). A migration, once released, never
 * changes: a change of the schema is a new migration with the next number.
 */
import type { SqlDatabase, SqlQueryable } from './sql-database.js';

/** One step of the schema: statements run in order, in the transaction of the whole migration. */
export interface StoreMigration {
  version: number;
  name: string;
  /** The statements, for the tables in `schema` (a checked identifier, quoted). */
  statements(schema: string): string[];
}

export const storeMigrations: readonly StoreMigration[] = [
  {
    version: 1,
    name: 'threads',
    statements: (s) => [
      // Times are epoch milliseconds (the browser's StoredThread's), exact in a bigint.
      `CREATE TABLE ${s}.threads (
        user_id text NOT NULL,
        thread_id text NOT NULL,
        agent_id text NOT NULL,
        title text NOT NULL,
        messages jsonb NOT NULL,
        message_count integer NOT NULL,
        revision integer NOT NULL CHECK (revision > 0),
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (user_id, thread_id)
      )`,
      // The thread list: newest save first, a page at a time.
      `CREATE INDEX threads_recent ON ${s}.threads (user_id, updated_at DESC, thread_id DESC)`,
    ],
  },
  {
    version: 2,
    name: 'runs',
    statements: (s) => [
      // A run id is the service's, and belongs to one user: the key is the run id alone.
      `CREATE TABLE ${s}.runs (
        run_id text PRIMARY KEY,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        state text NOT NULL,
        state_group text NOT NULL CHECK (state_group IN ('waiting', 'running', 'ended')),
        title text NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      )`,
      `CREATE INDEX runs_recent ON ${s}.runs (user_id, created_at DESC, run_id DESC)`,
      // The inbox: one group, newest start first.
      `CREATE INDEX runs_inbox ON ${s}.runs (user_id, state_group, created_at DESC, run_id DESC)`,
    ],
  },
  {
    version: 3,
    name: 'thread versions',
    statements: (s) => [
      // A thread's other versions (edits, regenerates): NULL for a thread with one.
      `ALTER TABLE ${s}.threads ADD COLUMN versions jsonb`,
    ],
  },
];

/** The schema name, checked: it is written into the SQL (an identifier cannot be a parameter). */
export function quotedSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(
      `The store's schema "${schema}" must be a lower-case SQL identifier (a-z, 0-9, _).`,
    );
  }
  return `"${schema}"`;
}

/**
 * Applies the migrations not yet in `schema_migrations`, all in one transaction that first takes
 * a transaction-scoped advisory lock of the schema: a second process starting at the same time
 * waits for it, then finds them applied. The versions applied by this call.
 */
export async function migrateStore(
  database: SqlDatabase,
  schema: string,
  migrations: readonly StoreMigration[] = storeMigrations,
): Promise<number[]> {
  const s = quotedSchema(schema);
  return database.transaction(async (transaction) => {
    await transaction.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `agent-console-kit:${schema}`,
    ]);
    // Created only when absent: CREATE SCHEMA IF NOT EXISTS needs the right to create one even
    // when it exists, which an app's database user may not have.
    const [found] = await transaction.query<{ present: boolean }>(
      `SELECT to_regclass($1) IS NOT NULL AS present`,
      [`${s}.schema_migrations`],
    );
    if (found?.present !== true) await createMigrationsTable(transaction, schema, s);
    const rows = await transaction.query<{ version: number | string }>(
      `SELECT version FROM ${s}.schema_migrations`,
    );
    const applied = new Set(rows.map((row) => Number(row.version)));
    const appliedNow: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements(s)) await transaction.query(statement);
      await transaction.query(
        `INSERT INTO ${s}.schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
        [migration.version, migration.name, Date.now()],
      );
      appliedNow.push(migration.version);
    }
    return appliedNow;
  });
}

async function createMigrationsTable(transaction: SqlQueryable, schema: string, s: string) {
  const [namespace] = await transaction.query<{ present: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS present`,
    [schema],
  );
  if (namespace?.present !== true) await transaction.query(`CREATE SCHEMA ${s}`);
  await transaction.query(
    `CREATE TABLE ${s}.schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at bigint NOT NULL
    )`,
  );
}
