import { Profiler, StrictMode, useEffect, useState, type ReactNode } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentClientProvider,
  createAgentClient,
  useAgentRunStream,
  type AgentClient,
  type RunEvent,
  type RunStatus,
  type UseAgentRunStreamOptions,
  type UseAgentRunStreamResult,
} from 'agent-console-kit';
import { createRunStream, type RunStream } from 'agent-console-kit/core';
import { manyEvents, textEvents } from 'agent-console-kit/testing';
import { serve } from '../support/mock-server.js';

function Wrapper({ client, children }: { client: AgentClient; children: ReactNode }) {
  return (
    <StrictMode>
      <AgentClientProvider client={client}>{children}</AgentClientProvider>
    </StrictMode>
  );
}

function RunPanel(props: UseAgentRunStreamOptions) {
  const run = useAgentRunStream(props);
  return (
    <div>
      <button type="button" onClick={() => void run.start({ agentId: 'agent' })}>
        Run
      </button>
      <button type="button" onClick={run.abort}>
        Stop
      </button>
      <p data-testid="status">{run.status}</p>
      <p data-testid="total">{run.totalEvents}</p>
      <output data-testid="text">{run.text}</output>
    </div>
  );
}

describe('given <StrictMode>', () => {
  it('mounting sends nothing, and each start() sends exactly one POST', async () => {
    const mock = await serve({ events: textEvents('Hello from the agent') });
    const client = createAgentClient({ baseUrl: mock.url });
    render(
      <Wrapper client={client}>
        <RunPanel />
      </Wrapper>,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mock.postCount()).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('done'));

    expect(screen.getByTestId('text')).toHaveTextContent('Hello from the agent');
    expect(mock.postCount()).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(mock.postCount()).toBe(2));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('done'));
    expect(mock.postCount()).toBe(2);
  });

  it('a start() in a mount effect (run twice by StrictMode) sends one POST', async () => {
    const mock = await serve({ events: textEvents('auto run') });
    const client = createAgentClient({ baseUrl: mock.url });

    function AutoRun() {
      const run = useAgentRunStream();
      const { start } = run;
      useEffect(() => {
        void start({ agentId: 'agent' });
      }, [start]);
      return <p data-testid="auto">{`${run.status}: ${run.text}`}</p>;
    }

    render(
      <Wrapper client={client}>
        <AutoRun />
      </Wrapper>,
    );

    await waitFor(() => expect(screen.getByTestId('auto')).toHaveTextContent('done: auto run'));
    expect(mock.postCount()).toBe(1);
  });

  it("a start() in a child's mount effect sends one POST and runs to the end", async () => {
    const mock = await serve({ events: textEvents('child started it') });
    const client = createAgentClient({ baseUrl: mock.url });

    function Starter({ start }: { start: UseAgentRunStreamResult['start'] }) {
      useEffect(() => {
        void start({ agentId: 'agent' });
      }, [start]);
      return null;
    }
    function Parent() {
      const run = useAgentRunStream();
      return (
        <>
          <Starter start={run.start} />
          <p data-testid="parent">{`${run.status}: ${run.text}`}</p>
        </>
      );
    }

    render(
      <Wrapper client={client}>
        <Parent />
      </Wrapper>,
    );

    await waitFor(() =>
      expect(screen.getByTestId('parent')).toHaveTextContent('done: child started it'),
    );
    expect(mock.postCount()).toBe(1);
  });

  it('a run started after mount survives (the StrictMode remount happened before it)', async () => {
    const mock = await serve({ events: textEvents('one two three'), delayMs: 10 });
    const client = createAgentClient({ baseUrl: mock.url });
    const statuses: RunStatus[] = [];
    render(
      <Wrapper client={client}>
        <RunPanel onStatusChange={(status) => statuses.push(status)} />
      </Wrapper>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('done'));

    expect(statuses).toEqual(['connecting', 'streaming', 'done']);
    expect(mock.runRequests()[0]?.completed).toBe(true);
  });
});

describe('given an unmount mid-stream', () => {
  it('aborts the run the hook owns: the server sees the stream close; no callback after', async () => {
    const mock = await serve({
      events: textEvents('a b c d e f g h'),
      delayMs: 15,
      neverEnd: true,
    });
    const client = createAgentClient({ baseUrl: mock.url });
    const onStatusChange = vi.fn();
    const onEvent = vi.fn();
    const report = vi.spyOn(console, 'error');
    const view = render(
      <Wrapper client={client}>
        <RunPanel onStatusChange={onStatusChange} onEvent={onEvent} />
      </Wrapper>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(Number(screen.getByTestId('total').textContent)).toBeGreaterThan(1));
    const callsBefore = onStatusChange.mock.calls.length + onEvent.mock.calls.length;

    view.unmount();

    await mock.waitFor(() => mock.openStreams === 0);
    expect(mock.runRequests()[0]?.closedByClient).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onStatusChange.mock.calls.length + onEvent.mock.calls.length).toBe(callsBefore);
    expect(onStatusChange).not.toHaveBeenCalledWith('aborted', expect.anything());
    expect(mock.postCount()).toBe(1);
    expect(report).not.toHaveBeenCalled();
    report.mockRestore();
  });
});

describe('given start() called after unmount (a stale closure)', () => {
  it('sends nothing', async () => {
    const mock = await serve({ events: textEvents('too late') });
    const client = createAgentClient({ baseUrl: mock.url });
    let start: UseAgentRunStreamResult['start'] | undefined;

    function Keeper() {
      start = useAgentRunStream().start;
      return null;
    }

    const view = render(
      <Wrapper client={client}>
        <Keeper />
      </Wrapper>,
    );
    view.unmount();

    const snapshot = await start?.({ agentId: 'agent' });

    expect(snapshot?.status).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(mock.postCount()).toBe(0);
  });
});

