/**
 * The {@link AgentStore} in SQL, once for both backends (PGlite and PostgreSQL through `pg`).
 * A versioned write is one statement (an insert that does nothing on a conflict, or an update
 * WHERE revision = the expected one): two saves at once cannot both win, on any number of
 * processes, and no row lock is held between statements.
 */
import { parseStoredConversationMessages } from '../../core/storage/conversation-message.js';
import { AgentInputError } from '../../core/wire/errors.js';
import { ownFields, titleOf } from '../../core/storage/thread-store.js';
import { parseConversationVersions } from '../../core/storage/thread-versions.js';
import {
  AgentStoreConflictError,
  runGroupOf,
  type AgentStore,
  type StoredRun,
  type StoredRunGroup,
  type StoredThread,
  type ThreadSummary,
} from './agent-store.js';
import type { SqlDatabase } from './sql-database.js';
import { migrateStore, quotedSchema } from './store-migrations.js';

/** Options both backends take. */
export interface AgentStoreOptions {
  /**
   * The PostgreSQL schema of the store's tables (`threads`, `runs`, `schema_migrations`): created
   * by the first migration when absent, so the store's tables never meet the app's own.
   * @default 'agent_console_kit'
   */
  schema?: string | undefined;
  /**
   * The clock, in ms since the epoch.
   * @default Date.now
   */
  now?: (() => number) | undefined;
}

const defaultPageSize = 50;
const maxPageSize = 200;
const maxIdLength = 256;
const maxTitleLength = 200;
const maxStateLength = 64;

interface ThreadRow {
  thread_id: string;
  agent_id: string;
  title: string;
  messages?: unknown;
  versions?: unknown;
  message_count: number | string;
  revision: number | string;
  created_at: number | string;
  updated_at: number | string;
}

interface RunRow {
  run_id: string;
  user_id: string;
  agent_id: string;
  state: string;
  state_group: StoredRunGroup;
  title: string;
  created_at: number | string;
  updated_at: number | string;
}

const summaryColumns = `thread_id, agent_id, title, message_count, revision, created_at, updated_at`;
const runColumns = `run_id, user_id, agent_id, state, state_group, title, created_at, updated_at`;

/**
 * The store over a database: `closeDatabase` says whether {@link AgentStore.close} closes it
 * (one the store opened) or leaves it to its owner (one the app gave).
 */
