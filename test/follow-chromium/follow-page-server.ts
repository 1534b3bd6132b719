/**
 * The server of the "threads and approvals follow the user" tests in Chromium: one node:http
 * server on 127.0.0.1 serving the test page (page.tsx, bundled by esbuild from the source) and, on
 * the same origin, `createAgentProxy({ user, store })` at /api/agent-service in front of the mock
 * service (in this process, so a test counts every request that reached it). The user is the
 * `session` cookie each browser context is given: the app's session, never a header the page sets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createAgentProxy,
  createPgliteStore,
  toNodeHandler,
  type AgentStore,
} from 'agent-console-kit/server';
import type { MockAgentService } from 'agent-console-kit/testing';
import { sessionUser } from '../support/user-store-proxy.js';
import { bundleTestPage, testPageHtml } from '../support/test-page.js';

export const bundleFollowPage = () => bundleTestPage('test/follow-chromium/page.tsx');

const html = testPageHtml('Follow the user');

export interface FollowPageServer {
  readonly url: string;
  readonly store: AgentStore;
  close(): Promise<void>;
}

export async function startFollowPageServer(
  service: MockAgentService,
  script: string,
): Promise<FollowPageServer> {
  const store = await createPgliteStore();
  const proxy = createAgentProxy({
    baseUrl: 'http://mock-agent-service.invalid',
    fetch: (input, init) => service.handle(new Request(input, init)),
    token: 'follow-chromium-server-token',
    user: sessionUser,
    store,
  });
  const proxyHandler = toNodeHandler(proxy);
  const server: Server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? '/').split('?')[0];
    if (incoming.method === 'GET' && path === '/') {
      outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      outgoing.end(html);
    } else if (incoming.method === 'GET' && path === '/page.js') {
      outgoing.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      outgoing.end(script);
    } else if (path === '/favicon.ico') {
      outgoing.writeHead(204);
      outgoing.end();
    } else {
      void proxyHandler(incoming, outgoing);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    store,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}