describe('given new inline callbacks on every render', () => {
  it('restarts nothing and calls the newest callback', async () => {
    const mock = await serve({ events: textEvents('a b c d e f'), delayMs: 15 });
    const client = createAgentClient({ baseUrl: mock.url });
    const calls: string[] = [];
    let rerender: () => void = () => undefined;

    function Parent() {
      const [generation, setGeneration] = useState(0);
      rerender = () => setGeneration((value) => value + 1);
      return (
        <RunPanel onEvent={(event: RunEvent) => calls.push(`render ${generation}: ${event.id}`)} />
      );
    }

    render(
      <Wrapper client={client}>
        <Parent />
      </Wrapper>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(1));
    act(() => rerender());
    act(() => rerender());
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('done'));

    expect(mock.postCount()).toBe(1);
    expect(calls).toHaveLength(6);
    expect(calls.at(-1)).toBe('render 2: 6');
  });

  it('keeps start, abort, reset and stream identities stable across renders', async () => {
    const mock = await serve({ events: textEvents('a b') });
    const client = createAgentClient({ baseUrl: mock.url });
    const results: UseAgentRunStreamResult[] = [];
    let rerender: () => void = () => undefined;

    function Probe() {
      const [, setCount] = useState(0);
      rerender = () => setCount((value) => value + 1);
      results.push(useAgentRunStream({ onEvent: () => undefined }));
      return null;
    }

    render(
      <Wrapper client={client}>
        <Probe />
      </Wrapper>,
    );
    act(() => rerender());
    await act(() => results.at(-1)?.start({ agentId: 'agent' }));

    const first = results[0];
    const last = results.at(-1);
    expect(last?.status).toBe('done');
    expect(last?.start).toBe(first?.start);
    expect(last?.abort).toBe(first?.abort);
    expect(last?.reset).toBe(first?.reset);
    expect(last?.stream).toBe(first?.stream);
  });
});

describe('given a stream shared between components', () => {
  it('the hook does not own it: unmounting a reader does not abort the run', async () => {
    const mock = await serve({ events: textEvents('shared run text'), delayMs: 15 });
    const client = createAgentClient({ baseUrl: mock.url });
    const stream: RunStream = createRunStream(client);

    function Reader() {
      const run = useAgentRunStream({ stream });
      return <p data-testid="reader">{run.text}</p>;
    }

    const view = render(
      <Wrapper client={client}>
        <Reader />
      </Wrapper>,
    );
    const done = stream.start({ agentId: 'agent' });
    await waitFor(() => expect(screen.getByTestId('reader')).not.toBeEmptyDOMElement());

    view.unmount();

    await expect(done).resolves.toMatchObject({ status: 'done', text: 'shared run text' });
    expect(mock.runRequests()[0]?.completed).toBe(true);
  });

  it('two components see the same run, and one POST', async () => {
    const mock = await serve({ events: textEvents('both see this') });
    const client = createAgentClient({ baseUrl: mock.url });

    function Owner() {
      const run = useAgentRunStream();
      return (
        <>
          <button type="button" onClick={() => void run.start({ agentId: 'agent' })}>
            Run
          </button>
          <Reader stream={run.stream} />
        </>
      );
    }
    function Reader({ stream }: { stream: RunStream }) {
      const run = useAgentRunStream({ stream });
      return <p data-testid="reader">{`${run.status}: ${run.text}`}</p>;
    }

    render(
      <Wrapper client={client}>
        <Owner />
      </Wrapper>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));

    await waitFor(() =>
      expect(screen.getByTestId('reader')).toHaveTextContent('done: both see this'),
    );
    expect(mock.postCount()).toBe(1);
  });
});

describe('given 10,000 events in one burst', () => {
  it('commits a handful of times, not once per event, and shows every event at the end', async () => {
    const mock = await serve({ events: manyEvents(10_000) });
    const client = createAgentClient({ baseUrl: mock.url });
    const report = vi.spyOn(console, 'error');
    let commits = 0;
    render(
      <Wrapper client={client}>
        <Profiler id="run" onRender={() => commits++}>
          <RunPanel />
        </Profiler>
      </Wrapper>,
    );
    const commitsAtMount = commits;

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('done'));

    expect(screen.getByTestId('total')).toHaveTextContent('10000');
    expect(screen.getByTestId('text').textContent?.endsWith('9999 10000 ')).toBe(true);
    expect(commits - commitsAtMount).toBeLessThanOrEqual(30);
    expect(report).not.toHaveBeenCalled();
    report.mockRestore();
  });
});

describe('given a client passed in the options', () => {
  it('needs no provider', async () => {
    const mock = await serve({ events: textEvents('no provider') });
    render(
      <StrictMode>
        <RunPanel client={createAgentClient({ baseUrl: mock.url })} />
      </StrictMode>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));

    await waitFor(() => expect(screen.getByTestId('text')).toHaveTextContent('no provider'));
  });

  it('without a client, a provider or a stream, it names the fix', () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<RunPanel />)).toThrow(/AgentClientProvider/);
    report.mockRestore();
  });
});

describe('given the Stop button', () => {
  it('aborts and shows aborted', async () => {
    const mock = await serve({ events: textEvents('a b c d'), delayMs: 20, neverEnd: true });
    const client = createAgentClient({ baseUrl: mock.url });
    render(
      <Wrapper client={client}>
        <RunPanel />
      </Wrapper>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('streaming'));

    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));

    expect(screen.getByTestId('status')).toHaveTextContent('aborted');
    await mock.waitFor(() => mock.openStreams === 0);
    expect(mock.runRequests()[0]?.closedByClient).toBe(true);
  });
});
