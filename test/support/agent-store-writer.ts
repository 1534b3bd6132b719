/**
 * One app process of test/agent-store-processes.node.test.ts (bundled by esbuild, then forked):
 * opens the store on the PostgreSQL server given, says `ready`, and on `go` makes `saves` saves
 * into one thread of each user, all users at once, each save retried on a conflict from the
 * thread the conflict carries. Sends `{ done, conflicts }`.
 *
 *   node agent-store-writer.mjs <connectionString> <writer name> <user ids, comma-separated> <saves>
 */
import { AgentStoreConflictError, createPostgresStore } from '../../src/server/index.js';
import type { StoredThread } from '../../src/core/storage/thread-store.js';

const [connectionString = '', name = '', userList = '', savesText = '0'] = process.argv.slice(2);
const users = userList.split(',');
const saves = Number(savesText);
const send = (message: object) => process.send?.(message);

const store = await createPostgresStore({ connectionString, maxConnections: 10 });
await new Promise<void>((resolve) => {
  process.on('message', (message) => {
    if (message === 'go') resolve();
  });
  send({ ready: true });
});

let conflicts = 0;
await Promise.all(
  users.map(async (user) => {
    let thread: StoredThread | undefined = await store.loadThread(user, 'shared');
    for (let index = 0; index < saves; index += 1) {
      const message = {
        id: `${name}-${index}`,
        role: 'USER' as const,
        text: `Save ${index} of ${name}`,
        status: 'done' as const,
        createdAt: Date.now(),
      };
      for (;;) {
        const messages = [...(thread?.messages ?? []), message];
        try {
          const saved = await store.saveThread(
            user,
            { id: 'shared', agentId: 'a', messages },
            { expectedRevision: thread?.revision ?? 0 },
          );
          thread = {
            ...(thread ?? { v: 1, id: 'shared', agentId: 'a', title: '', createdAt: 0 }),
            messages,
            revision: saved.revision,
            updatedAt: saved.updatedAt,
          };
          break;
        } catch (error) {
          if (!(error instanceof AgentStoreConflictError)) throw error;
          conflicts += 1;
          thread = error.current;
        }
      }
    }
  }),
);
await store.close();
send({ done: saves * users.length, conflicts });
process.disconnect?.();
