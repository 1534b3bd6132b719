import 'server-only';
import { createAgentClient, type AgentClient } from 'agent-console-kit/core';

let client: AgentClient | undefined;

/**
 * The server's client: straight to the service, with the token. `cacheKey` names the service as
 * the browser's client does (app/providers.tsx), so what the server prefetches is what the
 * browser reads. Made on first use, not when `next build` loads this file.
 */
export function serverAgentClient(): AgentClient {
  client ??= createAgentClient({
    baseUrl: process.env.AGENT_SERVICE_URL!,
    token: () => process.env.AGENT_SERVICE_TOKEN,
    cacheKey: 'agent-service',
  });
  return client;
}
