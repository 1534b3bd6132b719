/**
 * A tiny durable-run service on a real socket (node:http on 127.0.0.1) answering the wire shapes of
 * `agent-api.md` "Durable runs": start (201), read, cancel and respond. Tests drive each run's
 * state by hand (`server.runs`), and count what reached the service. It stands in until the
 * package's mock server has durable runs; it simulates no clock.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { onTestFinished } from 'vitest';

export interface WireInteraction {
  interaction_id: string;
  type: 'TOOL_APPROVAL';
  display_name: string;
  description: string;
  arguments: Record<string, unknown>;
}

export interface WireRun {
  run_id: string;
  agent_id: string;
  state: string;
  created_at: string;
  updated_at: string;
  pending_interactions: WireInteraction[];
  text: string;
  error?: { code: string; message: string };
  /** Set by a cancellation of an active run; the test decides how it ends. */
  cancelRequested: boolean;
  decisions: { interaction_id: string; decision: string }[][];
}

export interface DurableWireServer {
  url: string;
  runs: Map<string, WireRun>;
  counts: { starts: number; reads: number; cancels: number; responds: number };
  /** Each request's method, path and `Authorization` header, in order. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /**
   * How the next start POST is answered: `'201'`, `'hang'` (never), `'reset'` (socket destroyed),
   * `'hold'` (when the test calls `answerHeldStarts`).
   */
  startMode: '201' | 'hang' | 'reset' | 'hold';
  /**
   * Answers the start POSTs held so far: a 201 with a new run, a problem with this status, or
   * `'reset'` (the socket destroyed, no answer).
   */
  answerHeldStarts(answer: '201' | 'reset' | number): void;
  /** The state of a new run's 201. */
  acceptAs: string;
  /** Holds every read (never answered; closed with the server) while true. */
  holdReads: boolean;
  /** Resolves when a read has arrived (and, under `holdReads`, is held). */
  readArrived(): Promise<void>;
  /** Answers the next reads with this status instead (then back to normal), e.g. 503 or 429. */
  failReads: { status: number; times: number; retryAfter?: string };
  /** Answers responds with 503 this many times first (decisions not accepted). */
  failResponds: number;
  /** Answers cancels with 503 this many times first (nothing registered). */
  failCancels: number;
  /** Answers cancels with 409 (no cancellation registration). */
  cancelConflict: boolean;
  /** Sets a run's state (and text, pending approvals), touching `updated_at`. */
  set(
    runId: string,
    patch: Partial<Pick<WireRun, 'state' | 'text' | 'pending_interactions' | 'error'>>,
  ): void;
  /** Resolves when a start POST has arrived (its body read). */
  startArrived(): Promise<void>;
  close(): Promise<void>;
}

