import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentApprovalCardProps, AgentClient } from 'agent-console-kit';
import type { AgentConsoleComponents } from 'agent-console-kit/console';
import type { MockAgentServer } from 'agent-console-kit/testing';
import { serveDurableAgents, type ManualPage } from '../../support/durable-environment.js';
import { advanceClock, renderDurableConsole } from '../../support/durable-console.js';

afterEach(() => {
  // A durable console keeps its thread in localStorage by default: each test starts a new one.
  localStorage.clear();
});

const renderConsole = (
  client: AgentClient,
  page: ManualPage,
  agentId: string,
  components?: AgentConsoleComponents,
) => renderDurableConsole(client, page, { agentId, ...(components ? { components } : {}) });

const agentItems = () =>
  screen.queryAllByRole('listitem').filter((item) => item.getAttribute('data-role') === 'agent');
const responds = (server: MockAgentServer) =>
  server.requests.filter((request) => request.endpoint === 'durable-respond');

/** Sends a message from the composer and moves the clock until the turn waits for approval. */
async function sendUntilWaiting(page: ManualPage, server: MockAgentServer) {
  const user = userEvent.setup();
  const starts = () => server.requests.filter((request) => request.endpoint === 'run').length;
  const before = starts();
  const box = await screen.findByRole('textbox', { name: 'Message' });
  await user.type(box, 'Tell me on Slack{Enter}');
  await waitFor(() => expect(starts()).toBe(before + 1));
  await advanceClock(page, 2000);
  // The newest answer: a console mounted again shows its (durable) thread from before.
  await waitFor(() => expect(agentItems().at(-1)).toHaveAttribute('data-status', 'waiting'));
  return { user, box };
}

/** The card's buttons count once its arm delay has passed. */
async function armed(button: HTMLElement) {
  await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled'));
}

describe('given AgentConsole with executionMode="durable" and a turn that waits for approval', () => {
  it('shows the card under the thread, keeps focus in the composer, and Approve sends one answer that completes the turn', async () => {
    const { page, server, client } = await serveDurableAgents();
    const { container } = renderConsole(client, page, 'approval-agent');
    const { user, box } = await sendUntilWaiting(page, server);

    const card = await screen.findByRole('region', { name: 'Approval needed' });
    expect(within(card).getByRole('heading', { name: 'Send Slack message to user' })).toBeVisible();
    expect(screen.getByText('The answer is waiting for your approval.')).toBeVisible();
    // The header says where the durable turn stands, not the idle stream run's "Ready.".
    expect(document.querySelector('.ack-console__status')).toHaveTextContent(
      'Waiting for your approval.',
    );
    // The person was typing in the composer: the card did not take focus.
    expect(box).toHaveFocus();
    // The composer's hint says the answer waits for the person, not that the agent is answering.
    expect(box).toHaveAccessibleDescription(
      'The agent waits for your approval: Stop or Escape ends the answer.',
    );
    // Under the thread, above the composer.
    const thread = screen.getByRole('region', { name: /^Conversation with / });
    expect(thread.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(card.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect((await axe.run(container)).violations).toEqual([]);

    const approve = within(card).getByRole('button', { name: 'Approve' });
    await armed(approve);
    await user.click(approve);
    await waitFor(() => expect(responds(server)).toHaveLength(1));
    expect(responds(server)[0]?.body).toMatchObject({ responses: [{ decision: 'APPROVE' }] });
    await advanceClock(page, 3000);

    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'done'));
    expect(agentItems()[0]).toHaveTextContent('Sent your Slack message.');
    expect(screen.queryByRole('region', { name: 'Approval needed' })).toBeNull();
    expect(screen.queryByText('The answer is waiting for your approval.')).toBeNull();
    expect(responds(server)).toHaveLength(1);
    expect(server.service.durableStats.toolsExecuted).toBe(1);
  });

  it('Reject by keyboard alone (Shift+Tab from the composer, Enter): one answer, no tool runs, the turn completes, focus back in the composer', async () => {
    const { page, server, client } = await serveDurableAgents();
    renderConsole(client, page, 'approval-agent');
    const { user, box } = await sendUntilWaiting(page, server);
    const card = await screen.findByRole('region', { name: 'Approval needed' });
    const reject = within(card).getByRole('button', { name: 'Reject' });
    await armed(reject);

    await user.tab({ shift: true });
    expect(reject).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(responds(server)).toHaveLength(1));
    expect(responds(server)[0]?.body).toMatchObject({ responses: [{ decision: 'REJECT' }] });
    await advanceClock(page, 3000);

    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'done'));
    expect(screen.queryByRole('region', { name: 'Approval needed' })).toBeNull();
    // The card left with focus in it: focus is back in the composer, not lost to the page.
    expect(box).toHaveFocus();
    expect(responds(server)).toHaveLength(1);
    expect(server.service.durableStats.toolsExecuted).toBe(0);
  });

  it('answered elsewhere first: Approve gets a 409, the card says so and sends nothing again', async () => {
    const { page, server, client } = await serveDurableAgents();
    renderConsole(client, page, 'approval-agent');
    const { user } = await sendUntilWaiting(page, server);
    const card = await screen.findByRole('region', { name: 'Approval needed' });
    const approve = within(card).getByRole('button', { name: 'Approve' });
    await armed(approve);
    // Another tab of the same person rejected it meanwhile.
    const path = server.requests.find((request) => request.endpoint === 'durable-run')?.path;
    const [, id] = /\/runs\/([^/?]+)/.exec(path ?? '') ?? [];
    const run = await client.getDurableRun('approval-agent', id ?? '');
    const interactionId = run.pendingInteractions[0]?.interactionId ?? '';
    await client.respondToDurableRun('approval-agent', id ?? '', [
      { interactionId, decision: 'REJECT' },
    ]);

    await user.click(approve);

    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'This request was already answered or changed.',
    );
    expect(approve).toHaveAttribute('aria-disabled', 'true');
    await user.click(approve);
    expect(responds(server)).toHaveLength(2);
    await advanceClock(page, 3000);
    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'done'));
    expect(responds(server)).toHaveLength(2);
    expect(server.service.durableStats.toolsExecuted).toBe(0);
  });

  it('components.ApprovalCard replaces the card (with its props) or, set to null, hides it; the answer still says it waits', async () => {
    const { page, server, client } = await serveDurableAgents();
    function OwnCard({ interactions, onSubmit }: AgentApprovalCardProps) {
      return (
        <button
          type="button"
          onClick={() =>
            onSubmit(
              interactions.map((interaction) => ({
                interactionId: interaction.interactionId ?? '',
                decision: 'APPROVE',
              })),
            )
          }
        >
          Approve all {interactions.length}
        </button>
      );
    }
    const own = renderConsole(client, page, 'approval-agent', { ApprovalCard: OwnCard });
    const { user } = await sendUntilWaiting(page, server);
    await user.click(await screen.findByRole('button', { name: 'Approve all 1' }));
    await waitFor(() => expect(responds(server)).toHaveLength(1));
    await advanceClock(page, 3000);
    await waitFor(() => expect(agentItems()[0]).toHaveAttribute('data-status', 'done'));
    expect(server.service.durableStats.toolsExecuted).toBe(1);
    own.unmount();

    renderConsole(client, page, 'approval-agent', { ApprovalCard: null });
    await sendUntilWaiting(page, server);
    expect(screen.getByText('The answer is waiting for your approval.')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Approval needed' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
