// The store suite on PGlite, in memory (one database for the file), and the data folder.
import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteStore } from '../src/server/index.js';
import { describeAgentStore, newUser, question } from './support/agent-store-suite.js';

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
