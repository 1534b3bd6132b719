// A consumer's file, compiled against the packed types (README examples and the cases).
import { Suspense } from 'react';
import { QueryClient, dehydrate, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import {
  AgentClientProvider,
  useAgent,
  useAgentRunStream,
  useSuspenseAgent,
  useSuspenseAgentSchemas,
  type Agent,
} from 'agent-console-kit';
import { AgentConsole } from 'agent-console-kit/console';
import {
  agentKeys,
  agentQueryOptions,
  agentSchemasQueryOptions,
  createAgentClient,
  createRunStream,
  defaultSseTransport,
  type AgentError,
} from 'agent-console-kit/core';
import { createMockAgentServer, textEvents } from 'agent-console-kit/testing';
import { AgentMarkdown, renderMarkdown } from 'agent-console-kit/markdown';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';
import { createAgentProxy, toNodeHandler, type AgentProxyHandler } from 'agent-console-kit/server';
import { createServer } from 'node:http';
import 'agent-console-kit/styles.css';

const client = createAgentClient({ baseUrl: 'https://agents.example.com', token: 'token' });
const queryClient = new QueryClient();

// Prefetch on a server, with the core entry's query options (TS2379 under
// exactOptionalPropertyTypes before).
await queryClient.prefetchQuery(agentQueryOptions(client, 'a'));
await queryClient.prefetchQuery(agentSchemasQueryOptions(client, 'a'));
const ensured: Agent = await queryClient.ensureQueryData(agentQueryOptions(client, 'a'));
const cached: Agent | undefined = queryClient.getQueryData(agentQueryOptions(client, 'a').queryKey);
export const state = dehydrate(queryClient);
await queryClient.invalidateQueries({ queryKey: agentKeys.all });
await queryClient.invalidateQueries({ queryKey: agentKeys.client(client) });

export function Name() {
  const { data } = useAgent('a', { select: (agent) => agent.name });
  const name: string | undefined = data;
  // @ts-expect-error select made data a string
  const wrong: Agent | undefined = data;
  const { data: agent } = useSuspenseAgent('a');
  const { data: schemas } = useSuspenseAgentSchemas('a');
  const query = useQuery(agentQueryOptions(client, 'a'));
  const error: AgentError | null = query.error;
  const suspense = useSuspenseQuery(agentQueryOptions(client, 'a'));
  const run = useAgentRunStream();
  return (
    <p>
      {name} {agent.name} {String(schemas.input_schema)} {String(wrong)} {error?.message}
      {suspense.data.name} {run.status}
    </p>
  );
}

export function Page() {
  return (
    <AgentClientProvider client={client}>
      <Suspense fallback={null}>
        <Name />
        <AgentConsole agentId="a" renderText={renderMarkdown} />
        <AgentMarkdown text="**Markdown** from the optional entry" />
      </Suspense>
    </AgentClientProvider>
  );
}

const server = await createMockAgentServer({
  agents: [
    { agent: { agent_id: 'a', name: 'A', capabilities: {} }, run: { events: textEvents('Hi') } },
  ],
});
const final = await createRunStream(createAgentClient({ baseUrl: server.url }), {
  transport: defaultSseTransport,
}).start({ agentId: 'a' });
export const text: string = final.text;
export const handlers = mockAgentHandlers();
export const values = [ensured, cached];

// The server entry: a Next.js route handler's exports, and node:http (issue 18).
const proxy: AgentProxyHandler = createAgentProxy({
  baseUrl: server.url,
  token: async (request: Request) => request.headers.get('x-user-token') ?? undefined,
  headers: { 'X-Glean-ActAs': 'someone@example.com' },
  basePath: '/api/agent-service',
  allowAgents: (agentId: string) => agentId === 'a',
  authorize: (request: Request) => request.headers.has('cookie'),
  limits: { maxBodyBytes: 65_536, responseHeadersTimeoutMs: 30_000 },
});
export { proxy as GET, proxy as POST };
export const nodeServer = createServer(toNodeHandler(proxy));
const browserClient = createAgentClient({ baseUrl: '/api/agent-service', cacheKey: 'acme' });
export const sharedKey = agentQueryOptions(browserClient, 'a').queryKey;
await server.close();
