import { DurableThreads } from '../durable-threads';

export const metadata = { title: 'Long report: your threads' };

// A durable agent (the mock service's "Long report"): its threads stay in this browser.
export default function ThreadsPage() {
  return (
    <main>
      <DurableThreads agentId="durable-agent" />
    </main>
  );
}
