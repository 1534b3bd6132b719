/**
 * The console's controller with a chat agent whose durable turn waits for approval: the snapshot
 * carries the batch and how the answer stands, `respond` sends it. Against the package's mock
 * service on a clock the test drives, counted at the service.
 */
import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createAgentConsoleController,
  type AgentConsoleController,
} from 'agent-console-kit/core';
import { createMockAgentServer, demoAgents, type MockAgentServer } from 'agent-console-kit/testing';
import { manualPage, type ManualPage } from '../../support/durable-environment.js';

async function setUp(agentId: string) {
  const page = manualPage();
  const server = await createMockAgentServer({ agents: demoAgents, now: page.environment.now });
  const client = createAgentClient({ baseUrl: server.url, api: 'platform', token: 'tok-5f3a9c' });
  const controller = createAgentConsoleController(client, agentId, {
    executionMode: 'durable',
    durableRun: page.durableRun(),
  });
  const disconnect = controller.connect();
  controller.setAgent(await client.getAgent(agentId), undefined);
  await expect.poll(() => controller.getSnapshot().mode).toBe('chat');
  return { page, server, client, controller, disconnect };
}

/** Until no read (or start) of the turn's run is in flight. */
async function idle(controller: AgentConsoleController) {
  await expect
    .poll(() => {
      const run = controller.getSnapshot().conversation?.durableRun;
      return run?.connection === 'polling' || run?.status === 'starting';
    })
    .toBe(false);
}

async function tick(page: ManualPage, controller: AgentConsoleController, ms: number) {
  for (let left = ms; left > 0; left -= 500) {
    page.advance(Math.min(500, left));
    await idle(controller);
  }
}

/** Sends a message and moves the clock until the turn waits for approval. */
async function untilWaiting(page: ManualPage, controller: AgentConsoleController) {
  void controller.send('Tell me on Slack');
  await idle(controller);
  await tick(page, controller, 2000);
  expect(controller.getSnapshot().conversation?.status).toBe('waiting');
}

const responds = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'durable-respond');
const answerOf = (controller: AgentConsoleController) =>
  controller.getSnapshot().conversation?.messages[1];

