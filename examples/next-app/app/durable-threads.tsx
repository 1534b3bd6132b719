'use client';
import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  AgentClientProvider,
  AgentThreadList,
  createAgentClient,
  createServerThreadStore,
  type AgentThreadListProps,
} from 'agent-console-kit';
import { AgentConsole, type AgentConsoleComponents } from 'agent-console-kit/console';

// Durable runs are on the service's platform API: a client of its own, through the same proxy.
const durableClient = createAgentClient({ baseUrl: '/api/agent-service', api: 'platform' });

/** Where the thread shown last is noted, so that a reload shows it again. */
const shownThreadKey = 'next-app:shown-thread';

/** The console's own thread list, which also notes the thread it shows. */
function ThreadListNotingShown(props: AgentThreadListProps) {
  const { selectedThreadId } = props;
  useEffect(() => {
    if (selectedThreadId !== undefined) localStorage.setItem(shownThreadKey, selectedThreadId);
  }, [selectedThreadId]);
  return <AgentThreadList {...props} />;
}

const components: AgentConsoleComponents = { ThreadList: ThreadListNotingShown };

const subscribeToNothing = () => () => undefined;

/**
 * A durable agent's console, its threads kept by the proxy's store for the signed-in user: each
 * answer is a run the service keeps, so a reload (or another device of the user) finds the
 * thread, and an unfinished answer is followed again, never sent again. The server renders a
 * line, and the console comes once the page is hydrated.
 */
export function DurableThreads({ agentId }: { agentId: string }) {
  const inBrowser = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  return inBrowser ? <BrowserThreads agentId={agentId} /> : <p>Loading your threads…</p>;
}

function BrowserThreads({ agentId }: { agentId: string }) {
  // The threads of the user the proxy's `user(request)` names (route.ts), on every device.
  const [threadStore] = useState(() => createServerThreadStore({ baseUrl: '/api/agent-service' }));
  const [threadId] = useState(() => localStorage.getItem(shownThreadKey) ?? undefined);
  return (
    <AgentClientProvider client={durableClient}>
      <AgentConsole
        agentId={agentId}
        executionMode="durable"
        threadStore={threadStore}
        threadId={threadId}
        components={components}
      />
    </AgentClientProvider>
  );
}
