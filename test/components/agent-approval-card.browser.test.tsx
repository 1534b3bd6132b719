/**
 * AgentApprovalCard in Chromium: answered by keyboard alone (one approval, then a batch), and axe
 * clean with colour contrast in the light and dark themes.
 */
import 'agent-console-kit/styles.css';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from '@testing-library/react';
import axe from 'axe-core';
import {
  AgentApprovalCard,
  type DurableInteraction,
  type DurableRunDecision,
} from 'agent-console-kit';
import { toolApproval } from '../support/tool-approval.js';

function show(interactions: DurableInteraction[], onSubmit: (d: DurableRunDecision[]) => void) {
  return render(
    <StrictMode>
      <AgentApprovalCard interactions={interactions} onSubmit={onSubmit} />
    </StrictMode>,
  );
}

describe('given a keyboard user in Chromium', () => {
  it('answers one approval: Tab to Approve, Enter', async () => {
    const sent: DurableRunDecision[][] = [];
    show([toolApproval('a', { displayName: 'Send Slack message' })], (d) => sent.push(d));
    await expect.element(page.getByRole('heading', { name: 'Approval needed' })).toHaveFocus();
    const approve = page.getByRole('button', { name: 'Approve' });
    // Armed after the delay (600 ms): the keyboard user's Enter then counts.
    await expect.element(approve).not.toHaveAttribute('aria-disabled');

    await userEvent.keyboard('{Tab}');
    await expect
      .element(page.getByRole('group', { name: 'Arguments of Send Slack message' }))
      .toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await expect.element(approve).toHaveFocus();
    await userEvent.keyboard('{Enter}');

    expect(sent).toEqual([[{ interactionId: 'a', decision: 'APPROVE' }]]);
  });

  it('answers a batch: Tab through the choices, Space and Enter choose, Submit with Enter', async () => {
    const sent: DurableRunDecision[][] = [];
    show([toolApproval('a'), toolApproval('b')], (d) => sent.push(d));
    await expect.element(page.getByRole('heading', { name: 'Approvals needed (2)' })).toHaveFocus();
    await expect
      .element(page.getByRole('button', { name: 'Approve' }).first())
      .not.toHaveAttribute('aria-disabled');

    await userEvent.keyboard('{Tab}{Tab}'); // arguments of a, Approve of a
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{Tab}{Tab}{Tab}{Tab}'); // Reject of a, arguments of b, Approve of b, Reject of b
    await expect
      .element(
        page.getByRole('listitem', { name: 'Tool b' }).getByRole('button', { name: 'Reject' }),
      )
      .toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{Tab}');
    const submit = page.getByRole('button', { name: 'Submit decisions' });
    await expect.element(submit).toHaveFocus();
    await expect.element(submit).not.toHaveAttribute('aria-disabled');
    await userEvent.keyboard('{Enter}');

    expect(sent).toEqual([
      [
        { interactionId: 'a', decision: 'APPROVE' },
        { interactionId: 'b', decision: 'REJECT' },
      ],
    ]);
  });
});

const everything: DurableInteraction[] = [
  toolApproval('a', {
    displayName: 'Pay invoice',
    argumentsText:
      '{"file":"invoice\u202Efdp.exe","payee":"pay\u200Bpal","account_id":12345678901234567890}',
    expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
  }),
  toolApproval('b', { expiresAt: new Date(Date.now() - 60_000).toISOString() }),
  { kind: 'unknown', interactionId: 'c', type: 'FORM_INPUT', raw: {} },
];

describe.each(['light', 'dark'] as const)('given the %s theme', (theme) => {
  it('is axe clean with colour contrast: markers, deadlines, an unknown kind, messages', async () => {
    const { container, rerender } = render(
      <StrictMode>
        <AgentApprovalCard
          data-theme={theme}
          interactions={[toolApproval('z'), toolApproval('y')]}
          onSubmit={() => undefined}
        />
      </StrictMode>,
    );
    rerender(
      <StrictMode>
        <AgentApprovalCard
          data-theme={theme}
          interactions={everything}
          status="error"
          error={{ status: 409 }}
          onSubmit={() => undefined}
        />
      </StrictMode>,
    );
    await expect
      .element(page.getByText('The requests changed: review them again.', { exact: true }))
      .toBeVisible();
    await expect
      .element(page.getByText('These requests were already answered or changed.'))
      .toBeVisible();
    const marker = container.querySelector('.ack-approval__marker');
    expect(marker).not.toBeNull();
    expect(getComputedStyle(container.querySelector('.ack-approval') as Element).colorScheme).toBe(
      theme,
    );

    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: true } } });
    expect(results.violations).toEqual([]);
  });
});
