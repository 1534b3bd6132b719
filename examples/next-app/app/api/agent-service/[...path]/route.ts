import { createAgentProxy, type AgentProxyHandler } from 'agent-console-kit/server';
import { userStore } from '../../../agent-store';

let proxy: AgentProxyHandler | undefined;

// The browser's agent requests go through here; the token is added on the server and never
// reaches the browser. Only the agent operations are forwarded: anything else answers 404.
function handle(request: Request): Promise<Response> {
  // Made on the first request, not when `next build` loads this file: the service's URL and
  // token are settings of the running server.
  proxy ??= createAgentProxy({
    baseUrl: process.env.AGENT_SERVICE_URL!,
    // Asked on every request: a per-user token (or X-Glean-ActAs through `headers`) can come
    // from the request's session here.
    token: () => process.env.AGENT_SERVICE_TOKEN,
    basePath: '/api/agent-service',
    ...userStore(), // each user's threads and durable runs, on every device: agent-store.ts
  });
  return proxy(request);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
