/**
 * `agent-console-kit dev`: a development backend in one process: the mock agent service, the
 * proxy in front of it, and the proxy's store of threads and durable runs on an embedded PGlite
 * (one data folder), every request as one fixed demo user. Two browsers (a laptop and a phone, or
 * two windows) against it are two devices of that user.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '../server/to-node-handler.js';
import { createPgliteStore } from '../server/store/pglite-store.js';
import type { AgentStore } from '../server/store/agent-store.js';
import { createMockAgentService, type MockAgentService } from '../testing/index.js';
import { createDevProxy, devBasePath } from './dev-proxy.js';

export { devBasePath };

/** Options of {@link startDevBackend}. */
export interface DevBackendOptions {
  /** @default 4000 (0 picks a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** The store's data folder (made when absent); `undefined` keeps it in memory. */
  dataDir?: string | undefined;
  /** @default 'demo-user' */
  user?: string;
  /** Origins whose pages may call the backend with their cookies (Storybook, an app's dev server). */
  allowOrigins?: readonly string[];
  /** Called once per answered request: method, path (never the query or a header), status. */
  log?: (line: string) => void;
}

export interface DevBackend {
  /** The origin, e.g. `http://127.0.0.1:4000`. */
  readonly url: string;
  /** Where the proxy answers: `{url}/api/agent-service`. */
  readonly proxyUrl: string;
  readonly service: MockAgentService;
  readonly store: AgentStore;
  close(): Promise<void>;
}

/** Starts the mock service, the proxy and the store; resolves once it listens. */
export async function startDevBackend(options: DevBackendOptions = {}): Promise<DevBackend> {
  const user = options.user ?? 'demo-user';
  const service = createMockAgentService();
  const store = await createPgliteStore(
    options.dataDir === undefined ? {} : { dataDir: options.dataDir },
  );
  const proxy = createDevProxy({ service, store, user });
  const allowed = new Set(options.allowOrigins ?? []);
  const handler = toNodeHandler(async (request) => {
    const origin = request.headers.get('origin');
    const cors: Record<string, string> =
      origin !== null && allowed.has(origin)
        ? {
            'access-control-allow-origin': origin,
            'access-control-allow-credentials': 'true',
            vary: 'origin',
          }
        : {};
    const response =
      request.method === 'OPTIONS'
        ? new Response(null, {
            status: origin !== null && allowed.has(origin) ? 204 : 403,
            headers: {
              ...cors,
              'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
              'access-control-allow-headers': 'content-type, accept, last-event-id',
              'access-control-max-age': '600',
            },
          })
        : await proxy(request);
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(cors)) headers.set(name, value);
    options.log?.(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
    return new Response(response.body, { status: response.status, headers });
  });
  const server: Server = createServer(handler);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 4000, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    proxyUrl: `${url}${devBasePath}`,
    service,
    store,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}
