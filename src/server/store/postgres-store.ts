/**
 * The PostgreSQL backend, through a `pg` pool: for several app instances on one database. Loaded
 * only when asked for: `pg` is an optional peer.
 */
import { AgentStorePackageError, type AgentStore } from './agent-store.js';
import { openSqlAgentStore, type AgentStoreOptions } from './sql-agent-store.js';
import {
  importOptionalPeer,
  isMissingPackage,
  type SqlDatabase,
  type SqlQueryable,
} from './sql-database.js';

/** What the store uses of a client of `pg`. */
export interface PostgresClient {
  query(text: string, params?: unknown[]): Promise<{ rows: object[] }>;
}

/** What the store uses of a `pg` `Pool`. */
export interface PostgresPool extends PostgresClient {
  connect(): Promise<PostgresClient & { release(error?: Error | boolean): void }>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Options of {@link createPostgresStore}: `connectionString` or `pool`. */
export interface PostgresStoreOptions extends AgentStoreOptions {
  /**
   * The server, as `postgres://user:password@host:5432/database` (`pg`'s connection string, e.g.
   * `process.env.DATABASE_URL`). Never logged by the store.
   * @default undefined (then `pool` is required)
   */
  connectionString?: string | undefined;
  /**
   * The most connections the store's pool opens (per process).
   * @default 10
   */
  maxConnections?: number | undefined;
  /**
   * A `pg` `Pool` the app already made (TLS, a role…), used instead of one of the store's own;
   * the store's `close()` leaves it open.
   * @default undefined (the store makes its own from `connectionString`)
   */
  pool?: PostgresPool | undefined;
}

const packageName = 'pg';

/**
 * An {@link AgentStore} in a PostgreSQL database, migrated before it resolves (several processes
 * may start at once: each migration is applied once). Needs the optional peer `pg`; it is
 * imported here, on the first call, never by `agent-console-kit/server` itself.
 *
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<AgentStore> {
  const owned = options.pool === undefined;
  let pool = options.pool;
  if (pool === undefined) {
    if (typeof options.connectionString !== 'string' || options.connectionString === '') {
      throw new TypeError('createPostgresStore needs a connectionString or a pool.');
    }
    pool = await openPool(options.connectionString, options.maxConnections ?? 10);
  }
  return openSqlAgentStore(poolSql(pool), { ...options, closeDatabase: owned });
}

async function openPool(connectionString: string, max: number): Promise<OwnPool> {
  let module: { Pool?: PoolClass; default?: { Pool: PoolClass } };
  try {
    module = (await importOptionalPeer(packageName)) as typeof module;
  } catch (error) {
    if (isMissingPackage(error, packageName)) {
      throw new AgentStorePackageError(packageName, 'createPostgresStore', error);
    }
    throw error;
  }
  // `pg` is CommonJS: its Pool is on the default export.
  const Pool = module.default?.Pool ?? module.Pool;
  if (Pool === undefined) throw new TypeError('The installed "pg" has no Pool.');
  const pool = new Pool({ connectionString, max });
  // A connection the server closes must not crash the process (an unhandled 'error'): an idle
  // one reports to the pool, and one the pool is closing (`pg` takes the pool's listener off it
  // first) to its own listener; the next query opens another.
  const report = (error: Error) => {
    console.error('agent-console-kit: a PostgreSQL connection of the store failed:', error.message);
  };
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  return pool;
}

/** The store's own pool: `pg`'s `Pool` as it is used here (not the app's pool). */
interface OwnPool extends PostgresPool {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(
    event: 'connect',
    listener: (client: { on(event: 'error', listener: (error: Error) => void): unknown }) => void,
  ): unknown;
}

type PoolClass = new (config: { connectionString: string; max: number }) => OwnPool;

function poolSql(pool: PostgresPool): SqlDatabase {
  const queryable = (target: PostgresClient): SqlQueryable => ({
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      return (await target.query(text, [...params])).rows as Row[];
    },
  });
  return {
    ...queryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          // A connection that cannot roll back is not given back to the pool.
          broken =
            rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        client.release(broken ?? false);
      }
    },
    close: () => pool.end(),
  };
}