export function createSqlAgentStore(
  database: SqlDatabase,
  options: AgentStoreOptions & { closeDatabase: boolean },
): AgentStore {
  const schemaName = options.schema ?? 'agent_console_kit';
  const s = quotedSchema(schemaName);
  const now = options.now ?? Date.now;
  const threads = `${s}.threads`;
  const runs = `${s}.runs`;

  const loadThread = async (userId: string, threadId: string) => {
    checkUser(userId);
    const [row] = await database.query<ThreadRow>(
      `SELECT ${summaryColumns}, messages, versions FROM ${threads} WHERE user_id = $1 AND thread_id = $2`,
      [userId, threadId],
    );
    return row === undefined ? undefined : threadOf(row);
  };

  const getRun = async (userId: string, runId: string) => {
    checkUser(userId);
    const [row] = await database.query<RunRow>(
      `SELECT ${runColumns} FROM ${runs} WHERE run_id = $1 AND user_id = $2`,
      [runId, userId],
    );
    return row === undefined ? undefined : runOf(row);
  };

  return {
    async listThreads(userId, listOptions = {}) {
      checkUser(userId);
      const query = pageQuery(listOptions, 'updated_at', 'thread_id', [userId]);
      if (listOptions.agentId !== undefined)
        query.where.push(`agent_id = ${query.param(listOptions.agentId)}`);
      const rows = await database.query<ThreadRow>(
        `SELECT ${summaryColumns} FROM ${threads} WHERE user_id = $1 AND ${query.where.join(' AND ')}
         ${query.order}`,
        query.params,
      );
      const { items, nextCursor } = query.page(rows, summaryOf, (item) => [
        item.updatedAt,
        item.id,
      ]);
      return nextCursor === undefined ? { threads: items } : { threads: items, nextCursor };
    },

    loadThread,

    async saveThread(userId, input, saveOptions = {}) {
      checkUser(userId);
      checkId(input.id, 'A thread');
      checkId(input.agentId, "A thread's agent");
      const expected = saveOptions.expectedRevision;
      if (expected !== undefined && !(Number.isSafeInteger(expected) && expected >= 0)) {
        throw new AgentInputError('expectedRevision must be a whole number, 0 or more.');
      }
      const messages = parseStoredConversationMessages(input.messages).map(ownFields);
      const versions = parseConversationVersions(input.versions, messages, ownFields);
      const title = input.title === undefined ? null : clampTitle(input.title);
      const time = now();
      // $1 user, $2 thread, $3 agent, $4 title given, $5 title of the first question,
      // $6 messages, $7 count, $8 time, $9 versions.
      const params: unknown[] = [
        userId,
        input.id,
        input.agentId,
        title,
        titleOf(messages),
        JSON.stringify(messages),
        messages.length,
        time,
        versions === undefined ? null : JSON.stringify(versions),
      ];
      const insert = `INSERT INTO ${threads} AS t (user_id, thread_id, agent_id, title, messages,
          message_count, revision, created_at, updated_at, versions)
        VALUES ($1, $2, $3, COALESCE($4::text, $5::text), $6::jsonb, $7, 1, $8, $8, $9::jsonb)`;
      const update = `agent_id = $3, messages = $6::jsonb, message_count = $7, versions = $9::jsonb,
          title = COALESCE($4::text, NULLIF(t.title, ''), $5::text),
          revision = t.revision + 1, updated_at = $8`;
      let rows: { revision: number | string; updated_at: number | string }[];
      if (expected === undefined) {
        rows = await database.query(
          `${insert} ON CONFLICT (user_id, thread_id) DO UPDATE SET ${update} RETURNING revision, updated_at`,
          params,
        );
      } else if (expected === 0) {
        rows = await database.query(
          `${insert} ON CONFLICT (user_id, thread_id) DO NOTHING RETURNING revision, updated_at`,
          params,
        );
      } else {
        rows = await database.query(
          `UPDATE ${threads} AS t SET ${update}
           WHERE t.user_id = $1 AND t.thread_id = $2 AND t.revision = $10
           RETURNING revision, updated_at`,
          [...params, expected],
        );
      }
      const [row] = rows;
      if (row === undefined) {
        const current = await loadThread(userId, input.id);
        throw new AgentStoreConflictError(input.id, expected ?? 0, current);
      }
      return { revision: Number(row.revision), updatedAt: Number(row.updated_at) };
    },

    async renameThread(userId, threadId, title) {
      checkUser(userId);
      const [row] = await database.query<{
        revision: number | string;
        updated_at: number | string;
      }>(
        `UPDATE ${threads} SET title = $3, revision = revision + 1, updated_at = $4
         WHERE user_id = $1 AND thread_id = $2 RETURNING revision, updated_at`,
        [userId, threadId, clampTitle(title), now()],
      );
      return row === undefined
        ? undefined
        : { revision: Number(row.revision), updatedAt: Number(row.updated_at) };
    },

    async deleteThread(userId, threadId) {
      checkUser(userId);
      const rows = await database.query(
        `DELETE FROM ${threads} WHERE user_id = $1 AND thread_id = $2 RETURNING thread_id`,
        [userId, threadId],
      );
      return rows.length > 0;
    },

    async recordRun(start) {
      checkUser(start.userId);
      checkId(start.runId, 'A run');
      checkId(start.agentId, "A run's agent");
      const state = checkState(start.state);
      const time = now();
      // Recorded again (a retried start): the state follows unless the run ended; the first
      // user keeps it, another user's record of the same id changes nothing.
      const [row] = await database.query<RunRow>(
        `INSERT INTO ${runs} AS r (${runColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (run_id) DO UPDATE SET
           state = CASE WHEN r.state_group = 'ended' THEN r.state ELSE EXCLUDED.state END,
           state_group = CASE WHEN r.state_group = 'ended' THEN r.state_group ELSE EXCLUDED.state_group END,
           title = CASE WHEN EXCLUDED.title = '' THEN r.title ELSE EXCLUDED.title END,
           updated_at = EXCLUDED.updated_at
         WHERE r.user_id = EXCLUDED.user_id
         RETURNING ${runColumns}`,
        [
          start.runId,
          start.userId,
          start.agentId,
          state,
          runGroupOf(state),
          clampTitle(start.title ?? ''),
          start.createdAt ?? time,
          time,
        ],
      );
      return row === undefined ? undefined : runOf(row);
    },

    async updateRun(userId, runId, change) {
      checkUser(userId);
      const state = change.state === undefined ? null : checkState(change.state);
      const title = change.title === undefined ? null : clampTitle(change.title);
      // Written only when something changes (a poll that reads the same state writes nothing);
      // an ended run keeps its end state.
      const [row] = await database.query<RunRow>(
        `UPDATE ${runs} SET
           state = CASE WHEN $3::text IS NULL OR state_group = 'ended' THEN state ELSE $3::text END,
           state_group = CASE WHEN $3::text IS NULL OR state_group = 'ended' THEN state_group ELSE $4::text END,
           title = COALESCE($5::text, title),
           updated_at = $6
         WHERE run_id = $2 AND user_id = $1 AND (
           ($3::text IS NOT NULL AND state_group <> 'ended' AND state <> $3::text)
           OR ($5::text IS NOT NULL AND title <> $5::text))
         RETURNING ${runColumns}`,
        [userId, runId, state, state === null ? null : runGroupOf(state), title, now()],
      );
      return row === undefined ? getRun(userId, runId) : runOf(row);
    },

    getRun,

    async listRuns(userId, listOptions = {}) {
      checkUser(userId);
      const query = pageQuery(listOptions, 'created_at', 'run_id', [userId]);
      if (listOptions.group !== undefined) {
        query.where.push(`state_group = ${query.param(listOptions.group)}`);
      }
      if (listOptions.agentId !== undefined)
        query.where.push(`agent_id = ${query.param(listOptions.agentId)}`);
      const rows = await database.query<RunRow>(
        `SELECT ${runColumns} FROM ${runs} WHERE user_id = $1 AND ${query.where.join(' AND ')}
         ${query.order}`,
        query.params,
      );
      const { items, nextCursor } = query.page(rows, runOf, (item) => [item.createdAt, item.runId]);
      return nextCursor === undefined ? { runs: items } : { runs: items, nextCursor };
    },

    async deleteUser(userId) {
      checkUser(userId);
      return database.transaction(async (transaction) => {
        const removed = async (table: string) => {
          const [row] = await transaction.query<{ removed: number | string }>(
            `WITH removed AS (DELETE FROM ${table} WHERE user_id = $1 RETURNING 1)
             SELECT count(*) AS removed FROM removed`,
            [userId],
          );
          return Number(row?.removed ?? 0);
        };
        return { threads: await removed(threads), runs: await removed(runs) };
      });
    },

    migrate: () => migrateStore(database, schemaName),

    async close() {
      if (options.closeDatabase) await database.close();
    },
  };
}

