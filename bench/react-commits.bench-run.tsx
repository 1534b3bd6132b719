/**
 * The React row of `npm run bench` (not a test: it asserts nothing), in jsdom like the unit tests:
 * 2,000 events from the mock server, one write each, about 1 ms apart (a server flushing every
 * event). Counts the commits of a component showing the run (useAgentRunStream, no select) and the
 * time from start() to done, for the budget "at most one commit per 16 ms frame". Writes its
 * figures to $BENCH_OUTPUT for bench/run.js.
 */
import { writeFileSync } from 'node:fs';
import { Profiler, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { it } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  useAgentRunStream,
  type AgentClient,
} from 'agent-console-kit';
import { createMockAgentServer, manyEvents } from 'agent-console-kit/testing';

const events = 2000;
const rounds = 3;

function pause(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function Run({ onDone }: { onDone: (ms: number) => void }) {
  const run = useAgentRunStream();
  const { start } = run;
  useEffect(() => {
    const started = performance.now();
    void start({ agentId: 'paced' }).then(() => onDone(performance.now() - started));
  }, [start, onDone]);
  return <p>{`${run.status} ${run.totalEvents} ${run.text.length}`}</p>;
}

async function countCommits(client: AgentClient) {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  let commits = 0;
  let duration: number | undefined;
  root.render(
    <AgentClientProvider client={client}>
      <Profiler id="run" onRender={() => commits++}>
        <Run onDone={(ms) => (duration = ms)} />
      </Profiler>
    </AgentClientProvider>,
  );
  while (duration === undefined || !(container.textContent ?? '').startsWith(`done ${events} `)) {
    await pause(5);
  }
  root.unmount();
  container.remove();
  return { commits, ms: duration };
}

it('measures', async () => {
  const server = await createMockAgentServer({
    agents: [
      {
        agent: { agent_id: 'paced', name: 'Paced', capabilities: {} },
        run: { events: manyEvents(events), delayMs: 1 },
      },
    ],
  });
  const results: { commits: number; ms: number }[] = [];
  try {
    const client = createAgentClient({ baseUrl: server.url });
    for (let round = 0; round < rounds; round++) results.push(await countCommits(client));
  } finally {
    await server.close();
  }
  const output = JSON.stringify({ events, rounds: results });
  const path = process.env['BENCH_OUTPUT'];
  if (path) writeFileSync(path, output);
  else console.log(output);
});
