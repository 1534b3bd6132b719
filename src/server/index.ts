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
export type { AgentProxyStoreOptions } from './user-routes.js';
export {
  toNodeHandler,
  type NodeIncomingRequest,
  type NodeRequestHandler,
  type NodeServerResponse,
} from './to-node-handler.js';
export {
  AgentStoreConflictError,
  AgentStorePackageError,
  runGroupOf,
  type AgentStore,
  type StorePage,
  type StoredRun,
  type StoredRunGroup,
  type StoredRunStart,
  type StoredThread,
  type ThreadSaveInput,
  type ThreadSummary,
} from './store/agent-store.js';
export type { AgentStoreOptions } from './store/sql-agent-store.js';
export {
  createPgliteStore,
  type PgliteDatabase,
  type PgliteStoreOptions,
} from './store/pglite-store.js';
export {
  createPostgresStore,
  type PostgresClient,
  type PostgresPool,
  type PostgresStoreOptions,
} from './store/postgres-store.js';
