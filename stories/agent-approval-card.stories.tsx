import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AgentApprovalCard, type DurableInteraction } from 'agent-console-kit';
import 'agent-console-kit/styles.css';

/** An approval of the batch (a `DurableInteraction` of kind `tool-approval`). */
type DurableToolApproval = Extract<DurableInteraction, { kind: 'tool-approval' }>;

function approval(overrides: Partial<DurableToolApproval> & { interactionId: string }) {
  const value: DurableToolApproval = {
    kind: 'tool-approval',
    displayName: 'Send Slack message to user',
    description: 'Glean will send a direct message in Slack to the current user.',
    toolId: undefined,
    arguments: {},
    argumentsText: '{"message":"Cookbook approval test"}',
    argumentsPrecisionLost: false,
    expiresAt: undefined,
    raw: {},
    ...overrides,
  };
  return value;
}

const slack = approval({ interactionId: 'call_7kQ2mV9xR4tL8nP3sW6yZ1aB' });

const batch: DurableInteraction[] = [
  approval({
    interactionId: 'call_jira',
    displayName: 'Create Jira issue',
    description: 'Creates an issue in the SUPPORT project.',
    argumentsText:
      '{"project":"SUPPORT","summary":"Login fails after reset","parent_id":90071992547409931}',
    argumentsPrecisionLost: true,
  }),
  approval({
    interactionId: 'call_email',
    displayName: 'Email the customer',
    description: 'Sends an email from the support mailbox.',
    argumentsText: '{"to":"customer@example.com","subject":"We are on it"}',
    // A fixed offset from now, so the story always shows a deadline to come.
    expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
  }),
];

/** Markup, a bidi override, a zero-width space, a NUL and a 20-digit id, as a model might write. */
const hostile = approval({
  interactionId: 'call_hostile',
  displayName: 'Pay invoice',
  description: 'Pays the invoice named in the arguments.',
  argumentsText:
    '{"comment":"<img src=x onerror=alert(1)>","file":"invoice\u202Efdp.exe","payee":"pay\u200Bpal","note":"a\\u0000b","account_id":12345678901234567890}',
  argumentsPrecisionLost: true,
});

const meta = {
  title: 'Durable runs/AgentApprovalCard',
  component: AgentApprovalCard,
  args: { interactions: [slack], onSubmit: fn() },
} satisfies Meta<typeof AgentApprovalCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** One approval: Approve or Reject answers it at once (after a 600 ms arm delay). */
export const OneApproval: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const approve = canvas.getByRole('button', { name: 'Approve' });
    await waitFor(() => expect(approve).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(approve);
    await expect(args.onSubmit).toHaveBeenCalledWith([
      { interactionId: slack.interactionId, decision: 'APPROVE' },
    ]);
  },
};

/**
 * Two approvals, one with a deadline, waiting: Submit waits until each has a decision (here one of
 * the two is chosen).
 */
export const BatchWithDeadline: Story = {
  args: { interactions: batch },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const submit = canvas.getByRole('button', { name: 'Submit decisions' });
    await expect(submit).toHaveAttribute('aria-disabled', 'true');
    await expect(canvas.getByText(/^Expires in 10 minutes/)).toBeVisible();
    const jira = within(canvas.getByRole('listitem', { name: 'Create Jira issue' }));
    await waitFor(() =>
      expect(jira.getByRole('button', { name: 'Approve' })).not.toHaveAttribute('aria-disabled'),
    );
    await userEvent.click(jira.getByRole('button', { name: 'Approve' }));
    await expect(jira.getByRole('button', { name: 'Approve' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // Still waiting: the batch is not sent until each request has a decision.
    await expect(submit).toHaveAttribute('aria-disabled', 'true');
    await expect(submit).toHaveAccessibleDescription(
      'Choose Approve or Reject for each request: 1 of 2 chosen.',
    );
    await expect(args.onSubmit).not.toHaveBeenCalled();
    await expect(canvas.queryByText('Your answer is being sent.')).toBeNull();
  },
};

/** The batch answered: each request gets a decision, then one Submit sends both. */
export const BatchSubmitted: Story = {
  args: { interactions: batch },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const submit = canvas.getByRole('button', { name: 'Submit decisions' });
    const jira = within(canvas.getByRole('listitem', { name: 'Create Jira issue' }));
    const email = within(canvas.getByRole('listitem', { name: 'Email the customer' }));
    await waitFor(() =>
      expect(jira.getByRole('button', { name: 'Approve' })).not.toHaveAttribute('aria-disabled'),
    );
    await userEvent.click(jira.getByRole('button', { name: 'Approve' }));
    await userEvent.click(email.getByRole('button', { name: 'Reject' }));
    await userEvent.click(submit);
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await expect(args.onSubmit).toHaveBeenCalledWith([
      { interactionId: 'call_jira', decision: 'APPROVE' },
      { interactionId: 'call_email', decision: 'REJECT' },
    ]);
    await expect(submit).toHaveAccessibleDescription('Your answer is being sent.');
  },
};

/** Hostile arguments: plain text, hidden characters as markers, the 20-digit id as sent. */
export const HostileArguments: Story = {
  args: { interactions: [hostile] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const args = canvas.getByRole('group', { name: 'Arguments of Pay invoice' });
    await expect(canvasElement.querySelector('img')).toBeNull();
    await expect(args).toHaveTextContent('12345678901234567890');
    await expect(args).toHaveTextContent('invoice\\u202Efdp.exe');
    await expect(args.querySelectorAll('.ack-approval__marker')).toHaveLength(3);
  },
};

/** The answer being sent: the buttons wait. */
export const Responding: Story = {
  args: { interactions: [slack], status: 'responding', armDelay: 0 },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Sending your answer…')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Approve' }));
    await expect(args.onSubmit).not.toHaveBeenCalled();
  },
};

/** A 409: the approval was answered elsewhere, or the run moved on. */
export const ConflictError: Story = {
  args: { interactions: [slack], status: 'error', error: { status: 409 } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(
      'This request was already answered or changed.',
    );
  },
};

/** A kind this version does not know: shown read-only, and the batch cannot be sent from here. */
export const UnknownKind: Story = {
  args: {
    interactions: [
      slack,
      { kind: 'unknown', interactionId: 'form_1', type: 'FORM_INPUT', raw: {} },
    ],
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const item = canvas.getByRole('listitem', { name: 'Request of type FORM_INPUT' });
    await expect(within(item).queryAllByRole('button')).toHaveLength(0);
    await expect(
      canvas.getByRole('button', { name: 'Submit decisions' }),
    ).toHaveAccessibleDescription(
      'This version cannot answer every request here: answer them where the agent runs.',
    );
  },
};
