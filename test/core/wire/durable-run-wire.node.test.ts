/**
 * The client's durable run methods against the mock server on 127.0.0.1 (its clock driven by the
 * test), counting what reached the service: one POST per start and never a second, nothing sent
 * on a rest-v1 client or for a batch that cannot be, typed errors for every refusal.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AgentHttpError, AgentInputError, createAgentClient } from 'agent-console-kit';
import {
  AgentApprovalConflictError,
  AgentCancelUnavailableError,
  AgentDurableUnavailableError,
  AgentRedirectError,
  AgentRunMismatchError,
  AgentRunNotFoundError,
  AgentStartUnknownError,
  AgentUnsupportedError,
  type AgentMessage,
} from 'agent-console-kit/core';
import type { DurableToolApproval } from '../../../src/core/wire/durable-run-schemas.js';
import { demoAgents, type MockAgentDefinition } from 'agent-console-kit/testing';
import { serveForTest, setUpMockServer } from '../../support/mock-server.js';

const start = Date.UTC(2026, 10, 25, 9, 0, 0);
const token = 'durable-token-4d2c9';
const messages: AgentMessage[] = [{ role: 'USER', content: [{ type: 'text', text: 'Report' }] }];

const stubborn: MockAgentDefinition = {
  agent: { agent_id: 'stubborn', name: 'Stubborn', capabilities: {} },
  durable: { turns: [{ runningMs: 10_000 }], cancel: { registration: false } },
};
const fragile: MockAgentDefinition = {
  agent: { agent_id: 'fragile', name: 'Fragile', capabilities: {} },
  durable: {
    turns: [{ runningMs: 100, approvals: [{ arguments: { id: 1 } }] }],
    respondFaults: ['503-once'],
  },
};

const server = setUpMockServer({ agents: [...demoAgents, stubborn, fragile], now: () => start });

function client(options: { token?: string; api?: 'platform' | 'rest-v1' } = {}) {
  return createAgentClient({
    baseUrl: server.url,
    api: options.api ?? 'platform',
    token: options.token ?? token,
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const durableRequests = () =>
  server.requests.filter((record) => record.endpoint?.startsWith('durable') === true);

describe('startDurableRun', () => {
  it('sends one POST with stream false and DURABLE, and reads the 201 run', async () => {
    const run = await client().startDurableRun('durable-agent', { messages });
    expect(run).toMatchObject({
      agentId: 'durable-agent',
      state: 'RUNNING',
      serverState: 'RUNNING',
      status: 201,
      pendingInteractions: [],
      error: undefined,
    });
    expect(run.runId).toMatch(/^[0-9a-f]{32}$/);
    expect(run.requestId).toMatch(/^req_mock_/);
    expect(run.createdAt).toBe(new Date(start).toISOString());
    expect(server.requests).toHaveLength(1);
    const [record] = server.requests;
    expect(record).toMatchObject({ method: 'POST', path: '/api/agents/durable-agent/runs' });
    expect(record?.body).toEqual({ messages, stream: false, execution_mode: 'DURABLE' });
    expect(record?.headers['accept']).toBe('application/json');
    expect(record?.tokenFingerprint).toBe(token.slice(-4));
    expect(server.service.durableStats.runsStarted).toBe(1);
  });

  it('refuses metadata.chat_session_id and an empty request before sending anything', async () => {
    const refused = await rejectionOf(
      client().startDurableRun('durable-agent', { messages, metadata: { chat_session_id: 'c' } }),
    );
    expect(refused).toBeInstanceOf(AgentInputError);
    expect(await rejectionOf(client().startDurableRun('durable-agent', {}))).toBeInstanceOf(
      AgentInputError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a gateway 502 on start: outcome unknown, not retryable, sent once', async () => {
    server.inject('durable-agent', { endpoint: 'run', status: 502, times: 1 });
    const error = await rejectionOf(client().startDurableRun('durable-agent', { messages }));
    expect(error).toBeInstanceOf(AgentStartUnknownError);
    expect(error).toMatchObject({ reason: 'gateway', status: 502, retryable: false });
    expect(server.postCount('durable-agent')).toBe(1);
  });

  it('a 201 whose body names no run: the run exists, its id is unknown (never re-sent)', async () => {
    server.inject('durable-agent', {
      endpoint: 'run',
      status: 201,
      times: 1,
      body: '<html>created</html>',
    });
    const error = await rejectionOf(client().startDurableRun('durable-agent', { messages }));
    expect(error).toBeInstanceOf(AgentStartUnknownError);
    expect(error).toMatchObject({ reason: 'unreadable', status: 201, retryable: false });
    expect(server.postCount('durable-agent')).toBe(1);
  });

  it('a 201 about another agent is a mismatch, not a run', async () => {
    server.inject('durable-agent', {
      endpoint: 'run',
      status: 201,
      times: 1,
      body: {
        run: {
          run_id: 'r1',
          agent_id: 'someone-else',
          state: 'RUNNING',
          created_at: 'x',
          updated_at: 'x',
          pending_interactions: [],
        },
        request_id: 'q',
      },
    });
    const error = await rejectionOf(client().startDurableRun('durable-agent', { messages }));
    expect(error).toBeInstanceOf(AgentRunMismatchError);
  });
});

describe('a connection that fails after the start was sent', () => {
  /** A server that takes the request and then destroys the socket, or never answers. */
  async function brokenServer(how: 'destroy' | 'hang') {
    const received: IncomingMessage[] = [];
    const http = createServer((request) => {
      received.push(request);
      if (how === 'destroy') request.socket.destroy();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    return {
      url,
      received,
      close: () =>
        new Promise<void>((resolve) => {
          http.closeAllConnections();
          http.close(() => resolve());
        }),
    };
  }

  it('a reset after sending is AgentStartUnknownError (network), and nothing is sent again', async () => {
    const broken = await brokenServer('destroy');
    try {
      const durable = createAgentClient({ baseUrl: broken.url, api: 'platform', token });
      const error = await rejectionOf(durable.startDurableRun('a', { messages }));
      expect(error).toBeInstanceOf(AgentStartUnknownError);
      expect(error).toMatchObject({ reason: 'network', retryable: false });
      expect(String((error as Error).message)).not.toContain(token);
      expect(broken.received).toHaveLength(1);
    } finally {
      await broken.close();
    }
  });

  it('an abort after sending is AgentStartUnknownError (aborted); an abort before, an AbortError with nothing sent', async () => {
    const broken = await brokenServer('hang');
    try {
      const durable = createAgentClient({ baseUrl: broken.url, api: 'platform', token });
      const controller = new AbortController();
      const pending = rejectionOf(
        durable.startDurableRun('a', { messages }, { signal: controller.signal }),
      );
      await new Promise<void>((resolve) => {
        const check = () => (broken.received.length > 0 ? resolve() : setTimeout(check, 5));
        check();
      });
      controller.abort();
      const error = await pending;
      expect(error).toBeInstanceOf(AgentStartUnknownError);
      expect(error).toMatchObject({ reason: 'aborted' });

      const before = await rejectionOf(
        durable.startDurableRun('a', { messages }, { signal: AbortSignal.abort() }),
      );
      expect(before).toMatchObject({ name: 'AbortError' });
      expect(broken.received).toHaveLength(1);
    } finally {
      await broken.close();
    }
  });
});