export async function serveDurableWire(): Promise<DurableWireServer> {
  let sequence = 0;
  let tick = 0;
  const stamp = () => new Date(Date.UTC(2026, 10, 25, 12, 0, 0, ++tick)).toISOString();
  const waitingForStart: (() => void)[] = [];
  const hanging: ServerResponse[] = [];
  const held: { response: ServerResponse; agentId: string }[] = [];
  const waitingForRead: (() => void)[] = [];

  const runJson = (run: WireRun) => ({
    run: {
      run_id: run.run_id,
      agent_id: run.agent_id,
      state: run.state,
      created_at: run.created_at,
      updated_at: run.updated_at,
      pending_interactions: run.pending_interactions,
      output: {
        messages:
          run.text === ''
            ? []
            : [{ role: 'GLEAN_AI', content: [{ type: 'text', text: run.text }] }],
      },
      ...(run.error ? { error: run.error } : {}),
    },
    request_id: `req-${++sequence}`,
  });
  const createRun = (agentId: string) => {
    const createdAt = stamp();
    const run: WireRun = {
      run_id: `run${(++sequence).toString().padStart(4, '0')}`,
      agent_id: agentId,
      state: state.acceptAs,
      created_at: createdAt,
      updated_at: createdAt,
      pending_interactions: [],
      text: '',
      cancelRequested: false,
      decisions: [],
    };
    state.runs.set(run.run_id, run);
    return run;
  };
  const send = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, {
      'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    });
    response.end(JSON.stringify(body));
  };
  const problem = (status: number, code: string) => ({ status, code, title: code });

  const readBody = (request: IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (text += chunk));
      request.on('end', () => {
        try {
          resolve(JSON.parse(text || '{}') as Record<string, unknown>);
        } catch {
          resolve({});
        }
      });
    });

  const state: DurableWireServer = {
    url: '',
    runs: new Map(),
    counts: { starts: 0, reads: 0, cancels: 0, responds: 0 },
    requests: [],
    startMode: '201',
    acceptAs: 'RUNNING',
    holdReads: false,
    readArrived: () => new Promise((resolve) => waitingForRead.push(resolve)),
    failReads: { status: 0, times: 0 },
    failResponds: 0,
    failCancels: 0,
    cancelConflict: false,
    set(runId, patch) {
      const run = state.runs.get(runId);
      if (run === undefined) throw new Error(`no run ${runId}`);
      Object.assign(run, patch, { updated_at: stamp() });
    },
    startArrived: () => new Promise((resolve) => waitingForStart.push(resolve)),
    answerHeldStarts(answer) {
      for (const { response, agentId } of held.splice(0)) {
        if (answer === 'reset') response.socket?.destroy();
        else if (answer === '201') send(response, 201, runJson(createRun(agentId)));
        else send(response, answer, problem(answer, 'refused'));
      }
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      for (const { response } of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      state.requests.push({
        method: request.method ?? '',
        path: url.pathname,
        authorization: request.headers.authorization,
      });
      const body = request.method === 'POST' ? await readBody(request) : {};
      const match = /^\/api\/agents\/([^/]+)\/(runs|cancellations|responses)(?:\/([^/]+))?$/.exec(
        url.pathname,
      );
      if (match === null) return send(response, 404, problem(404, 'not_found'));
      const [, agentId = '', route, runIdInPath] = match;
      if (route === 'runs' && request.method === 'POST') {
        state.counts.starts++;
        for (const resolve of waitingForStart.splice(0)) resolve();
        if (state.startMode === 'hang') {
          hanging.push(response);
          return;
        }
        if (state.startMode === 'reset') {
          request.socket.destroy();
          return;
        }
        if (state.startMode === 'hold') {
          held.push({ response, agentId });
          return;
        }
        return send(response, 201, runJson(createRun(agentId)));
      }
      const runId = route === 'runs' ? runIdInPath : (body['run_id'] as string | undefined);
      const run = runId === undefined ? undefined : state.runs.get(runId);
      if (route === 'runs') {
        state.counts.reads++;
        for (const resolve of waitingForRead.splice(0)) resolve();
        if (state.holdReads) {
          hanging.push(response);
          return;
        }
        if (state.failReads.times > 0) {
          state.failReads.times--;
          const headers: Record<string, string> =
            state.failReads.retryAfter === undefined
              ? {}
              : { 'retry-after': state.failReads.retryAfter };
          return send(
            response,
            state.failReads.status,
            problem(state.failReads.status, 'fault'),
            headers,
          );
        }
      }
      if (route === 'cancellations') state.counts.cancels++;
      if (route === 'responses') state.counts.responds++;
      if (run === undefined || run.agent_id !== agentId)
        return send(response, 404, problem(404, 'not_found'));
      if (route === 'runs') return send(response, 200, runJson(run));
      if (route === 'cancellations') {
        if (state.failCancels > 0) {
          state.failCancels--;
          return send(response, 503, problem(503, 'unavailable'));
        }
        if (state.cancelConflict) return send(response, 409, problem(409, 'conflict'));
        if (run.state === 'REQUIRES_INPUT') {
          Object.assign(run, { state: 'CANCELLED', pending_interactions: [], updated_at: stamp() });
        } else if (run.state === 'RUNNING' || run.state === 'QUEUED') {
          run.cancelRequested = true;
        }
        return send(response, 200, runJson(run));
      }
      // responses
      if (state.failResponds > 0) {
        state.failResponds--;
        return send(response, 503, problem(503, 'unavailable'));
      }
      const responses = (body['responses'] ?? []) as { interaction_id: string; decision: string }[];
      const pending = run.pending_interactions.map((item) => item.interaction_id).sort();
      const answered = responses.map((item) => item.interaction_id).sort();
      if (run.state !== 'REQUIRES_INPUT' || JSON.stringify(pending) !== JSON.stringify(answered)) {
        return send(response, 409, problem(409, 'conflict'));
      }
      run.decisions.push(responses);
      Object.assign(run, {
        state: 'RUNNING',
        pending_interactions: [],
        text: '',
        updated_at: stamp(),
      });
      return send(response, 200, runJson(run));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  state.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  return state;
}

/** A durable-run service for the current test only; it closes when the test ends. */
export async function serveDurableWireForTest(): Promise<DurableWireServer> {
  const server = await serveDurableWire();
  onTestFinished(() => server.close());
  return server;
}

/** One approval, as the service sends it. */
export function approval(id: string, name = 'Send Slack message'): WireInteraction {
  return {
    interaction_id: id,
    type: 'TOOL_APPROVAL',
    display_name: name,
    description: `${name} to the current user.`,
    arguments: { message: 'hello' },
  };
}
