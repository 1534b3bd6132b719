/**
 * A durable console on a page whose clock the test drives (with `serveDurableAgents` from
 * durable-environment.ts: the mock service on the same clock): what the console's durable and
 * approval tests share.
 */
import { StrictMode } from 'react';
import { act, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AgentClientProvider, type AgentClient } from 'agent-console-kit';
import { AgentConsole, type AgentConsoleProps } from 'agent-console-kit/console';
import type { ManualPage } from './durable-environment.js';

/** The console's props, less the ones a durable console on `page` sets. */
export type DurableConsoleProps = Omit<AgentConsoleProps, 'executionMode' | 'durableRun'> & {
  /** The page's run storage: give the same one to two mounts (a reload). A new one unless given. */
  runStorage?: Parameters<ManualPage['durableRun']>[0];
};

/**
 * `<AgentConsole executionMode="durable">` on `page`, under StrictMode, a query client (no
 * retries) and the client's provider. A new query client each call: a second call is a reload.
 */
export function renderDurableConsole(
  client: AgentClient,
  page: ManualPage,
  { runStorage, ...props }: DurableConsoleProps,
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AgentClientProvider client={client}>
          <AgentConsole
            {...props}
            executionMode="durable"
            durableRun={page.durableRun(runStorage)}
          />
        </AgentClientProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

/**
 * Moves the page's (and the service's) clock by `ms` in steps of `step`, giving the reads each
 * step sets off 20 ms to come back.
 */
export async function advanceClock(page: ManualPage, ms: number, step = 500) {
  for (let left = ms; left > 0; left -= step) {
    await act(async () => {
      page.advance(Math.min(step, left));
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}
