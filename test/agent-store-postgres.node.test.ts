// The store suite on a real PostgreSQL server this file starts (test/support/postgres-server.ts).
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { createPostgresStore } from '../src/server/index.js';
import { describeAgentStore } from './support/agent-store-suite.js';
import { startPostgresServer, type PostgresServer } from './support/postgres-server.js';

let server: PostgresServer;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startPostgresServer();
  pool = new pg.Pool({ connectionString: server.connectionString, max: 2 });
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
