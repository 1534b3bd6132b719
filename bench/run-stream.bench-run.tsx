/**
 * The figures of `npm run bench` (not a test: it asserts nothing). Run through bench/run.js, which
 * prints what this file writes to $BENCH_OUTPUT.
 *
 * 1. React commits while 10,000 events stream in at full speed from the mock server (a real
 *    socket): useAgentRunStream vs a naive hook that calls useState for every event.
 * 2. Events per second on the same bytes (in memory, no socket): RunStream (parse, validate,
 *    text, buffer, notify) vs fetch-event-source alone (SSE parsing only) and with JSON.parse.
 */
import { writeFileSync } from 'node:fs';
import { Profiler, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import { it } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  createRunStream,
  useAgentRunStream,
  type AgentClient,
} from 'agent-console-kit';
import { createMockAgentServer, encodeStreamItem, manyEvents } from 'agent-console-kit/testing';

const burstEvents = 10_000;
/** A second, paced scenario: events 1 ms apart, each its own write (a server flushing per event). */
const pacedEvents = 1000;
const throughputEvents = 100_000;
const reactRounds = 3;
const throughputRounds = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function pause(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(condition: () => boolean) {
  while (!condition()) await pause(2);
}

function messageText(data: string): string {
  try {
    const payload = JSON.parse(data) as {
      messages?: { role?: string; content?: { type?: string; text?: string }[] }[];
    };
    let text = '';
    for (const message of payload.messages ?? []) {
      if (message.role === 'USER') continue;
      for (const block of message.content ?? []) {
        if (block.type === 'text' && typeof block.text === 'string') text += block.text;
      }
    }
    return text;
  } catch {
    return '';
  }
}

// ---- 1. React commits ----------------------------------------------------------------------

function HookRun({ agentId, onDone }: { agentId: string; onDone: () => void }) {
  const run = useAgentRunStream({ onDone });
  const { start } = run;
  useEffect(() => {
    void start({ agentId });
  }, [start, agentId]);
  return <p>{`${run.status} ${run.totalEvents} ${run.text.length}`}</p>;
}

/** What a first attempt often looks like: one setState per event. */
function useNaiveRunStream(client: AgentClient) {
  const [events, setEvents] = useState<EventSourceMessage[]>([]);
  const [text, setText] = useState('');
  const [status, setStatus] = useState('idle');
  const start = useCallback(
    async (agentId: string) => {
      setStatus('streaming');
      const prepared = await client.prepareRun({ agentId });
      await fetchEventSource(prepared.url, {
        method: 'POST',
        headers: prepared.headers,
        body: prepared.body,
        openWhenHidden: true,
        onmessage(message) {
          setEvents((previous) => [...previous, message]);
          const delta = messageText(message.data);
          setText((previous) => previous + delta);
        },
        onerror(error: unknown) {
          throw error;
        },
      });
      setStatus('done');
    },
    [client],
  );
  return { events, text, status, start };
}

function NaiveRun({
  client,
  agentId,
  onDone,
}: {
  client: AgentClient;
  agentId: string;
  onDone: () => void;
}) {
  const run = useNaiveRunStream(client);
  const { start } = run;
  useEffect(() => {
    void start(agentId).then(onDone);
  }, [start, agentId, onDone]);
  return <p>{`${run.status} ${run.events.length} ${run.text.length}`}</p>;
}

async function countCommits(
  variant: 'hook' | 'naive',
  client: AgentClient,
  agentId: string,
  events: number,
): Promise<{ commits: number; ms: number }> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  let commits = 0;
  let done = false;
  const onDone = () => {
    done = true;
  };
  const started = performance.now();
  root.render(
    <AgentClientProvider client={client}>
      <Profiler id={variant} onRender={() => commits++}>
        {variant === 'hook' ? (
          <HookRun agentId={agentId} onDone={onDone} />
        ) : (
          <NaiveRun client={client} agentId={agentId} onDone={onDone} />
        )}
      </Profiler>
    </AgentClientProvider>,
  );
  const expected = `done ${events} `;
  await until(() => done && (container.textContent ?? '').startsWith(expected));
  const ms = performance.now() - started;
  root.unmount();
  container.remove();
  return { commits, ms };
}

// ---- 2. Throughput on the same bytes --------------------------------------------------------

function streamBytes(count: number): Uint8Array[] {
  const items = manyEvents(count);
  let text = '';
  items.forEach((item, index) => {
    text += encodeStreamItem(item, index + 1);
  });
  const bytes = new TextEncoder().encode(text);
  const chunkSize = 64 * 1024;
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    chunks.push(bytes.subarray(offset, offset + chunkSize));
  }
  return chunks;
}

function inMemoryFetch(chunks: Uint8Array[]): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
}

