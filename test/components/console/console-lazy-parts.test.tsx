import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { AgentNetworkError } from 'agent-console-kit';
// Internal: the console's lazy parts (the console itself is tested in agent-console*.test.tsx).
import {
  ErrorMessageUnloaded,
  lazyApprovalCard,
  lazyEventLog,
  lazyInputForm,
  lazyRunHistory,
  lazyPart,
  lazyThreadList,
} from '../../../src/components/console-lazy-parts.js';
import type { DurableToolApproval } from '../../../src/core/wire/durable-run-schemas.js';
import { fields } from '../../support/lazy-console-parts.js';

describe('given a lazy part of the console', () => {
  it('renders nothing until its module has loaded when it was not preloaded, then the part', async () => {
    const { container } = render(
      <StrictMode>
        <lazyEventLog.Part events={[]} status="streaming" />
      </StrictMode>,
    );
    expect(container).toBeEmptyDOMElement();
    expect(await screen.findByRole('log', { name: 'Run events' })).toBeInTheDocument();
  });

  it('renders a preloaded part in the first commit, with no fallback', async () => {
    // As the console does once it knows the part may come: before the part first renders.
    await lazyRunHistory.preload();
    render(
      <StrictMode>
        <lazyRunHistory.Part entries={[]} fields={fields} onRunAgain={() => {}} />
      </StrictMode>,
    );
    // Synchronously after render: a part that suspended would show nothing yet.
    expect(screen.getByRole('heading', { name: 'Run history' })).toBeInTheDocument();
  });

  it('renders a preloaded input form in the first commit, with no fallback', async () => {
    await lazyInputForm.preload();
    render(
      <StrictMode>
        <lazyInputForm.Part fields={fields} aria-label="Input" onSubmit={() => {}} />
      </StrictMode>,
    );
    expect(screen.getByRole('form', { name: 'Input' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Topic' })).toBeInTheDocument();
  });

  it('renders a preloaded thread list in the first commit, with no fallback', async () => {
    await lazyThreadList.preload();
    const at = 1_790_000_000_000;
    const thread = { id: 'thread-1', agentId: 'chat', title: 'Laptop', messageCount: 2 };
    render(
      <StrictMode>
        <lazyThreadList.Part
          threads={[{ ...thread, createdAt: at, updatedAt: at, revision: 1 }]}
          selectedThreadId="thread-1"
          onSelect={() => {}}
          onCreate={() => {}}
        />
      </StrictMode>,
    );
    expect(screen.getByRole('navigation', { name: 'Threads' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Laptop' })).toHaveAttribute('aria-current', 'true');
  });

  it('the approval card (a durable turn only) loads on demand and is the card, its buttons wired', async () => {
    const approval: DurableToolApproval = {
      kind: 'tool-approval',
      interactionId: 'tool-1',
      displayName: 'Send on Slack',
      description: 'Posts the summary.',
      toolId: undefined,
      arguments: { channel: 'general' },
      argumentsText: '{"channel":"general"}',
      argumentsPrecisionLost: false,
      expiresAt: undefined,
      raw: {},
    };
    const { container } = render(
      <StrictMode>
        <lazyApprovalCard.Part interactions={[approval]} armDelay={0} onSubmit={() => {}} />
      </StrictMode>,
    );
    expect(container).toBeEmptyDOMElement();
    expect(await screen.findByRole('heading', { name: 'Send on Slack' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeInTheDocument();
  });

  it('renders its stand-in when its module cannot be loaded, not an error for the boundary', async () => {
    // The explanation of an error, its chunk lost with the network: the error's own words remain.
    const lost = lazyPart(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      'AgentErrorMessage',
      ErrorMessageUnloaded,
    );
    const onRetry = vi.fn();
    const { container } = render(
      <StrictMode>
        <lost.Part
          error={
            new AgentNetworkError('The connection to the agent service broke off.', {
              url: 'http://127.0.0.1/rest/api/v1/agents/chat-agent/runs/stream',
            })
          }
          onRetry={onRetry}
        />
      </StrictMode>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The connection to the agent service broke off.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect((await axe.run(container)).violations).toEqual([]);
  });
});
