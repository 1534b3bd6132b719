/**
 * The embedded backend: PGlite (PostgreSQL compiled to WebAssembly) in the app's own process, in
 * one data folder or in memory. Loaded only when asked for: `@electric-sql/pglite` is an optional
 * peer.
 */
import { AgentStorePackageError, type AgentStore } from './agent-store.js';
import { openSqlAgentStore, type AgentStoreOptions } from './sql-agent-store.js';
import {
  importOptionalPeer,
  isMissingPackage,
  type SqlDatabase,
  type SqlQueryable,
} from './sql-database.js';

/** What the store uses of a PGlite database (`@electric-sql/pglite`'s `PGlite`). */
export interface PgliteDatabase {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  transaction<T>(
    work: (transaction: {
      query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
    }) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link createPgliteStore}. */
export interface PgliteStoreOptions extends AgentStoreOptions {
  /**
   * The folder of the database (made when absent). One process at a time opens a folder: for
   * several app instances, use `createPostgresStore`.
   * @default undefined (in memory: gone with the process)
   */
  dataDir?: string | undefined;
  /**
   * A PGlite database the app already opened, used instead of opening one (`dataDir` is then
   * ignored); the store's `close()` leaves it open.
   * @default undefined (the store opens its own)
   */
  database?: PgliteDatabase | undefined;
}

const packageName = '@electric-sql/pglite';

/**
 * An {@link AgentStore} embedded in the process: PGlite in `dataDir` (or in memory), migrated
 * before it resolves. Needs the optional peer `@electric-sql/pglite`; it is imported here, on
 * the first call, never by `agent-console-kit/server` itself.
 *
 * @example
 * const store = await createPgliteStore({ dataDir: './.agent-data' });
 */
export async function createPgliteStore(options: PgliteStoreOptions = {}): Promise<AgentStore> {
  const owned = options.database === undefined;
  const pglite = options.database ?? (await openPglite(options.dataDir));
  return openSqlAgentStore(pgliteSql(pglite), { ...options, closeDatabase: owned });
}

async function openPglite(dataDir: string | undefined): Promise<PgliteDatabase> {
  let module: { PGlite: { create(dataDir?: string): Promise<PgliteDatabase> } };
  try {
    module = (await importOptionalPeer(packageName)) as typeof module;
  } catch (error) {
    if (isMissingPackage(error, packageName)) {
      throw new AgentStorePackageError(packageName, 'createPgliteStore', error);
    }
    throw error;
  }
  return module.PGlite.create(dataDir);
}

/** PGlite as the store's SQL layer (internal; exported for the migration tests). */
export function pgliteSql(pglite: PgliteDatabase): SqlDatabase {
  const queryable = (target: Pick<PgliteDatabase, 'query'>): SqlQueryable => ({
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      return (await target.query<Row>(text, [...params])).rows;
    },
  });
  return {
    ...queryable(pglite),
    // PGlite is one connection: a transaction holds it, and other statements wait for its end.
    transaction: (work) => pglite.transaction((transaction) => work(queryable(transaction))),
    close: () => pglite.close(),
  };
}
