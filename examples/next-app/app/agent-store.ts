import 'server-only';
import { createPgliteStore, createPostgresStore } from 'agent-console-kit/server';

/**
 * What makes the proxy keep each user's threads and durable runs (route.ts): the user, and the
 * store. Called on the proxy's first request, so `next build` opens no database.
 */
export function userStore() {
  return {
    // Who the user is: your session decides (never a header the browser sets). This example has
    // no sign-in, so every request is one demo user: two browsers are two devices of that user.
    user: () => process.env.DEMO_USER_ID ?? 'demo-user',
    // PostgreSQL when DATABASE_URL is set (npm install pg); else PGlite, PostgreSQL embedded in
    // this process, in the folder .agent-data.
    store: process.env.DATABASE_URL
      ? createPostgresStore({ connectionString: process.env.DATABASE_URL })
      : createPgliteStore({ dataDir: process.env.AGENT_DATA_DIR ?? '.agent-data' }),
  };
}
