/**
 * The mock service's durable runs, over raw HTTP on 127.0.0.1 with the clock driven by the test:
 * what the service documents (read-triggered expiry, paused runs that never expire, a fresh
 * deadline per continuation, the refusals of DURABLE, the respond rules) and what the msw handlers
 * answer from the same model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import {
  createMockAgentService,
  demoAgents,
  type MockAgentDefinition,
} from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';
import { setUpMockServer } from '../support/mock-server.js';

// Not on a whole second: the 201's created_at has milliseconds, later reads do not.
const start = Date.UTC(2026, 10, 25, 9, 0, 0) + 204;
const minute = 60_000;
const messages = [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }];

const marathon: MockAgentDefinition = {
  agent: { agent_id: 'marathon', name: 'Marathon', capabilities: {} },
  // longer than the 30-minute execution timeout: it never finishes by itself
  durable: { turns: [{ runningMs: 60 * minute, text: 'one two three' }] },
};
const relay: MockAgentDefinition = {
  agent: { agent_id: 'relay', name: 'Relay', capabilities: {} },
  durable: {
    outputPerTurn: true,
    turns: [
      { runningMs: 1000, text: 'Before. ', approvals: [{ arguments: { a: 1 } }] },
      { runningMs: 45 * minute, text: 'After.' },
    ],
  },
};
const strict: MockAgentDefinition = {
  agent: { agent_id: 'strict', name: 'Strict', capabilities: {} },
  durable: {
    onReject: 'fail',
    turns: [{ runningMs: 100, approvals: [{ arguments: {} }] }],
  },
};

const server = setUpMockServer({
  agents: [...demoAgents, marathon, relay, strict],
  now: () => start,
});

interface WireRun {
  run_id: string;
  state: string;
  pending_interactions: { interaction_id: string; expires_at?: string }[];
  output?: { messages: { content: { text: string }[] }[] };
  error?: { code: string; message: string };
  created_at: string;
}

async function call(
  path: string,
  body?: unknown,
  tokenValue = 'mock-durable-token',
): Promise<{ status: number; json: { run: WireRun } & Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${tokenValue}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as { run: WireRun } };
}

const startRun = (agentId: string, extra: Record<string, unknown> = {}) =>
  call(`/api/agents/${agentId}/runs`, {
    messages,
    stream: false,
    execution_mode: 'DURABLE',
    ...extra,
  });
const getRun = (agentId: string, runId: string, tokenValue?: string) =>
  call(`/api/agents/${agentId}/runs/${runId}`, undefined, tokenValue);
const textOf = (run: WireRun) =>
  (run.output?.messages ?? []).map((message) => message.content[0]?.text ?? '').join('|');

describe('the durable runs of the mock service', () => {
  it('applies the deadline only on a GET: an unread overdue run stays RUNNING', async () => {
    const { json } = await startRun('marathon');
    const runId = json.run.run_id;
    server.service.advance(35 * minute);
    expect((await getRun('marathon', runId)).json.run.state).toBe('RUNNING');
    server.service.advance(6 * minute);
    expect(server.service.durableRun(runId)?.state).toBe('RUNNING');
    const expired = (await getRun('marathon', runId)).json.run;
    expect(expired.state).toBe('FAILED');
    expect(expired.error?.code).toBe('execution_deadline_exceeded');
    // the worker stopped at the 30-minute execution timeout: the text stopped there
    expect(textOf(expired)).toBe('one ');
    expect(server.service.durableRun(runId)?.state).toBe('FAILED');
  });

  it('a paused run never expires; an accepted approval starts a fresh deadline', async () => {
    const runId = (await startRun('relay')).json.run.run_id;
    server.service.advance(1000);
    const paused = (await getRun('relay', runId)).json.run;
    expect(paused.state).toBe('REQUIRES_INPUT');
    expect(textOf(paused)).toBe('Before. ');
    server.service.advance(120 * minute);
    expect((await getRun('relay', runId)).json.run.state).toBe('REQUIRES_INPUT');
    const interactionId = paused.pending_interactions[0]?.interaction_id;
    const accepted = await call('/api/agents/relay/responses', {
      run_id: runId,
      responses: [{ interaction_id: interactionId, decision: 'APPROVE' }],
    });
    expect(accepted.status).toBe(200);
    // this agent's output is per turn: right after the decision it is empty
    expect(accepted.json.run).toMatchObject({ state: 'RUNNING', output: { messages: [] } });
    server.service.advance(39 * minute);
    expect((await getRun('relay', runId)).json.run.state).toBe('RUNNING');
    server.service.advance(2 * minute);
    expect((await getRun('relay', runId)).json.run.state).toBe('FAILED');
  });

  it('updated_at follows the output written while running', async () => {
    const first = (await startRun('durable-agent')).json.run as WireRun & { updated_at: string };
    expect(first.updated_at).toBe(new Date(start).toISOString());
    server.service.advance(3000);
    const halfway = (await getRun('durable-agent', first.run_id)).json.run as WireRun & {
      updated_at: string;
    };
    const at = Date.parse(halfway.updated_at);
    expect(at).toBeGreaterThan(start);
    expect(at).toBeLessThanOrEqual(start + 3000);
  });

  it('output only at the end for an at-end agent, QUEUED first', async () => {
    const first = (await startRun('quiet-durable-agent')).json.run;
    expect(first.state).toBe('QUEUED');
    server.service.advance(2000);
    const running = (await getRun('quiet-durable-agent', first.run_id)).json.run;
    expect(running.state).toBe('RUNNING');
    expect(running.output?.messages).toEqual([]);
    server.service.advance(2000);
    const done = (await getRun('quiet-durable-agent', first.run_id)).json.run;
    expect(done.state).toBe('SUCCEEDED');
    expect(textOf(done)).toBe('The report is done: nothing was shown before the end.');
    // created_at differs between the 201 and later reads, as seen on the service
    expect(first.created_at).not.toBe(done.created_at);
  });

  it('refuses stream: true and metadata.chat_session_id with DURABLE (400), starting nothing', async () => {
    const streamed = await startRun('durable-agent', { stream: true });
    expect(streamed.status).toBe(400);
    expect(streamed.json).toMatchObject({
      code: 'invalid_parameter',
      errors: [{ pointer: '/stream' }],
    });
    const session = await startRun('durable-agent', { metadata: { chat_session_id: 'c1' } });
    expect(session.status).toBe(400);
    expect(session.json).toMatchObject({
      errors: [{ pointer: '/metadata/chat_session_id' }],
    });
    expect(server.service.durableStats.runsStarted).toBe(0);
  });

  it('respond: 409 when not paused, for a stale or extra id; 400 for a malformed body; reject can fail the run', async () => {
    const runId = (await startRun('strict')).json.run.run_id;
    const respond = (responses: unknown) =>
      call('/api/agents/strict/responses', { run_id: runId, responses });
    expect((await respond([{ interaction_id: 'x', decision: 'APPROVE' }])).status).toBe(409);
    server.service.advance(100);
    const pending = (await getRun('strict', runId)).json.run.pending_interactions;
    const id = pending[0]?.interaction_id;
    expect(
      (
        await respond([
          { interaction_id: id, decision: 'APPROVE' },
          { interaction_id: 'extra', decision: 'APPROVE' },
        ])
      ).status,
    ).toBe(409);
    expect((await respond([{ interaction_id: id, decision: 'MAYBE' }])).status).toBe(400);
    const rejected = await respond([{ interaction_id: id, decision: 'REJECT' }]);
    expect(rejected.json.run).toMatchObject({ state: 'FAILED', error: { code: 'tool_rejected' } });
    // the identical accepted batch again: the current run, nothing more
    const again = await respond([{ interaction_id: id, decision: 'REJECT' }]);
    expect(again.status).toBe(200);
    expect(server.service.durableStats).toMatchObject({ responsesAccepted: 1, toolsExecuted: 0 });
  });

  it('a decision batch from an earlier pause is stale once the run paused again (409)', async () => {
    server.service.setAgent({
      agent: { agent_id: 'twice', name: 'Twice', capabilities: {} },
      durable: {
        turns: [
          { runningMs: 10, approvals: [{}] },
          { runningMs: 10, approvals: [{}] },
        ],
      },
    });
    const runId = (await startRun('twice')).json.run.run_id;
    server.service.advance(10);
    const first = (await getRun('twice', runId)).json.run.pending_interactions[0]?.interaction_id;
    const batch = { run_id: runId, responses: [{ interaction_id: first, decision: 'APPROVE' }] };
    expect((await call('/api/agents/twice/responses', batch)).status).toBe(200);
    server.service.advance(10);
    const second = (await getRun('twice', runId)).json.run;
    expect(second.state).toBe('REQUIRES_INPUT');
    expect(second.pending_interactions[0]?.interaction_id).not.toBe(first);
    expect((await call('/api/agents/twice/responses', batch)).status).toBe(409);
    expect(server.service.durableStats.toolsExecuted).toBe(1);
  });

  it('a run answers only the token that started it; reset() forgets runs but never reuses an id', async () => {
    const runId = (await startRun('durable-agent')).json.run.run_id;
    expect((await getRun('durable-agent', runId, 'someone-else-token')).status).toBe(404);
    expect(
      (
        await call(
          '/api/agents/durable-agent/cancellations',
          { run_id: runId },
          'someone-else-token',
        )
      ).status,
    ).toBe(404);
    expect((await getRun('durable-agent', runId)).status).toBe(200);
    server.reset();
    expect((await getRun('durable-agent', runId)).status).toBe(404);
    const next = (await startRun('durable-agent')).json.run.run_id;
    expect(next).not.toBe(runId);
  });
});

describe('the test controls over HTTP (for a browser test against the node server)', () => {
  it('moves the clock, reads the counters and a run, and is not recorded as a request', async () => {
    const runId = (await startRun('durable-agent')).json.run.run_id;
    const advanced = await fetch(`${server.url}/__clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 6000 }),
    });
    expect(await advanced.json()).toEqual({
      now: start + 6000,
      iso: new Date(start + 6000).toISOString(),
    });
    const state = (await (await fetch(`${server.url}/__runs/${runId}`)).json()) as {
      state: string;
    };
    expect(state).toMatchObject({ runId, agentId: 'durable-agent', state: 'SUCCEEDED', polls: 0 });
    const stats = (await (await fetch(`${server.url}/__stats`)).json()) as Record<string, unknown>;
    expect(stats).toMatchObject({ requests: 1, posts: 1, durable: { runsStarted: 1, polls: 0 } });
    expect((await fetch(`${server.url}/__runs/unknown`)).status).toBe(404);
    const refused = await fetch(`${server.url}/__clock`, {
      method: 'POST',
      body: JSON.stringify({ advanceMs: -1 }),
    });
    expect(refused.status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });
});

describe('the msw handlers answer durable runs from the same model', () => {
  const base = 'http://durable.mock.test';
  const service = createMockAgentService({ agents: demoAgents, now: () => start });
  const msw = setupServer(...mockAgentHandlers(service, { baseUrl: base }));
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => msw.close());

  it('start, pause, approve and finish through msw; the node server answers the same bytes', async () => {
    const post = (origin: string, path: string, body: unknown) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const started = [
      await post(base, '/api/agents/approval-agent/runs', { messages, execution_mode: 'DURABLE' }),
      await post(server.url, '/api/agents/approval-agent/runs', {
        messages,
        execution_mode: 'DURABLE',
      }),
    ];
    const [viaMsw, viaNode] = (await Promise.all(started.map((response) => response.json()))) as {
      run: WireRun;
    }[];
    expect(started.map((response) => response.status)).toEqual([201, 201]);
    expect({ ...viaMsw?.run, run_id: '' }).toEqual({ ...viaNode?.run, run_id: '' });
    service.advance(1500);
    const runId = viaMsw?.run.run_id ?? '';
    const paused = (await (
      await fetch(`${base}/api/agents/approval-agent/runs/${runId}`)
    ).json()) as {
      run: WireRun;
    };
    const interactionId = paused.run.pending_interactions[0]?.interaction_id;
    const accepted = await post(base, '/api/agents/approval-agent/responses', {
      run_id: runId,
      responses: [{ interaction_id: interactionId, decision: 'APPROVE' }],
    });
    expect(accepted.status).toBe(200);
    service.advance(1500);
    const done = (await (
      await fetch(`${base}/api/agents/approval-agent/runs/${runId}`)
    ).json()) as {
      run: WireRun;
    };
    expect(done.run.state).toBe('SUCCEEDED');
    expect(service.durableStats).toMatchObject({ runsStarted: 1, toolsExecuted: 1, polls: 2 });
  });
});
