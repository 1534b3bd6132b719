// The store suite on a real PostgreSQL server this file starts (test/support/postgres-server.ts).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/server/index.js';
import { describeAgentStore } from '../support/agent-store-suite.js';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

let server: PostgresServer;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startPostgresServer();
  pool = new pg.Pool({ connectionString: server.connectionString, max: 2 });
  // As an app's pool should: a connection still closing when the server stops reports, not throws.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

describe('the store on PostgreSQL', () => {
  describeAgentStore({
    open: (options) =>
      createPostgresStore({
        ...options,
        connectionString: server.connectionString,
        maxConnections: 4,
      }),
    query: async (text) => (await pool.query<Record<string, unknown>>(text)).rows,
  });
});

describe('createPostgresStore', () => {
  it("uses the app's own pool and leaves it open on close()", async () => {
    const store = await createPostgresStore({ pool });
    await store.saveThread('pool-user', { id: 't', agentId: 'a', messages: [] });
    await store.close();
    const rows = await pool.query<{ count: string }>(
      `SELECT count(*) FROM agent_console_kit.threads WHERE user_id = 'pool-user'`,
    );
    expect(rows.rows[0]?.count).toBe('1');
  });

  it('refuses no server, and a schema name that is not a plain identifier, before connecting', async () => {
    await expect(createPostgresStore({})).rejects.toThrow(/connectionString or a pool/);
    await expect(createPostgresStore({ pool, schema: 'x"; DROP TABLE y; --' })).rejects.toThrow(
      /lower-case SQL identifier/,
    );
  });
});
