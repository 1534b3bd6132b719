import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient, QueryObserver, dehydrate, hydrate } from '@tanstack/query-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  agentQueryOptions,
  agentSchemasQueryOptions,
  createAgentClient,
  createRunStream,
} from 'agent-console-kit/core';
import { createAgentProxy, toNodeHandler } from 'agent-console-kit/server';
import { setUpMockServer } from '../support/mock-server.js';

// A page that prefetches on the server (with the service's URL and the token) and hydrates in the
// browser (a client on the proxy's relative path, no token).
const token = 'server-only-token-Zk42';
const service = setUpMockServer();
let appOrigin = '';
let app: Server | undefined;

beforeAll(async () => {
  app = createServer(toNodeHandler(createAgentProxy({ baseUrl: service.url, token })));
  await new Promise<void>((resolve) => app?.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(async () => {
  app?.closeAllConnections();
  await new Promise<void>((resolve) => app?.close(() => resolve()));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The browser: a page of the app, at `location`. */
function openPage() {
  vi.stubGlobal('location', new URL(`${appOrigin}/chat/form-agent`));
}

describe('given a client with a relative baseUrl', () => {
  it('resolves it against the page at request time and goes through the proxy', async () => {
    const client = createAgentClient({ baseUrl: '/api/agent-service', api: 'platform' });
    openPage();

    const agent = await client.getAgent('form-agent');

    expect(agent.agent_id).toBe('form-agent');
    expect(service.requests).toHaveLength(1);
    expect(service.requests[0]).toMatchObject({
      path: '/api/agents/form-agent',
      tokenFingerprint: token.slice(-4),
    });
  });

  it('streams a run through the proxy', async () => {
    openPage();
    const client = createAgentClient({ baseUrl: '/api/agent-service/' });

    const final = await createRunStream(client).start({
      agentId: 'chat-agent',
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hello' }] }],
    });

    expect(final.status).toBe('done');
    expect(final.text).not.toBe('');
    expect(service.postCount('chat-agent')).toBe(1);
  });

  it('fails with an error that says why when there is no page to resolve it against', async () => {
    const client = createAgentClient({ baseUrl: '/api/agent-service' });

    await expect(client.getAgent('form-agent')).rejects.toThrow(/relative.*absolute URL/);
    expect(service.requests).toHaveLength(0);
  });
});

describe('given a server prefetch and a browser client of the same service', () => {
  it('shares the cache through cacheKey: hydrated agent and schemas are not fetched again', async () => {
    const serverClient = createAgentClient({ baseUrl: service.url, token, cacheKey: 'acme' });
    const serverQueries = new QueryClient();
    await Promise.all([
      serverQueries.prefetchQuery(agentQueryOptions(serverClient, 'form-agent')),
      serverQueries.prefetchQuery(agentSchemasQueryOptions(serverClient, 'form-agent')),
    ]);
    expect(service.requests).toHaveLength(2);
    const html = JSON.stringify(dehydrate(serverQueries));

    openPage();
    const browserClient = createAgentClient({ baseUrl: '/api/agent-service', cacheKey: 'acme' });
    const browserQueries = new QueryClient();
    hydrate(browserQueries, JSON.parse(html) as ReturnType<typeof dehydrate>);
    const observers = [
      new QueryObserver(browserQueries, {
        ...agentQueryOptions(browserClient, 'form-agent'),
        staleTime: 60_000,
      }),
      new QueryObserver(browserQueries, {
        ...agentSchemasQueryOptions(browserClient, 'form-agent'),
        staleTime: 60_000,
      }),
    ];
    const unsubscribes = observers.map((observer) => observer.subscribe(() => undefined));

    expect(observers[0]?.getCurrentResult().data).toMatchObject({ agent_id: 'form-agent' });
    expect(observers[1]?.getCurrentResult().data).toMatchObject({ agent_id: 'form-agent' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service.requests).toHaveLength(2);
    unsubscribes.forEach((unsubscribe) => unsubscribe());
  });

  it('keeps clients of different base URLs apart without cacheKey', () => {
    const direct = createAgentClient({ baseUrl: service.url });
    const proxied = createAgentClient({ baseUrl: '/api/agent-service' });

    expect(agentQueryOptions(direct, 'a').queryKey).not.toEqual(
      agentQueryOptions(proxied, 'a').queryKey,
    );
    expect(proxied.cacheKey).toBe('/api/agent-service');
  });
});
