import { Profiler, StrictMode, useState, type ReactNode } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  useAgentRunStream,
  type AgentClient,
  type RunSnapshot,
  type UseAgentRunStreamOptions,
  type UseAgentRunStreamResult,
} from 'agent-console-kit';
import { createRunStream } from 'agent-console-kit/core';
import { RunStream } from '../../src/core/stream/run-stream.js';
import {
  createMockAgentServer,
  manyEvents,
  textEvents,
  type MockAgentServer,
  type MockRunScenario,
} from 'agent-console-kit/testing';

let server: MockAgentServer | undefined;

async function serve(run: MockRunScenario) {
  server = await createMockAgentServer({
    agents: [{ agent: { agent_id: 'agent', name: 'Agent', capabilities: {} }, run }],
  });
  return server;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

function Wrapper({ client, children }: { client: AgentClient; children: ReactNode }) {
  return (
    <StrictMode>
      <AgentClientProvider client={client}>{children}</AgentClientProvider>
    </StrictMode>
  );
}

describe('given select, over a run of hundreds of events', () => {
  it('a component reading only status commits a handful of times; one reading text, many more', async () => {
    const mock = await serve({ events: manyEvents(300), delayMs: 1 });
    const client = createAgentClient({ baseUrl: mock.url });
    const stream = createRunStream(client);
    const commits = { status: 0, text: 0, whole: 0 };

    function StatusReader() {
      const { selected: status } = useAgentRunStream({ stream, select: (run) => run.status });
      return <p data-testid="status">{status}</p>;
    }
    function TextReader() {
      const { selected: text } = useAgentRunStream({ stream, select: (run) => run.text });
      return <output data-testid="text">{text}</output>;
    }
    function WholeReader() {
      const run = useAgentRunStream({ stream });
      return <p>{run.totalEvents}</p>;
    }

    render(
      <Wrapper client={client}>
        <Profiler id="status" onRender={() => commits.status++}>
          <StatusReader />
        </Profiler>
        <Profiler id="text" onRender={() => commits.text++}>
          <TextReader />
        </Profiler>
        <Profiler id="whole" onRender={() => commits.whole++}>
          <WholeReader />
        </Profiler>
      </Wrapper>,
    );
    const final = await act(() => stream.start({ agentId: 'agent' }));

    expect(final.totalEvents).toBe(300);
    expect(screen.getByTestId('status')).toHaveTextContent('done');
    expect(screen.getByTestId('text').textContent?.endsWith('299 300 ')).toBe(true);
    // mount, connecting, streaming, done (StrictMode double-invokes renders, not commits)
    expect(commits.status).toBeLessThanOrEqual(6);
    expect(commits.text).toBeGreaterThanOrEqual(10);
    expect(commits.text).toBeGreaterThan(commits.status * 2);
    expect(commits.whole).toBeGreaterThanOrEqual(commits.text);
  });

  it('re-renders only when isEqual says the slice changed', async () => {
    const mock = await serve({ events: manyEvents(200), delayMs: 1 });
    const client = createAgentClient({ baseUrl: mock.url });
    const stream = createRunStream(client);
    let commits = 0;
    const seen: { status: string; started: boolean }[] = [];

    function Slice() {
      const { selected } = useAgentRunStream({
        stream,
        // A new object on every call: isEqual keeps the one rendered last.
        select: (run) => ({ status: run.status, started: run.totalEvents > 0 }),
        isEqual: (previous, next) =>
          previous.status === next.status && previous.started === next.started,
      });
      seen.push(selected);
      return <p>{`${selected.status} ${selected.started}`}</p>;
    }

    render(
      <Wrapper client={client}>
        <Profiler id="slice" onRender={() => commits++}>
          <Slice />
        </Profiler>
      </Wrapper>,
    );
    await act(() => stream.start({ agentId: 'agent' }));

    expect(screen.getByText('done true')).toBeInTheDocument();
    expect(commits).toBeLessThanOrEqual(7);
  });
});

describe('given no select', () => {
  it('returns the same result object across renders while the snapshot does not change', () => {
    const client = createAgentClient({ baseUrl: 'http://127.0.0.1:9' });
    const results: UseAgentRunStreamResult[] = [];
    let rerender: () => void = () => undefined;

    function Panel() {
      const [, setCount] = useState(0);
      rerender = () => setCount((count) => count + 1);
      const run = useAgentRunStream();
      results.push(run);
      return <p>{run.status}</p>;
    }

    render(
      <Wrapper client={client}>
        <Panel />
      </Wrapper>,
    );
    const before = results.at(-1);
    act(() => rerender());

    expect(results.at(-1)).toBe(before);
    expect(before).toMatchObject({ status: 'idle', events: [], totalEvents: 0 });
    expect(typeof before?.start).toBe('function');
  });
});

describe('given options changed after mount (the hook owns its stream)', () => {
  it('applies them to the next start()', async () => {
    const mock = await serve({ events: textEvents('one two three four five', { chunks: 5 }) });
    const client = createAgentClient({ baseUrl: mock.url });

    function Panel({ maxEvents }: { maxEvents: number | undefined }) {
      const run = useAgentRunStream({ maxEvents });
      return (
        <>
          <button type="button" onClick={() => void run.start({ agentId: 'agent' })}>
            Run
          </button>
          <p data-testid="kept">{`${run.status} ${run.events.length}/${run.totalEvents}`}</p>
        </>
      );
    }

    const view = render(
      <Wrapper client={client}>
        <Panel maxEvents={undefined} />
      </Wrapper>,
    );
    view.rerender(
      <Wrapper client={client}>
        <Panel maxEvents={2} />
      </Wrapper>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));

    await waitFor(() => expect(screen.getByTestId('kept')).toHaveTextContent('done 2/5'));
  });

  it('passes every RunStream option through, also keys it does not know', () => {
    const client = createAgentClient({ baseUrl: 'http://127.0.0.1:9' });
    const setOptions = vi.spyOn(RunStream.prototype, 'setOptions');
    const options = { throttleMs: 7, futureOption: 'kept' } as UseAgentRunStreamOptions;

    function Panel() {
      useAgentRunStream({ ...options, onDone: () => undefined });
      return null;
    }
    render(
      <Wrapper client={client}>
        <Panel />
      </Wrapper>,
    );

    // The hook's own stream also lives only while something reads it.
    expect(setOptions).toHaveBeenLastCalledWith({
      throttleMs: 7,
      futureOption: 'kept',
      abortWhenUnobserved: true,
    });
  });
});

describe('given options with a shared stream', () => {
  it('warns once in development, naming each ignored option, and keeps the stream its own', async () => {
    const mock = await serve({ events: textEvents('a b c', { chunks: 3 }) });
    const client = createAgentClient({ baseUrl: mock.url });
    const stream = createRunStream(client);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    function Reader({ maxEvents }: { maxEvents: number }) {
      const run = useAgentRunStream({
        stream,
        maxEvents,
        select: (snapshot: RunSnapshot) => snapshot.events.length,
        onEvent: () => undefined,
      });
      return <p data-testid="kept">{run.selected}</p>;
    }

    const view = render(
      <Wrapper client={client}>
        <Reader maxEvents={1} />
      </Wrapper>,
    );
    view.rerender(
      <Wrapper client={client}>
        <Reader maxEvents={2} />
      </Wrapper>,
    );
    await act(() => stream.start({ agentId: 'agent' }));

    expect(screen.getByTestId('kept')).toHaveTextContent('3');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('`maxEvents`');
  });
});
