import {
  createAgentProxy,
  createPgliteStore,
  createPostgresStore,
  type AgentProxyHandler,
} from 'agent-console-kit/server';

let proxy: Promise<AgentProxyHandler> | undefined;

// The browser's agent requests go through here; the token is added on the server and never
// reaches the browser. Only the agent operations are forwarded, and the user's threads and
// durable runs are kept: anything else answers 404.
async function makeProxy(): Promise<AgentProxyHandler> {
  // Each user's threads and durable runs: PostgreSQL when DATABASE_URL is set (npm install pg),
  // else PGlite, PostgreSQL embedded in this process, in the folder .agent-data.
  const store = process.env.DATABASE_URL
    ? await createPostgresStore({ connectionString: process.env.DATABASE_URL })
    : await createPgliteStore({ dataDir: process.env.AGENT_DATA_DIR ?? '.agent-data' });
  return createAgentProxy({
    baseUrl: process.env.AGENT_SERVICE_URL!,
    // Asked on every request: a per-user token (or X-Glean-ActAs through `headers`) can come
    // from the request's session here.
    token: () => process.env.AGENT_SERVICE_TOKEN,
    basePath: '/api/agent-service',
    // Who the user is: your session decides (never a header the browser sets). This example has
    // no sign-in, so every request is one demo user: two browsers are two devices of that user.
    user: () => process.env.DEMO_USER_ID ?? 'demo-user',
    store,
  });
}

function agentProxy(request: Request): Promise<Response> {
  // Made on the first request, not when `next build` loads this file: the service's URL, its
  // token and the database are settings of the running server.
  proxy ??= makeProxy();
  return proxy.then((handler) => handler(request));
}

// PUT, PATCH and DELETE serve the threads (save, rename, delete).
export {
  agentProxy as GET,
  agentProxy as POST,
  agentProxy as PUT,
  agentProxy as PATCH,
  agentProxy as DELETE,
};
