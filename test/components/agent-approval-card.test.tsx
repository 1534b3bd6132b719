/**
 * AgentApprovalCard in jsdom, under StrictMode, by role: approvals read from the mock service over
 * 127.0.0.1 and answered through the client (counting what the service accepted), and the card's
 * own rules (the batch on screen, the arm delay, hostile arguments, unknown kinds, focus and the
 * announcement) on interactions built here.
 */
import { StrictMode, useState } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentApprovalCard,
  createAgentClient,
  type DurableInteraction,
  type DurableRunDecision,
} from 'agent-console-kit';
import { AgentApprovalConflictError, type AgentMessage } from 'agent-console-kit/core';
import type { DurableToolApproval } from '../../src/core/wire/durable-run-schemas.js';
import { demoAgents, type MockAgentDefinition } from 'agent-console-kit/testing';
import { setUpMockServer } from '../support/mock-server.js';
import { toolApproval } from '../support/tool-approval.js';

const token = 'approval-card-token-7f3a';
const messages: AgentMessage[] = [{ role: 'USER', content: [{ type: 'text', text: 'Go' }] }];

/** The arguments as the model might write them: markup, bidi, zero-width, NUL, a 20-digit id. */
const hostileArguments =
  '{"comment":"<img src=x onerror=alert(1)>","file":"invoice\u202Efdp.exe","payee":"pay\u200Bpal","note":"a\\u0000b","account_id":12345678901234567890}';

const hostile: MockAgentDefinition = {
  agent: { agent_id: 'hostile', name: 'Hostile', capabilities: {} },
  durable: {
    turns: [
      {
        runningMs: 100,
        approvals: [
          {
            displayName: 'Pay invoice',
            description: 'Pays <b>the</b> invoice',
            arguments: hostileArguments,
          },
        ],
      },
    ],
  },
};

const server = setUpMockServer({ agents: [...demoAgents, hostile], token });

function client() {
  return createAgentClient({ baseUrl: server.url, api: 'platform', token });
}

/** Starts a durable run of `agentId` and reads it once it waits for approval. */
async function pausedRun(agentId: string) {
  const api = client();
  const started = await api.startDurableRun(agentId, { messages });
  server.service.advance(5_000);
  const run = await api.getDurableRun(agentId, started.runId);
  expect(run.state).toBe('REQUIRES_INPUT');
  return { api, run };
}

