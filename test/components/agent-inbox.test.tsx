/**
 * The approvals inbox in jsdom, under StrictMode, by role and with the keyboard only: a proxy with
 * a store (PGlite) in front of the mock service on 127.0.0.1; runs started through it by the
 * user's "other device" (a client with the same session) show in the inbox, open by keyboard and
 * are approved or rejected with the approval card.
 */
import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  AgentInbox,
  createAgentClient,
  useAgentInbox,
  type AgentClient,
} from 'agent-console-kit';
import { sessionOf, serveUserStoreProxy } from '../support/user-store-proxy.js';

const proxy = serveUserStoreProxy();

let users = 0;
const newUser = () => `inbox-${++users}-${Date.now().toString(36)}`;

function clientOf(user: string): AgentClient {
  return createAgentClient({ baseUrl: proxy.url, api: 'platform', headers: () => sessionOf(user) });
}

async function startWaiting(client: AgentClient, text: string) {
  const run = await client.startDurableRun('approve-agent', {
    messages: [{ role: 'USER', content: [{ type: 'text', text }] }],
  });
  await client.getDurableRun('approve-agent', run.runId);
  return run.runId;
}

function Inbox({ user }: { user: string }) {
  const inbox = useAgentInbox({ baseUrl: proxy.url, headers: sessionOf(user), pollIntervalMs: 0 });
  return (
    <AgentInbox inbox={inbox} agentName={(id) => (id === 'approve-agent' ? 'Deployer' : id)} />
  );
}

function renderInbox(user: string) {
  return render(
    <StrictMode>
      <AgentClientProvider client={clientOf(user)}>
        <Inbox user={user} />
      </AgentClientProvider>
    </StrictMode>,
  );
}

const inbox = () => screen.getByRole('region', { name: 'Waiting for your approval' });

describe('given AgentInbox over the proxy', () => {
  it('says when nothing waits; axe clean', async () => {
    const { container } = renderInbox(newUser());
    await within(inbox()).findByText('Nothing is waiting for your approval.');
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('lists the runs waiting across devices; opened by keyboard, approved with the card; the run leaves the inbox', async () => {
    const user = newUser();
    const laptop = clientOf(user);
    const first = await startWaiting(laptop, 'Deploy the web service');
    await startWaiting(laptop, 'Deploy the API');
    const { container } = renderInbox(user);
    const keyboard = userEvent.setup();

    const items = await within(inbox()).findAllByRole('button', { name: /Deploy the/ });
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Deploy the API'),
      expect.stringContaining('Deploy the web service'),
    ]);
    expect(items[0]).toHaveTextContent('Deployer');
    expect((await axe.run(container)).violations).toEqual([]);

    // Arrows move between runs, Enter opens one.
    items[0]?.focus();
    await keyboard.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await keyboard.keyboard('{Enter}');
    expect(items[1]).toHaveAttribute('aria-expanded', 'true');
    const opened = await screen.findByRole('region', { name: 'Deploy the web service' });
    const card = await within(opened).findByRole('region', { name: 'Approval needed' });
    await within(card).findByRole('heading', { name: 'Deploy to production' });
    expect((await axe.run(container)).violations).toEqual([]);

    const approve = within(card).getByRole('button', { name: 'Approve' });
    // The card's arm delay: Approve counts once it is no longer aria-disabled.
    await waitFor(() => expect(approve).not.toHaveAttribute('aria-disabled', 'true'), {
      timeout: 5000,
    });
    approve.focus();
    await keyboard.keyboard('{Enter}');
    await within(opened).findByText('Done', undefined, { timeout: 10_000 });
    expect(within(opened).getByTestId('inbox-answer')).toHaveTextContent(
      /^Approve the deploy\?\s+Deployed\.$/,
    );
    // Answered: the inbox read its list again and the run is no longer in it.
    await waitFor(() =>
      expect(within(inbox()).queryAllByRole('button', { name: /Deploy the/ })).toHaveLength(1),
    );
    expect(proxy.service.service.durableStats).toMatchObject({ responsesAccepted: 1 });
    const stored = await proxy.store.getRun(user, first);
    expect(stored).toMatchObject({ group: 'ended', state: 'SUCCEEDED' });

    // Escape closes the opened run; the focus goes back to the list.
    await keyboard.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Deploy the web service' })).toBeNull(),
    );
  });

  it('shows why the list could not be read, and reads it again on Try again', async () => {
    render(
      <StrictMode>
        <Unauthenticated />
      </StrictMode>,
    );
    const alert = await within(inbox()).findByRole('alert');
    expect(alert).toHaveTextContent('The inbox could not be read');
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    await within(inbox()).findByRole('alert');
  });
});

function Unauthenticated() {
  const inbox = useAgentInbox({ baseUrl: proxy.url, pollIntervalMs: 0 });
  return <AgentInbox inbox={inbox} />;
}
