/**
 * The heart of `agent-console-kit dev` without its socket: the proxy (with the store, every
 * request as one fixed demo user) in front of the mock service, both in this JavaScript realm.
 * No Node module: the dev backend serves it on node:http, and Storybook's "Across devices" story
 * runs the same in the page (msw hands it the requests, PGlite keeps the store in memory).
 */
import { createAgentProxy } from '../server/create-agent-proxy.js';
import type { AgentStore } from '../server/store/agent-store.js';
import type { MockAgentService } from '../testing/index.js';

export const devBasePath = '/api/agent-service';

/** What {@link createDevProxy} puts together. */
export interface DevProxyOptions {
  service: MockAgentService;
  store: AgentStore | Promise<AgentStore>;
  /** @default 'demo-user' */
  user?: string | undefined;
}

/** The proxy of the dev backend, a `(request) => Promise<Response>` mounted at {@link devBasePath}. */
export function createDevProxy(options: DevProxyOptions): (request: Request) => Promise<Response> {
  const user = options.user ?? 'demo-user';
  const { service } = options;
  return createAgentProxy({
    // The service is in this realm: the proxy's requests go to its handler, not to a socket.
    baseUrl: 'http://mock-agent-service.invalid',
    fetch: (input, init) => service.handle(new Request(input, init)),
    basePath: devBasePath,
    // No sign-in in development: every request is the demo user.
    user: () => user,
    store: options.store,
  });
}
