/**
 * A proxy with a store for tests: `createAgentProxy({ user, store })` on node:http in front of a
 * mock service, the store on PGlite in memory. The user is the app's session: a `session=<user>`
 * cookie read by the proxy's `user(request)` (in tests sent as a header; a browser sends its own).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import {
  createAgentProxy,
  createPgliteStore,
  toNodeHandler,
  type AgentStore,
} from 'agent-console-kit/server';
import {
  createMockAgentServer,
  type MockAgentDefinition,
  type MockAgentServer,
} from 'agent-console-kit/testing';

export interface UserStoreProxy {
  /** Where the proxy is mounted: `http://127.0.0.1:port/api/agent-service`. */
  readonly url: string;
  /** The proxy's origin (a client's `baseUrl` for agent operations). */
  readonly origin: string;
  readonly service: MockAgentServer;
  readonly store: AgentStore;
  close(): Promise<void>;
}

/** `session=<user>` in the cookie header: a stand-in for the app's signed session. */
export function sessionUser(request: Request): string | undefined {
  const cookie = request.headers.get('cookie') ?? '';
  return /(?:^|;\s*)session=([\w-]+)/.exec(cookie)?.[1];
}

/** The headers a test's fetch sends as `user`'s device. */
export const sessionOf = (user: string) => ({ cookie: `session=${user}` });

export const approveAgent: MockAgentDefinition = {
  agent: { agent_id: 'approve-agent', name: 'Approve', capabilities: { 'ap.io.messages': true } },
  durable: {
    turns: [
      {
        runningMs: 0,
        text: 'Approve the deploy?',
        approvals: [
          {
            displayName: 'Deploy to production',
            description: 'Deploys the web service.',
            arguments: { service: 'web' },
          },
        ],
      },
      { runningMs: 0, text: 'Deployed.' },
    ],
  },
};

export async function startUserStoreProxy(
  agents: MockAgentDefinition[] = [approveAgent],
): Promise<UserStoreProxy> {
  const service = await createMockAgentServer({ agents });
  const store = await createPgliteStore();
  const proxy = createAgentProxy({
    baseUrl: service.url,
    token: 'server-token',
    basePath: '/api/agent-service',
    user: sessionUser,
    store,
  });
  const server: Server = createServer(toNodeHandler(proxy));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api/agent-service`,
    origin,
    service,
    store,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
      await store.close();
    },
  };
}

/**
 * A proxy for the whole test file: started before its tests, closed after them. The object reads
 * the started proxy, so a file writes `proxy.url` in its tests as with `startUserStoreProxy`.
 */
export function serveUserStoreProxy(agents?: MockAgentDefinition[]): UserStoreProxy {
  let started: UserStoreProxy | undefined;
  beforeAll(async () => {
    started = await startUserStoreProxy(agents);
  }, 60_000);
  afterAll(() => started?.close());
  const current = (): UserStoreProxy => {
    if (started === undefined) throw new Error('The proxy starts before the tests (beforeAll).');
    return started;
  };
  return {
    get url() {
      return current().url;
    },
    get origin() {
      return current().origin;
    },
    get service() {
      return current().service;
    },
    get store() {
      return current().store;
    },
    close: () => current().close(),
  };
}
