/**
 * `agent-console-kit/server`: a proxy that keeps the service's token on the server. No React, no
 * DOM: a Fetch API handler for route handlers and edge runtimes, and a node:http / Express adapter.
 */
export {
  createAgentProxy,
  type AgentProxyHandler,
  type AgentProxyLimits,
  type AgentProxyOptions,
  type AllowAgents,
  type ProxyValue,
} from './create-agent-proxy.js';
export { toNodeHandler, type NodeRequestHandler } from './to-node-handler.js';
export { proxyRoutes, type ProxyOperation, type ProxyRouteDefinition } from './proxy-routes.js';