describe('given a chat agent whose durable turn waits for one approval', () => {
  it('the snapshot carries the batch; Approve sends one answer, the tool runs once, the answer completes', async () => {
    const { page, server, controller, disconnect } = await setUp('approval-agent');
    try {
      expect(controller.getSnapshot()).toMatchObject({
        pendingInteractions: [],
        approvalStatus: 'idle',
      });
      await untilWaiting(page, controller);
      const waiting = controller.getSnapshot();
      expect(waiting.pendingInteractions).toHaveLength(1);
      const [approval] = waiting.pendingInteractions;
      expect(approval).toMatchObject({
        kind: 'tool-approval',
        displayName: 'Send Slack message to user',
      });
      expect(waiting.approvalStatus).toBe('idle');
      expect(waiting.approvalError).toBeUndefined();
      expect(answerOf(controller)?.status).toBe('waiting');

      const done = controller.respond([
        { interactionId: approval?.interactionId ?? '', decision: 'APPROVE' },
      ]);
      expect(controller.getSnapshot().approvalStatus).toBe('responding');
      // A second answer while the first is on its way sends nothing.
      await controller.respond([
        { interactionId: approval?.interactionId ?? '', decision: 'REJECT' },
      ]);
      await done;
      expect(controller.getSnapshot().approvalStatus).toBe('idle');
      await tick(page, controller, 3000);

      expect(answerOf(controller)).toMatchObject({ status: 'done' });
      expect(answerOf(controller)?.text).toContain('Sent your Slack message.');
      expect(controller.getSnapshot()).toMatchObject({
        pendingInteractions: [],
        approvalStatus: 'idle',
        approvalError: undefined,
        active: false,
      });
      expect(responds(server)).toHaveLength(1);
      expect(responds(server)[0]?.body).toMatchObject({
        responses: [{ interaction_id: approval?.interactionId, decision: 'APPROVE' }],
      });
      expect(server.service.durableStats.toolsExecuted).toBe(1);
    } finally {
      disconnect();
      await server.close();
    }
  });

  it('Reject sends one answer, no tool runs, and the answer completes', async () => {
    const { page, server, controller, disconnect } = await setUp('approval-agent');
    try {
      await untilWaiting(page, controller);
      const [approval] = controller.getSnapshot().pendingInteractions;
      await controller.respond([
        { interactionId: approval?.interactionId ?? '', decision: 'REJECT' },
      ]);
      await tick(page, controller, 3000);

      expect(answerOf(controller)).toMatchObject({ status: 'done' });
      expect(controller.getSnapshot().pendingInteractions).toEqual([]);
      expect(responds(server)).toHaveLength(1);
      expect(server.service.durableStats.toolsExecuted).toBe(0);
    } finally {
      disconnect();
      await server.close();
    }
  });

  it('answered elsewhere first: a 409 is the approval error, not sent again; the next batch clears it', async () => {
    const { page, server, client, controller, disconnect } = await setUp('approval-agent');
    try {
      await untilWaiting(page, controller);
      const [approval] = controller.getSnapshot().pendingInteractions;
      const interactionId = approval?.interactionId ?? '';
      const runId = controller.getSnapshot().conversation?.durableRun?.runId ?? '';
      // Another tab of the same person rejected it.
      await client.respondToDurableRun('approval-agent', runId, [
        { interactionId, decision: 'REJECT' },
      ]);

      await controller.respond([{ interactionId, decision: 'APPROVE' }]);

      const refused = controller.getSnapshot();
      expect(refused.approvalStatus).toBe('error');
      expect(refused.approvalError).toMatchObject({ status: 409 });
      expect(refused.pendingInteractions).toHaveLength(1);
      expect(responds(server)).toHaveLength(2);
      // Read again: the batch is gone, and its error with it.
      await tick(page, controller, 500);
      expect(controller.getSnapshot()).toMatchObject({
        pendingInteractions: [],
        approvalStatus: 'idle',
        approvalError: undefined,
      });
      await tick(page, controller, 3000);
      expect(answerOf(controller)).toMatchObject({ status: 'done' });
      expect(responds(server)).toHaveLength(2);
      expect(server.service.durableStats.toolsExecuted).toBe(0);
    } finally {
      disconnect();
      await server.close();
    }
  });
});

describe('given a chat agent whose durable turn waits for a batch of two approvals', () => {
  it('one answer carries both decisions: the approved tool runs, the rejected one does not', async () => {
    const { page, server, controller, disconnect } = await setUp('batch-approval-agent');
    try {
      await untilWaiting(page, controller);
      const batch = controller.getSnapshot().pendingInteractions;
      expect(
        batch.map((interaction) => interaction.kind === 'tool-approval' && interaction.displayName),
      ).toEqual(['Create Jira issue', 'Email the customer']);
      await controller.respond([
        { interactionId: batch[0]?.interactionId ?? '', decision: 'APPROVE' },
        { interactionId: batch[1]?.interactionId ?? '', decision: 'REJECT' },
      ]);
      await tick(page, controller, 3000);

      expect(answerOf(controller)).toMatchObject({ status: 'done' });
      expect(responds(server)).toHaveLength(1);
      expect(server.service.durableStats.toolsExecuted).toBe(1);
    } finally {
      disconnect();
      await server.close();
    }
  });

  it('an incomplete batch is refused before anything is sent: the error is shown, the card can answer again', async () => {
    const { page, server, controller, disconnect } = await setUp('batch-approval-agent');
    try {
      await untilWaiting(page, controller);
      const batch = controller.getSnapshot().pendingInteractions;
      await controller.respond([
        { interactionId: batch[0]?.interactionId ?? '', decision: 'APPROVE' },
      ]);
      expect(controller.getSnapshot().approvalStatus).toBe('error');
      expect(controller.getSnapshot().approvalError?.kind).toBe('input');
      expect(responds(server)).toHaveLength(0);

      await controller.respond(
        batch.map((interaction) => ({
          interactionId: interaction.interactionId ?? '',
          decision: 'REJECT' as const,
        })),
      );
      expect(controller.getSnapshot().approvalStatus).toBe('idle');
      expect(responds(server)).toHaveLength(1);
      expect(server.service.durableStats.toolsExecuted).toBe(0);
    } finally {
      disconnect();
      await server.close();
    }
  });
});
