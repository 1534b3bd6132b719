// A server that imports only agent-console-kit/server, type-checked without @types/node (a worker,
// Deno): the entry's types must not need node:http.
import { createAgentProxy, toNodeHandler, type AgentProxyHandler } from 'agent-console-kit/server';

export const proxy: AgentProxyHandler = createAgentProxy({
  baseUrl: 'https://agents.example.com',
  token: async () => 'token',
  allowAgents: ['a'],
});
export const nodeHandler = toNodeHandler(proxy);
export const answer: Promise<Response> = proxy(
  new Request('https://app.example/api/agent-service/api/agents/a'),
);