describe('getDurableRun', () => {
  it('reads the output while running (replaced, not appended), then the final run', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('durable-agent', { messages });
    server.service.advance(3000);
    const halfway = await durable.getDurableRun('durable-agent', runId);
    expect(halfway.state).toBe('RUNNING');
    expect(halfway.output.text.length).toBeGreaterThan(0);
    expect(halfway.output.text).toMatch(/^Collecting the sources\./);
    server.service.advance(3000);
    const done = await durable.getDurableRun('durable-agent', runId);
    expect(done.state).toBe('SUCCEEDED');
    expect(done.output.text).toMatch(/^Collecting the sources\..*ready for review\.$/);
    expect(done.output.text.startsWith(halfway.output.text)).toBe(true);
    expect(done.output.messages).toHaveLength(1);
    expect(server.service.durableStats.polls).toBe(2);
    expect(durableRequests().map((record) => record.path)).toEqual([
      `/api/agents/durable-agent/runs/${runId}`,
      `/api/agents/durable-agent/runs/${runId}`,
    ]);
  });

  it('404 for an unknown run, another token’s run and another agent’s run', async () => {
    const { runId } = await client().startDurableRun('durable-agent', { messages });
    for (const call of [
      client().getDurableRun('durable-agent', 'f'.repeat(32)),
      client({ token: 'another-token-88' }).getDurableRun('durable-agent', runId),
      client().getDurableRun('chat-agent', runId),
    ]) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(AgentRunNotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'resource_not_found' });
    }
    expect(server.service.durableStats.polls).toBe(3);
  });

  it('keeps an unknown state and an unknown interaction kind, flagged and read-only', async () => {
    server.inject('durable-agent', {
      endpoint: 'durable-run',
      status: 200,
      times: 1,
      body: {
        run: {
          run_id: 'r1',
          agent_id: 'durable-agent',
          state: 'PAUSED_FOR_REVIEW',
          created_at: '2026-11-25T09:00:00Z',
          updated_at: '2026-11-25T09:00:01Z',
          pending_interactions: [
            { interaction_id: 'form_1', type: 'FORM_INPUT', fields: ['a'] },
            { interaction_id: 'call_1', type: 'TOOL_APPROVAL' },
          ],
          future_field: true,
        },
        request_id: 'q',
      },
    });
    const run = await client().getDurableRun('durable-agent', 'r1');
    expect(run.state).toBe('unknown');
    expect(run.serverState).toBe('PAUSED_FOR_REVIEW');
    expect(run.pendingInteractions).toEqual([
      {
        kind: 'unknown',
        interactionId: 'form_1',
        type: 'FORM_INPUT',
        raw: { interaction_id: 'form_1', type: 'FORM_INPUT', fields: ['a'] },
      },
      // an approval without its required fields is not one to decide on
      {
        kind: 'unknown',
        interactionId: 'call_1',
        type: 'TOOL_APPROVAL',
        raw: { interaction_id: 'call_1', type: 'TOOL_APPROVAL' },
      },
    ]);
  });

  it('a run other than the one asked for is AgentRunMismatchError', async () => {
    server.inject('durable-agent', {
      endpoint: 'durable-run',
      status: 200,
      times: 1,
      body: {
        run: {
          run_id: 'someone-elses',
          agent_id: 'durable-agent',
          state: 'SUCCEEDED',
          created_at: 'x',
          updated_at: 'x',
          pending_interactions: [],
        },
        request_id: 'q',
      },
    });
    const error = await rejectionOf(client().getDurableRun('durable-agent', 'mine'));
    expect(error).toBeInstanceOf(AgentRunMismatchError);
    expect((error as AgentRunMismatchError).issues.map((issue) => issue.path)).toEqual([
      'run.run_id',
    ]);
  });

  it('a body without pending_interactions is a validation error', async () => {
    server.inject('durable-agent', {
      endpoint: 'durable-run',
      status: 200,
      times: 1,
      body: {
        run: {
          run_id: 'r1',
          agent_id: 'durable-agent',
          state: 'RUNNING',
          created_at: 'x',
          updated_at: 'x',
        },
      },
    });
    const error = await rejectionOf(client().getDurableRun('durable-agent', 'r1'));
    expect(error).toMatchObject({ kind: 'validation' });
  });

  it('a token echoed in arguments never reaches the record, escaped or not', async () => {
    const escaped = `\\u0064${token.slice(1)}`;
    server.inject('durable-agent', {
      endpoint: 'durable-run',
      status: 200,
      times: 1,
      contentType: 'application/json',
      body: `{"run":{"run_id":"r1","agent_id":"durable-agent","state":"REQUIRES_INPUT","created_at":"x","updated_at":"x","pending_interactions":[{"interaction_id":"c1","type":"TOOL_APPROVAL","display_name":"Echo ${token}","description":"d","arguments":{"plain":"${token}","escaped":"${escaped}"}}]},"request_id":"q"}`,
    });
    const run = await client().getDurableRun('durable-agent', 'r1');
    const approval = run.pendingInteractions[0] as DurableToolApproval;
    expect(JSON.stringify(run)).not.toContain(token);
    expect(approval.argumentsText).not.toContain(token);
    expect(approval.argumentsText).not.toContain(escaped);
    expect(approval.displayName).toBe('Echo [redacted]');
  });

  it('goes through the redirect guard: a redirect to another origin is not followed', async () => {
    server.inject('durable-agent', {
      endpoint: 'durable-run',
      status: 307,
      times: 1,
      headers: { Location: 'http://elsewhere.invalid/api/agents/durable-agent/runs/r1' },
    });
    const error = await rejectionOf(client().getDurableRun('durable-agent', 'r1'));
    expect(error).toBeInstanceOf(AgentRedirectError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('respondToDurableRun', () => {
  it('approves one call: the body names it, the tool runs once, an identical retry is no second continuation', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('approval-agent', { messages });
    server.service.advance(1500);
    const paused = await durable.getDurableRun('approval-agent', runId);
    expect(paused.state).toBe('REQUIRES_INPUT');
    const [approval] = paused.pendingInteractions;
    expect(approval).toMatchObject({
      kind: 'tool-approval',
      displayName: 'Send Slack message to user',
      toolId: '9f2b6c1d4e8a4b7c9d0e1f2a3b4c5d6e',
      arguments: { message: 'The weekly report is ready for review.' },
      argumentsText: '{"message":"The weekly report is ready for review."}',
      argumentsPrecisionLost: false,
      expiresAt: undefined,
    });
    const decisions = [
      { interactionId: approval?.interactionId ?? '', decision: 'APPROVE' as const },
    ];
    const accepted = await durable.respondToDurableRun('approval-agent', runId, decisions);
    expect(accepted).toMatchObject({ state: 'RUNNING', pendingInteractions: [] });
    expect(server.requests.at(-1)?.body).toEqual({
      run_id: runId,
      responses: [{ interaction_id: approval?.interactionId, decision: 'APPROVE' }],
    });
    const again = await durable.respondToDurableRun('approval-agent', runId, decisions);
    expect(again.state).toBe('RUNNING');
    expect(server.service.durableStats).toMatchObject({ toolsExecuted: 1, responsesAccepted: 1 });
    server.service.advance(1500);
    const done = await durable.getDurableRun('approval-agent', runId);
    expect(done.state).toBe('SUCCEEDED');
    expect(done.output.text).toContain('Sent your Slack message.');
  });

  it('a batch of two: raw text of a large integer, a deadline, 409 for a partial batch and after the deadline', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('batch-approval-agent', { messages });
    server.service.advance(1500);
    const paused = await durable.getDurableRun('batch-approval-agent', runId);
    const [jira, email] = paused.pendingInteractions as DurableToolApproval[];
    expect(jira?.argumentsText).toContain('"parent_id":90071992547409931');
    expect(jira?.argumentsPrecisionLost).toBe(true);
    expect(String(jira?.arguments['parent_id'])).not.toBe('90071992547409931');
    expect(email?.expiresAt).toBe(new Date(start + 1500 + 10 * 60_000).toISOString());
    expect(email?.argumentsPrecisionLost).toBe(false);

    const partial = await rejectionOf(
      durable.respondToDurableRun('batch-approval-agent', runId, [
        { interactionId: jira?.interactionId ?? '', decision: 'APPROVE' },
      ]),
    );
    expect(partial).toBeInstanceOf(AgentApprovalConflictError);
    expect(partial).toMatchObject({ status: 409, code: 'conflict', retryable: false });

    server.service.advance(10 * 60_000);
    const late = await rejectionOf(
      durable.respondToDurableRun('batch-approval-agent', runId, [
        { interactionId: jira?.interactionId ?? '', decision: 'APPROVE' },
        { interactionId: email?.interactionId ?? '', decision: 'REJECT' },
      ]),
    );
    expect(late).toBeInstanceOf(AgentApprovalConflictError);
    expect(server.service.durableStats.toolsExecuted).toBe(0);
  });

  it('503 accepts nothing; the same batch again is accepted', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('fragile', { messages });
    server.service.advance(100);
    const paused = await durable.getDurableRun('fragile', runId);
    const decisions = paused.pendingInteractions.map((interaction) => ({
      interactionId: interaction.interactionId ?? '',
      decision: 'APPROVE' as const,
    }));
    const unavailable = await rejectionOf(durable.respondToDurableRun('fragile', runId, decisions));
    expect(unavailable).toBeInstanceOf(AgentHttpError);
    expect(unavailable).toMatchObject({ status: 503, retryable: true });
    expect(server.service.durableStats.toolsExecuted).toBe(0);
    const accepted = await durable.respondToDurableRun('fragile', runId, decisions);
    expect(accepted.state).toBe('RUNNING');
    expect(server.service.durableStats.toolsExecuted).toBe(1);
  });

  it('refuses an empty batch, a repeated id or an unknown decision without sending', async () => {
    const durable = client();
    for (const decisions of [
      [],
      [
        { interactionId: 'a', decision: 'APPROVE' as const },
        { interactionId: 'a', decision: 'REJECT' as const },
      ],
      [{ interactionId: 'a', decision: 'MAYBE' as 'APPROVE' }],
      [{ interactionId: '', decision: 'APPROVE' as const }],
    ]) {
      expect(
        await rejectionOf(durable.respondToDurableRun('approval-agent', 'r', decisions)),
      ).toBeInstanceOf(AgentInputError);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('cancelDurableRun', () => {
  it('is cooperative: the answer still says RUNNING, then CANCELLING, then CANCELLED', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('durable-agent', { messages });
    server.service.advance(1000);
    const answer = await durable.cancelDurableRun('durable-agent', runId);
    expect(answer.state).toBe('RUNNING');
    expect(server.requests.at(-1)).toMatchObject({
      path: '/api/agents/durable-agent/cancellations',
      body: { run_id: runId },
    });
    expect((await durable.getDurableRun('durable-agent', runId)).state).toBe('CANCELLING');
    server.service.advance(1000);
    const cancelled = await durable.getDurableRun('durable-agent', runId);
    expect(cancelled.state).toBe('CANCELLED');
    // idempotent: a terminal run answers its snapshot
    expect((await durable.cancelDurableRun('durable-agent', runId)).state).toBe('CANCELLED');
  });

  it('completion wins a race with the cancellation: SUCCEEDED', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('durable-agent', { messages });
    server.service.advance(5500);
    expect((await durable.cancelDurableRun('durable-agent', runId)).state).toBe('RUNNING');
    server.service.advance(1000);
    expect((await durable.getDurableRun('durable-agent', runId)).state).toBe('SUCCEEDED');
  });

  it('a paused run becomes CANCELLED at once, and its tool never runs', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('approval-agent', { messages });
    server.service.advance(1500);
    const answer = await durable.cancelDurableRun('approval-agent', runId);
    expect(answer).toMatchObject({ state: 'CANCELLED', pendingInteractions: [] });
    expect(server.service.durableStats.toolsExecuted).toBe(0);
  });

  it('409 without a cancellation registration is AgentCancelUnavailableError; 404 typed', async () => {
    const durable = client();
    const { runId } = await durable.startDurableRun('stubborn', { messages });
    const error = await rejectionOf(durable.cancelDurableRun('stubborn', runId));
    expect(error).toBeInstanceOf(AgentCancelUnavailableError);
    expect(error).toMatchObject({ status: 409 });
    expect(
      await rejectionOf(client({ token: 'another-token-88' }).cancelDurableRun('stubborn', runId)),
    ).toBeInstanceOf(AgentRunNotFoundError);
  });
});

describe('where there are no durable runs', () => {
  it('a rest-v1 client throws AgentUnsupportedError for each method and sends nothing', async () => {
    const legacy = client({ api: 'rest-v1' });
    for (const call of [
      legacy.startDurableRun('durable-agent', { messages }),
      legacy.getDurableRun('durable-agent', 'r1'),
      legacy.cancelDurableRun('durable-agent', 'r1'),
      legacy.respondToDurableRun('durable-agent', 'r1', [
        { interactionId: 'c', decision: 'APPROVE' },
      ]),
    ]) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(AgentUnsupportedError);
      expect(error).toMatchObject({ kind: 'input', retryable: false });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a deployment that refuses execution_mode (400) is AgentDurableUnavailableError, sent once', async () => {
    const predurable = await serveForTest({ agents: demoAgents, durableRuns: false });
    const durable = createAgentClient({ baseUrl: predurable.url, api: 'platform', token });
    const error = await rejectionOf(durable.startDurableRun('durable-agent', { messages }));
    expect(error).toBeInstanceOf(AgentDurableUnavailableError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(predurable.postCount()).toBe(1);
  });

  it('a 200 that is not a durable run keeps no echoed token in the error, escaped or not', async () => {
    server.inject('durable-agent', {
      endpoint: 'run',
      status: 200,
      times: 1,
      contentType: 'application/json',
      body: `{"messages":[{"role":"GLEAN_AI","content":[{"type":"text","text":"${token} \\u0064${token.slice(1)}"}]}]}`,
    });
    const error = await rejectionOf(client().startDurableRun('durable-agent', { messages }));
    expect(error).toBeInstanceOf(AgentDurableUnavailableError);
    expect(JSON.stringify((error as AgentDurableUnavailableError).body)).not.toMatch(
      /urable-token|u0064/,
    );
    expect((error as Error).message).not.toContain(token);
  });

  it('a deployment that ignores it (a 200 wait body) is AgentDurableUnavailableError, sent once', async () => {
    const ignoring = await serveForTest({ agents: demoAgents, durableRuns: 'ignored' });
    const durable = createAgentClient({ baseUrl: ignoring.url, api: 'platform', token });
    const error = await rejectionOf(durable.startDurableRun('chat-agent', { messages }));
    expect(error).toBeInstanceOf(AgentDurableUnavailableError);
    expect(error).toMatchObject({ status: 200 });
    expect(ignoring.postCount()).toBe(1);
    expect(ignoring.requests[0]?.status).toBe(200);
  });
});
