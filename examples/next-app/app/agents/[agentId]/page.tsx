import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import { AgentConsole } from 'agent-console-kit/console';
import { agentQueryOptions, agentSchemasQueryOptions } from 'agent-console-kit/core';
import { serverAgentClient } from '../../agent-service';

export default async function AgentPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { agentId } = await params;
  const queryClient = new QueryClient();
  const client = serverAgentClient();
  // The agent and its schemas (a form agent's fields): the page arrives with its form.
  await Promise.all([
    queryClient.prefetchQuery(agentQueryOptions(client, agentId)),
    queryClient.prefetchQuery(agentSchemasQueryOptions(client, agentId)),
  ]);
  return (
    <main>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <AgentConsole agentId={agentId} />
      </HydrationBoundary>
    </main>
  );
}
