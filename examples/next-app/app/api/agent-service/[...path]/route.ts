import { createAgentProxy, type AgentProxyHandler } from 'agent-console-kit/server';

let proxy: AgentProxyHandler | undefined;

// The browser's agent requests go through here; the token is added on the server and never
// reaches the browser. Only the agent operations are forwarded: anything else answers 404.
function agentProxy(request: Request): Promise<Response> {
  // Made on the first request, not when `next build` loads this file: the service's URL and
  // token are settings of the running server.
  proxy ??= createAgentProxy({
    baseUrl: process.env.AGENT_SERVICE_URL!,
    // Asked on every request: a per-user token (or X-Glean-ActAs through `headers`) can come
    // from the request's session here.
    token: () => process.env.AGENT_SERVICE_TOKEN,
    basePath: '/api/agent-service',
  });
  return proxy(request);
}

export { agentProxy as GET, agentProxy as POST };