async function timeRunStream(chunks: Uint8Array[]): Promise<number> {
  const client = createAgentClient({
    baseUrl: 'http://bench.invalid',
    fetch: inMemoryFetch(chunks),
  });
  const stream = createRunStream(client);
  let notifications = 0;
  stream.subscribe(() => notifications++);
  const started = performance.now();
  const final = await stream.start({ agentId: 'bench' });
  const ms = performance.now() - started;
  if (final.totalEvents !== throughputEvents || final.status !== 'done') {
    throw new Error(`RunStream saw ${final.totalEvents} events (${final.status})`);
  }
  return ms;
}

async function timeFetchEventSource(chunks: Uint8Array[], parse: boolean): Promise<number> {
  let count = 0;
  let characters = 0;
  const started = performance.now();
  await fetchEventSource('http://bench.invalid/rest/api/v1/agents/runs/stream', {
    method: 'POST',
    body: '{"agent_id":"bench"}',
    openWhenHidden: true,
    fetch: inMemoryFetch(chunks),
    onmessage(message) {
      count++;
      if (parse) characters += messageText(message.data).length;
    },
    onerror(error: unknown) {
      throw error;
    },
  });
  const ms = performance.now() - started;
  if (count !== throughputEvents) throw new Error(`fetch-event-source saw ${count} events`);
  return ms + characters * 0;
}

it('measures', async () => {
  const server = await createMockAgentServer({
    agents: [
      {
        agent: { agent_id: 'burst', name: 'Burst', capabilities: {} },
        run: { events: manyEvents(burstEvents) },
      },
      {
        agent: { agent_id: 'paced', name: 'Paced', capabilities: {} },
        run: { events: manyEvents(pacedEvents), delayMs: 1 },
      },
    ],
  });
  const client = createAgentClient({ baseUrl: server.url });
  const hook: { commits: number; ms: number }[] = [];
  const naive: { commits: number; ms: number }[] = [];
  let pacedHook = { commits: 0, ms: 0 };
  let pacedNaive = { commits: 0, ms: 0 };
  try {
    for (let round = 0; round < reactRounds; round++) {
      hook.push(await countCommits('hook', client, 'burst', burstEvents));
      naive.push(await countCommits('naive', client, 'burst', burstEvents));
    }
    pacedHook = await countCommits('hook', client, 'paced', pacedEvents);
    pacedNaive = await countCommits('naive', client, 'paced', pacedEvents);
  } finally {
    await server.close();
  }

  const chunks = streamBytes(throughputEvents);
  const byteCount = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  // warm-up
  await timeRunStream(chunks);
  await timeFetchEventSource(chunks, false);
  await timeFetchEventSource(chunks, true);
  const runStreamMs: number[] = [];
  const fesMs: number[] = [];
  const fesParseMs: number[] = [];
  for (let round = 0; round < throughputRounds; round++) {
    runStreamMs.push(await timeRunStream(chunks));
    fesMs.push(await timeFetchEventSource(chunks, false));
    fesParseMs.push(await timeFetchEventSource(chunks, true));
  }
  const perSecond = (ms: number) => Math.round((throughputEvents / ms) * 1000);

  const results = {
    node: process.version,
    react: {
      events: burstEvents,
      rounds: reactRounds,
      hookCommits: median(hook.map((entry) => entry.commits)),
      naiveCommits: median(naive.map((entry) => entry.commits)),
      hookCommitsEach: hook.map((entry) => entry.commits),
      naiveCommitsEach: naive.map((entry) => entry.commits),
      hookMs: Math.round(median(hook.map((entry) => entry.ms))),
      naiveMs: Math.round(median(naive.map((entry) => entry.ms))),
      pacedEvents,
      pacedHookCommits: pacedHook.commits,
      pacedNaiveCommits: pacedNaive.commits,
      pacedHookMs: Math.round(pacedHook.ms),
      pacedNaiveMs: Math.round(pacedNaive.ms),
    },
    throughput: {
      events: throughputEvents,
      bytes: byteCount,
      rounds: throughputRounds,
      runStreamPerSecond: perSecond(median(runStreamMs)),
      fetchEventSourcePerSecond: perSecond(median(fesMs)),
      fetchEventSourceWithJsonPerSecond: perSecond(median(fesParseMs)),
      ratio: Number((median(fesMs) / median(runStreamMs)).toFixed(2)),
      ratioWithJson: Number((median(fesParseMs) / median(runStreamMs)).toFixed(2)),
    },
  };
  const output = process.env['BENCH_OUTPUT'];
  if (output) writeFileSync(output, JSON.stringify(results, null, 2));
  else console.log(JSON.stringify(results, null, 2));
});
