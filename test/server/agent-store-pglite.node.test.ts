// The store suite on PGlite, in memory (one database for the file), and the data folder.
import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteStore } from '../../src/server/index.js';
import { pgliteSql } from '../../src/server/store/pglite-store.js';
import { migrateStore, storeMigrations } from '../../src/server/store/store-migrations.js';
import { describeAgentStore, newUser, question } from '../support/agent-store-suite.js';

let database: PGlite;

beforeAll(async () => {
  database = await PGlite.create();
});
afterAll(() => database.close());

describe('the store on PGlite', () => {
  describeAgentStore({
    open: (options) => createPgliteStore({ ...options, database }),
    query: async (text) => (await database.query<Record<string, unknown>>(text)).rows,
  });
});

describe('createPgliteStore with a data folder', () => {
  it('keeps the threads in the folder: a store opened on it again has them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ack-pglite-'));
    try {
      const user = newUser();
      const first = await createPgliteStore({ dataDir });
      await first.saveThread(user, { id: 't', agentId: 'a', messages: [question('m', 'Kept?')] });
      await first.close();

      const again = await createPgliteStore({ dataDir });
      try {
        expect(await again.migrate()).toEqual([]);
        expect((await again.loadThread(user, 't'))?.title).toBe('Kept?');
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a migration that fails', () => {
  it('rolls back whole: neither its tables nor its version are written', async () => {
    const db = await PGlite.create();
    try {
      const store = await createPgliteStore({ database: db, schema: 'ack_rollback' });
      await store.close();
      const sql = pgliteSql(db);
      const broken = {
        version: 4,
        name: 'broken',
        statements: (schema: string) => [`CREATE TABLE ${schema}.extra (x int)`, 'SELECT nonsense'],
      };
      await expect(migrateStore(sql, 'ack_rollback', [broken])).rejects.toThrow(/nonsense/);
      const extra = await db.query<{ present: boolean }>(
        `SELECT to_regclass('ack_rollback.extra') IS NOT NULL AS present`,
      );
      expect(extra.rows[0]?.present).toBe(false);
      const versions = await db.query<{ version: number }>(
        'SELECT version FROM ack_rollback.schema_migrations ORDER BY version',
      );
      expect(versions.rows.map((row) => row.version)).toEqual([1, 2, 3]);
    } finally {
      await db.close();
    }
  });
});

describe('a database at migration 2 (threads saved before versions)', () => {
  it('is migrated on open: its threads load as they were, and keep versions from then on', async () => {
    const db = await PGlite.create();
    try {
      const sql = pgliteSql(db);
      await migrateStore(sql, 'ack_before', storeMigrations.slice(0, 2));
      const messages = [question('m1', 'Saved before versions')];
      await db.query(
        `INSERT INTO ack_before.threads (user_id, thread_id, agent_id, title, messages,
          message_count, revision, created_at, updated_at)
         VALUES ('u', 't-old', 'a', 'Old', $1::jsonb, 1, 4, 1, 2)`,
        [JSON.stringify(messages)],
      );

      const store = await createPgliteStore({ database: db, schema: 'ack_before' });
      try {
        const loaded = await store.loadThread('u', 't-old');
        expect(loaded).toMatchObject({ id: 't-old', revision: 4, messages });
        expect(loaded && 'versions' in loaded).toBe(false);
        const versions = {
          forks: [{ after: null, versions: ['m0', 'm1'], shown: 'm1' }],
          hidden: [{ after: null, message: question('m0', 'The first wording') }],
        };
        await store.saveThread('u', { id: 't-old', agentId: 'a', messages, versions });
        expect((await store.loadThread('u', 't-old'))?.versions).toEqual(versions);
      } finally {
        await store.close();
      }
    } finally {
      await db.close();
    }
  });
});