/**
 * The store, migrated: on a failure (a bad schema name, a migration that fails), a database the
 * store opened is closed again before the error is thrown.
 */
export async function openSqlAgentStore(
  database: SqlDatabase,
  options: AgentStoreOptions & { closeDatabase: boolean },
): Promise<AgentStore> {
  try {
    const store = createSqlAgentStore(database, options);
    await store.migrate();
    return store;
  } catch (error) {
    if (options.closeDatabase) await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * A keyset page: rows before the cursor's (time, id) in the list's order, `$1` being the user.
 * `param` adds a parameter and gives its placeholder; `order` is the query's ORDER BY and LIMIT
 * (one row more than the page, to know whether another follows); `page` makes the rows read
 * into the page's items and the cursor after the last, when another page follows.
 */
function pageQuery(
  options: { limit?: number | undefined; cursor?: string | undefined },
  timeColumn: string,
  idColumn: string,
  params: unknown[],
) {
  const asked = Number.isFinite(options.limit) ? Math.floor(options.limit ?? 0) : defaultPageSize;
  const limit = Math.min(maxPageSize, Math.max(1, asked));
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = ['TRUE'];
  if (options.cursor !== undefined) {
    const [time, id] = parseCursor(options.cursor);
    where.push(`(${timeColumn}, ${idColumn}) < (${param(time)}::bigint, ${param(id)}::text)`);
  }
  const order = `ORDER BY ${timeColumn} DESC, ${idColumn} DESC LIMIT ${limit + 1}`;
  const page = <Row, Item>(
    rows: readonly Row[],
    itemOf: (row: Row) => Item,
    keyOf: (item: Item) => [number, string],
  ): { items: Item[]; nextCursor: string | undefined } => {
    const items = rows.slice(0, limit).map(itemOf);
    const last = items.at(-1);
    const more = rows.length > limit && last !== undefined;
    return { items, nextCursor: more ? cursorOf(...keyOf(last)) : undefined };
  };
  return { where, params, param, order, page };
}

/** An opaque cursor: base64url of `[time, id]`. */
function cursorOf(time: number, id: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([time, id]));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function parseCursor(cursor: string): [number, string] {
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string'
    ) {
      return [value[0] as number, value[1]];
    }
  } catch {
    // Reported below, as any cursor this store did not give.
  }
  throw new AgentInputError('The cursor is not one this store gave.');
}

function summaryOf(row: ThreadRow): ThreadSummary {
  return {
    id: row.thread_id,
    agentId: row.agent_id,
    title: row.title,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    revision: Number(row.revision),
    messageCount: Number(row.message_count),
  };
}

function threadOf(row: ThreadRow): StoredThread {
  const { id, agentId, title, createdAt, updatedAt, revision } = summaryOf(row);
  // pg and PGlite parse jsonb; a text column (a hand-made schema) would come as a string.
  const json = (value: unknown) =>
    typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  const messages = parseStoredConversationMessages(json(row.messages));
  const versions = parseConversationVersions(json(row.versions), messages);
  return {
    v: 1,
    id,
    agentId,
    title,
    messages,
    ...(versions === undefined ? {} : { versions }),
    createdAt,
    updatedAt,
    revision,
  };
}

function runOf(row: RunRow): StoredRun {
  return {
    userId: row.user_id,
    agentId: row.agent_id,
    runId: row.run_id,
    state: row.state,
    group: row.state_group,
    title: row.title,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function checkUser(userId: unknown) {
  checkId(userId, 'A user');
}

function checkId(id: unknown, what: string) {
  if (typeof id !== 'string' || id.trim() === '' || id.length > maxIdLength) {
    throw new AgentInputError(`${what} needs an id of 1 to ${maxIdLength} characters.`);
  }
}

function checkState(state: unknown): string {
  if (typeof state !== 'string' || state.trim() === '' || state.length > maxStateLength) {
    throw new AgentInputError(`A run's state must be 1 to ${maxStateLength} characters.`);
  }
  return state;
}

function clampTitle(title: string): string {
  return String(title).replace(/\s+/g, ' ').trim().slice(0, maxTitleLength);
}