const liveRegion = () => {
  const region = document.querySelector('.ack-approval [role="status"]');
  if (!(region instanceof HTMLElement)) throw new Error('no live region');
  return region;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('given one approval read from the service', () => {
  it('Approve sends one APPROVE decision, once, and the service runs the tool once; axe clean', async () => {
    const { api, run } = await pausedRun('approval-agent');
    const interaction = run.pendingInteractions[0] as DurableToolApproval;
    const sent: DurableRunDecision[][] = [];
    const user = userEvent.setup();
    const { container } = render(
      <StrictMode>
        <AgentApprovalCard
          interactions={run.pendingInteractions}
          armDelay={0}
          onSubmit={(decisions) => {
            sent.push(decisions);
            void api.respondToDurableRun('approval-agent', run.runId, decisions);
          }}
        />
      </StrictMode>,
    );
    expect(screen.getByRole('heading', { name: interaction.displayName })).toBeInTheDocument();
    expect((await axe.run(container)).violations).toEqual([]);

    const approve = screen.getByRole('button', { name: 'Approve' });
    await user.click(approve);
    await user.click(approve);
    await user.click(screen.getByRole('button', { name: 'Reject' }));

    expect(sent).toEqual([[{ interactionId: interaction.interactionId, decision: 'APPROVE' }]]);
    await expect.poll(() => server.service.durableStats.responsesAccepted).toBe(1);
    expect(server.service.durableStats.toolsExecuted).toBe(1);
    expect(approve).toHaveAttribute('aria-disabled', 'true');
  });

  it('says "already answered or changed" for the 409 of a batch answered elsewhere', async () => {
    const { api, run } = await pausedRun('approval-agent');
    const interaction = run.pendingInteractions[0] as DurableToolApproval;
    // Another tab answered first.
    await api.respondToDurableRun('approval-agent', run.runId, [
      { interactionId: interaction.interactionId, decision: 'APPROVE' },
    ]);
    let sent = 0;
    function Harness() {
      const [state, setState] = useState<{ status: 'idle' | 'error'; error: unknown }>({
        status: 'idle',
        error: undefined,
      });
      return (
        <AgentApprovalCard
          interactions={run.pendingInteractions}
          armDelay={0}
          status={state.status}
          error={state.error}
          onSubmit={(decisions) => {
            sent += 1;
            api.respondToDurableRun('approval-agent', run.runId, decisions).catch((error) => {
              setState({ status: 'error', error });
            });
          }}
        />
      );
    }
    const user = userEvent.setup();
    render(
      <StrictMode>
        <Harness />
      </StrictMode>,
    );

    await user.click(screen.getByRole('button', { name: 'Reject' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This request was already answered or changed.',
    );
    // Not sent again: the buttons wait for what the agent asks now.
    const reject = screen.getByRole('button', { name: 'Reject' });
    expect(reject).toHaveAttribute('aria-disabled', 'true');
    expect(reject).toHaveAccessibleDescription(
      'Already answered or changed: waiting for what the agent asks now.',
    );
    await user.click(reject);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(sent).toBe(1);
    expect(server.service.durableStats).toMatchObject({ responsesAccepted: 1, toolsExecuted: 1 });
  });

  it('says the answer could not be sent for another error, and lets it be sent again', async () => {
    const sent: DurableRunDecision[][] = [];
    const interactions = [toolApproval('a')];
    const user = userEvent.setup();
    const { rerender } = render(
      <StrictMode>
        <AgentApprovalCard
          interactions={interactions}
          armDelay={0}
          onSubmit={(d) => sent.push(d)}
        />
      </StrictMode>,
    );
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    rerender(
      <StrictMode>
        <AgentApprovalCard
          interactions={interactions}
          armDelay={0}
          status="responding"
          onSubmit={(d) => sent.push(d)}
        />
      </StrictMode>,
    );
    expect(screen.getByText('Sending your answer…')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    rerender(
      <StrictMode>
        <AgentApprovalCard
          interactions={interactions}
          armDelay={0}
          status="error"
          error={new Error('503')}
          onSubmit={(d) => sent.push(d)}
        />
      </StrictMode>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your answer could not be sent. Try again.',
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent('already answered');
    await user.click(screen.getByRole('button', { name: 'Approve' }));

    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('names a conflict for an AgentApprovalConflictError built by the client', () => {
    const error = new AgentApprovalConflictError({
      method: 'POST',
      url: 'http://127.0.0.1/api/agents/a/responses',
      status: 409,
    } as ConstructorParameters<typeof AgentApprovalConflictError>[0]);
    render(
      <StrictMode>
        <AgentApprovalCard
          interactions={[toolApproval('a'), toolApproval('b')]}
          status="error"
          error={error}
          onSubmit={() => undefined}
        />
      </StrictMode>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'These requests were already answered or changed.',
    );
  });
});

describe('given a batch of two read from the service', () => {
  it('Submit waits for a decision on each, then sends them all in one answer', async () => {
    const { api, run } = await pausedRun('batch-approval-agent');
    const [first, second] = run.pendingInteractions as [DurableToolApproval, DurableToolApproval];
    const sent: DurableRunDecision[][] = [];
    const user = userEvent.setup();
    const { container } = render(
      <StrictMode>
        <AgentApprovalCard
          interactions={run.pendingInteractions}
          armDelay={0}
          onSubmit={(decisions) => {
            sent.push(decisions);
            void api.respondToDurableRun('batch-approval-agent', run.runId, decisions);
          }}
        />
      </StrictMode>,
    );
    const submit = screen.getByRole('button', { name: 'Submit decisions' });
    const firstItem = screen.getByRole('listitem', { name: first.displayName });
    const secondItem = screen.getByRole('listitem', { name: second.displayName });
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toHaveAccessibleDescription(
      'Choose Approve or Reject for each request: 0 of 2 chosen.',
    );
    // The integer above 2^53 as the model wrote it, not as JSON.parse rounds it.
    expect(within(firstItem).getByRole('group', { name: /^Arguments/ })).toHaveTextContent(
      '"parent_id": 90071992547409931',
    );
    // The deadline: relative, and the absolute time in a <time>.
    expect(within(secondItem).getByText(/^Expires in 10 minutes/)).toBeInTheDocument();
    const time = secondItem.querySelector('time');
    expect(time?.getAttribute('dateTime')).toBe(new Date(second.expiresAt as string).toISOString());
    expect((await axe.run(container)).violations).toEqual([]);

    await user.click(submit);
    await user.click(within(firstItem).getByRole('button', { name: 'Approve' }));
    expect(within(firstItem).getByRole('button', { name: 'Approve' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(submit);
    expect(submit).toHaveAccessibleDescription(
      'Choose Approve or Reject for each request: 1 of 2 chosen.',
    );
    await user.click(within(secondItem).getByRole('button', { name: 'Reject' }));
    expect(submit).not.toHaveAttribute('aria-disabled');
    await user.click(submit);
    await user.click(submit);

    expect(sent).toEqual([
      [
        { interactionId: first.interactionId, decision: 'APPROVE' },
        { interactionId: second.interactionId, decision: 'REJECT' },
      ],
    ]);
    await expect.poll(() => server.service.durableStats.responsesAccepted).toBe(1);
    expect(server.service.durableStats.toolsExecuted).toBe(1);
  });
});

describe('given the batch on screen changes', () => {
  it('clears the decisions, says so, and announces the new batch', async () => {
    const sent: DurableRunDecision[][] = [];
    const user = userEvent.setup();
    const card = (interactions: DurableInteraction[]) => (
      <StrictMode>
        <AgentApprovalCard
          interactions={interactions}
          armDelay={0}
          onSubmit={(d) => sent.push(d)}
        />
      </StrictMode>
    );
    const { rerender } = render(card([toolApproval('a'), toolApproval('b')]));
    await user.click(
      within(screen.getByRole('listitem', { name: 'Tool a' })).getByRole('button', {
        name: 'Approve',
      }),
    );
    await user.click(
      within(screen.getByRole('listitem', { name: 'Tool b' })).getByRole('button', {
        name: 'Approve',
      }),
    );
    expect(screen.queryByText('The requests changed: review them again.')).toBeNull();

    // The same batch in a new array (a poll that changed nothing) keeps the decisions.
    rerender(card([toolApproval('b'), toolApproval('a')]));
    expect(screen.getByRole('button', { name: 'Submit decisions' })).not.toHaveAttribute(
      'aria-disabled',
    );

    rerender(card([toolApproval('a'), toolApproval('c')]));

    expect(screen.getByText('The requests changed: review them again.')).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { pressed: true })).toEqual([]);
    const submit = screen.getByRole('button', { name: 'Submit decisions' });
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    await user.click(submit);
    expect(sent).toEqual([]);
    await expect
      .poll(() => liveRegion())
      .toHaveTextContent(
        'The requests changed: review them again. Approval needed: Tool a, Tool c',
      );
  });

  it('does not say the requests changed when the batch before was answered', async () => {
    const user = userEvent.setup();
    const card = (interactions: DurableInteraction[]) => (
      <StrictMode>
        <AgentApprovalCard interactions={interactions} armDelay={0} onSubmit={() => undefined} />
      </StrictMode>
    );
    const { rerender } = render(card([toolApproval('a')]));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    rerender(card([toolApproval('b')]));
    expect(screen.queryByText('The requests changed: review them again.')).toBeNull();
    await expect.poll(() => liveRegion()).toHaveTextContent('Approval needed: Tool b');
    // The new request is armed again and answerable.
    expect(screen.getByRole('button', { name: 'Approve' })).not.toHaveAttribute('aria-disabled');
  });
});

describe('given a click as the card appears', () => {
  it('ignores it for 600 ms (aria-disabled), and a press that started then, and again for a new batch', () => {
    vi.useFakeTimers();
    const sent: DurableRunDecision[][] = [];
    const card = (interactions: DurableInteraction[]) => (
      <StrictMode>
        <AgentApprovalCard interactions={interactions} onSubmit={(d) => sent.push(d)} />
      </StrictMode>
    );
    const { rerender } = render(card([toolApproval('a')]));
    const approve = () => screen.getByRole('button', { name: 'Approve' });

    expect(approve()).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(approve());
    act(() => vi.advanceTimersByTime(599));
    fireEvent.click(approve());
    expect(approve()).toHaveAttribute('aria-disabled', 'true');
    // A press that started before the buttons were armed does not count when it ends after.
    fireEvent.pointerDown(approve());
    act(() => vi.advanceTimersByTime(1));
    expect(approve()).not.toHaveAttribute('aria-disabled');
    fireEvent.click(approve());
    expect(sent).toEqual([]);

    rerender(card([toolApproval('b')]));
    expect(approve()).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(approve());
    expect(sent).toEqual([]);
    act(() => vi.advanceTimersByTime(600));
    fireEvent.click(approve());
    expect(sent).toEqual([[{ interactionId: 'b', decision: 'APPROVE' }]]);
  });
});

describe('given hostile arguments from the service', () => {
  it('shows them as text: markers for bidi, zero-width and NUL, the integer as sent, no element', async () => {
    const { run } = await pausedRun('hostile');
    const { container } = render(
      <StrictMode>
        <AgentApprovalCard interactions={run.pendingInteractions} onSubmit={() => undefined} />
      </StrictMode>,
    );
    const item = screen.getByRole('listitem', { name: 'Pay invoice' });
    const args = within(item).getByRole('group', { name: 'Arguments of Pay invoice' });

    expect(container.querySelector('img, b')).toBeNull();
    expect(args).toHaveTextContent('"comment": "<img src=x onerror=alert(1)>"', {
      normalizeWhitespace: false,
    });
    expect(args.textContent).toContain('"account_id": 12345678901234567890');
    expect(args.textContent).toContain('"file": "invoice\\u202Efdp.exe"');
    expect(args.textContent).toContain('"payee": "pay\\u200Bpal"');
    expect(args.textContent).toContain('"note": "a\\u0000b"');
    const markers = [...args.querySelectorAll('.ack-approval__marker')].map((marker) => [
      marker.textContent,
      marker.getAttribute('title'),
    ]);
    expect(markers).toEqual([
      ['\\u202E', 'RIGHT-TO-LEFT OVERRIDE (U+202E)'],
      ['\\u200B', 'ZERO WIDTH SPACE (U+200B)'],
      ['\\u0000', 'NULL (U+0000)'],
    ]);
    for (const hidden of ['\u0000', '\u200B', '\u202E']) {
      expect(container.textContent).not.toContain(hidden);
    }
    expect(within(item).getByText('Pays <b>the</b> invoice')).toBeInTheDocument();
  });

  it('shows the hidden characters of a name and a description, and text that is not JSON, as markers', () => {
    render(
      <StrictMode>
        <AgentApprovalCard
          interactions={[
            toolApproval('x', {
              displayName: 'Send\u2066 mail',
              description: 'Sends\u202D it\uFEFF now',
              argumentsText: '{"broken": "\u202E',
            }),
          ]}
          onSubmit={() => undefined}
        />
      </StrictMode>,
    );
    expect(screen.getByRole('heading', { name: 'Send\\u2066 mail' })).toBeInTheDocument();
    expect(screen.getByText(/^Sends/)).toHaveTextContent('Sends\\u202D it\\uFEFF now');
    expect(screen.getByRole('group', { name: /^Arguments/ })).toHaveTextContent(
      '{"broken": "\\u202E',
    );
  });
});

describe('given an interaction of a kind this version does not know', () => {
  const unknown: DurableInteraction = {
    kind: 'unknown',
    interactionId: 'form-1',
    type: 'FORM_INPUT',
    raw: { type: 'FORM_INPUT' },
  };

  it('shows it read-only and says why Submit cannot send', async () => {
    const sent: DurableRunDecision[][] = [];
    const user = userEvent.setup();
    const { container } = render(
      <StrictMode>
        <AgentApprovalCard
          interactions={[toolApproval('a'), unknown]}
          armDelay={0}
          onSubmit={(d) => sent.push(d)}
        />
      </StrictMode>,
    );
    const item = screen.getByRole('listitem', { name: 'Request of type FORM_INPUT' });
    expect(within(item).queryAllByRole('button')).toEqual([]);
    expect(item).toHaveTextContent('This version cannot answer this kind of request');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const submit = screen.getByRole('button', { name: 'Submit decisions' });
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toHaveAccessibleDescription(
      'This version cannot answer every request here: answer them where the agent runs.',
    );
    await user.click(submit);
    expect(sent).toEqual([]);
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('alone: no buttons at all', () => {
    render(
      <StrictMode>
        <AgentApprovalCard interactions={[unknown]} onSubmit={() => undefined} />
      </StrictMode>,
    );
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(
      screen.getByText(
        'This version cannot answer every request here: answer them where the agent runs.',
      ),
    ).toBeInTheDocument();
  });
});

describe('given the person types elsewhere', () => {
  function Page({ interactions }: { interactions: DurableInteraction[] }) {
    return (
      <StrictMode>
        <label>
          Message <textarea />
        </label>
        {interactions.length > 0 ? (
          <AgentApprovalCard interactions={interactions} onSubmit={() => undefined} />
        ) : null}
      </StrictMode>
    );
  }

  it('leaves focus in the text area when the card (or a new batch) appears', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Page interactions={[]} />);
    await user.click(screen.getByRole('textbox', { name: 'Message' }));
    await user.keyboard('half a sen');

    rerender(<Page interactions={[toolApproval('a')]} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    rerender(<Page interactions={[toolApproval('b'), toolApproval('c')]} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    await user.keyboard('tence');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('half a sentence');
  });

  it('focuses the heading when nobody is typing', () => {
    const { rerender } = render(<Page interactions={[]} />);
    rerender(<Page interactions={[toolApproval('a')]} />);
    expect(screen.getByRole('heading', { name: 'Approval needed' })).toHaveFocus();
  });
});

describe('the announcement', () => {
  it('is made once per batch, not on every render', async () => {
    const card = (interactions: DurableInteraction[], status: 'idle' | 'responding' = 'idle') => (
      <StrictMode>
        <AgentApprovalCard interactions={interactions} status={status} onSubmit={() => undefined} />
      </StrictMode>
    );
    const { rerender } = render(card([toolApproval('a', { displayName: 'Send Slack message' })]));
    await expect.poll(() => liveRegion()).toHaveTextContent('Approval needed: Send Slack message');
    const changes: string[] = [];
    const observer = new MutationObserver(() => changes.push(liveRegion().textContent ?? ''));
    observer.observe(liveRegion(), { childList: true, characterData: true, subtree: true });

    for (let poll = 0; poll < 3; poll += 1) {
      rerender(card([toolApproval('a', { displayName: 'Send Slack message' })]));
    }
    rerender(card([toolApproval('a', { displayName: 'Send Slack message' })], 'responding'));
    await act(async () => {});
    expect(changes).toEqual([]);

    rerender(card([toolApproval('b', { displayName: 'Create Jira issue' })]));
    await expect.poll(() => changes.length).toBeGreaterThan(0);
    rerender(card([toolApproval('b', { displayName: 'Create Jira issue' })]));
    await act(async () => {});
    observer.disconnect();
    expect(new Set(changes)).toEqual(
      new Set(['The requests changed: review them again. Approval needed: Create Jira issue']),
    );
  });
});
