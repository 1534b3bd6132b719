import {
  forwardRef,
  useId,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type {
  DurableInteraction,
  DurableRunDecision,
  DurableToolApproval,
} from '../core/wire/durable-run-schemas.js';
import { batchKeyOf } from '../core/wire/durable-run-states.js';
import {
  ApprovalContext,
  useApprovalContext,
  type AgentApprovalCardStatus,
  type ApprovalContextValue,
  type Decision,
} from './agent-approval-card-context.js';
import {
  AgentApprovalCardActions,
  AgentApprovalCardArguments,
  AgentApprovalCardDeadline,
  AgentApprovalCardItem,
  type AgentApprovalCardActionsProps,
  type AgentApprovalCardArgumentsProps,
  type AgentApprovalCardDeadlineProps,
  type AgentApprovalCardItemProps,
} from './agent-approval-card-item.js';
import { classNames, dataFlag, named, useComposedRefs, visuallyHidden } from './part-helpers.js';
import {
  blockedReasonOf,
  cardStateOf,
  isConflict,
  useArming,
  useBatchAnnouncement,
  useCardView,
  useDeadlineClock,
  useFocusOnAppear,
} from './use-approval-decisions.js';
import { visibleString } from './visible-text.js';

export type { AgentApprovalCardStatus };
export {
  AgentApprovalCardActions,
  AgentApprovalCardArguments,
  AgentApprovalCardDeadline,
  AgentApprovalCardItem,
  type AgentApprovalCardActionsProps,
  type AgentApprovalCardArgumentsProps,
  type AgentApprovalCardDeadlineProps,
  type AgentApprovalCardItemProps,
};

function interactionName(interaction: DurableInteraction): string {
  return interaction.kind === 'tool-approval'
    ? visibleString(interaction.displayName)
    : `a request of type ${visibleString(interaction.type)} that this version cannot answer`;
}

/** Props of {@link AgentApprovalCardRoot} (and of {@link AgentApprovalCard}). */
export interface AgentApprovalCardRootProps
  extends Omit<ComponentPropsWithoutRef<'section'>, 'onSubmit'>, RefAttributes<HTMLElement> {
  /**
   * The pending batch (`useDurableRun().pendingInteractions`). Decisions belong to this batch:
   * another batch (other interaction ids) clears them and says so.
   */
  interactions: readonly DurableInteraction[];
  /**
   * Called once with one decision per interaction of the batch shown, in the order shown: on
   * Approve or Reject for a single approval, on Submit for several. Pass them to
   * `respond(decisions)`.
   */
  onSubmit: (decisions: DurableRunDecision[]) => void;
  /**
   * What the engine is doing with the answer: `'responding'` shows it being sent and holds the
   * buttons; `'error'` shows `error` and lets the person send again.
   * @default 'idle'
   */
  status?: AgentApprovalCardStatus;
  /**
   * Why the answer failed. A 409 (`AgentApprovalConflictError`) says the requests were already
   * answered or changed; anything else says the answer could not be sent.
   * @default undefined
   */
  error?: unknown;
  /**
   * How long (ms) after the card, or a new batch, appears before Approve, Reject and Submit count:
   * a click in that moment (or one whose press started in it) is ignored, and the buttons say so
   * with `aria-disabled`. 0 arms them at once.
   * @default 600
   */
  armDelay?: number;
  /**
   * Whether the card's heading takes focus when a batch appears. It never does while the person
   * is typing in a field outside the card.
   * @default true
   */
  focusOnAppear?: boolean;
  /**
   * A custom layout from the parts. Without children: the heading, each request with its
   * arguments, deadline and buttons, the messages and, for a batch, Submit.
   * @default undefined
   */
  children?: ReactNode;
}

/**
 * The root of an approval card's parts: it holds the decisions of the batch on screen, the arm
 * delay, the focus on appearing and the announcement ("Approval needed: …", once per batch, in a
 * polite live region it renders itself). Carries `data-state` (`arming`, `pending`, `responding`,
 * `error`), `data-batch` for several requests and `data-changed` after the batch changed. Its
 * `ref` is the `<section>`.
 */
export const AgentApprovalCardRoot = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentApprovalCardRootProps>(AgentApprovalCardRootRender),
  'AgentApprovalCard.Root',
);

function AgentApprovalCardRootRender(
  {
    interactions,
    onSubmit,
    status = 'idle',
    error,
    armDelay = 600,
    focusOnAppear = true,
    className,
    children,
    ...rest
  }: AgentApprovalCardRootProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const batchKey = batchKeyOf(interactions);
  const [current, setView] = useCardView(batchKey, status);
  const { armed, armedRef, pressedEarly } = useArming(batchKey, armDelay);
  const { deadlines, now } = useDeadlineClock(interactions);
  const { composedRef, headingRef } = useFocusOnAppear(ref, batchKey, focusOnAppear);
  const announcement = useBatchAnnouncement(
    batchKey,
    `${current.changed ? 'The requests changed: review them again. ' : ''}Approval needed: ${interactions.map(interactionName).join(', ')}`,
  );
  const reasonId = useId();

  const batch = interactions.length > 1;
  // After a 409 the same decisions would only conflict again: held until another batch shows.
  const conflict = status === 'error' && isConflict(error);
  const locked = status === 'responding' || current.submitted || conflict;
  const answerable = interactions.filter(
    (interaction): interaction is DurableToolApproval => interaction.kind === 'tool-approval',
  );
  const unknownCount = interactions.length - answerable.length;
  const expiredCount = deadlines.filter((time) => time !== undefined && time <= now).length;
  const chosen = answerable.filter(
    (interaction) => current.decisions[interaction.interactionId] !== undefined,
  ).length;
  const blockedReason = blockedReasonOf({
    total: interactions.length,
    unknownCount,
    expiredCount,
    conflict,
    locked,
    batch,
    chosen,
    answerable: answerable.length,
  });
  /** Whether this click counts: armed, and its press did not start before the card was armed. */
  const clickCounts = () => {
    const early = pressedEarly.current;
    pressedEarly.current = false;
    return armedRef.current && !early;
  };

  const send = (decisions: Readonly<Record<string, Decision>>) => {
    const answer = answerable.flatMap((interaction): DurableRunDecision[] => {
      const decision = decisions[interaction.interactionId];
      return decision === undefined ? [] : [{ interactionId: interaction.interactionId, decision }];
    });
    if (answer.length !== interactions.length) return;
    setView({ ...current, decisions, submitted: true });
    onSubmit(answer);
  };

  const value: ApprovalContextValue = {
    interactions,
    batchKey,
    batch,
    decisions: current.decisions,
    armed,
    locked,
    status,
    error,
    changed: current.changed,
    now,
    blockedReason,
    reasonId,
    headingRef,
    notePointerDown: () => {
      if (!armedRef.current) pressedEarly.current = true;
    },
    decide: (interactionId, decision, event) => {
      event.preventDefault();
      if (!clickCounts() || locked || expiredCount > 0) return;
      const decisions = { ...current.decisions, [interactionId]: decision };
      if (!batch) send(decisions);
      else setView({ ...current, decisions });
    },
    submit: (event) => {
      event.preventDefault();
      if (!clickCounts() || blockedReason !== undefined) return;
      send(current.decisions);
    },
  };

  return (
    <ApprovalContext.Provider value={value}>
      <section
        ref={composedRef}
        aria-label={rest['aria-labelledby'] === undefined ? 'Approval needed' : undefined}
        className={classNames('ack-root', 'ack-approval', className)}
        data-state={cardStateOf(conflict, locked, status, armed)}
        data-batch={dataFlag(batch)}
        data-changed={dataFlag(current.changed)}
        {...rest}
      >
        {children ?? <DefaultLayout />}
        <div role="status" aria-live="polite" style={visuallyHidden}>
          {announcement}
        </div>
      </section>
    </ApprovalContext.Provider>
  );
}

function DefaultLayout() {
  const { interactions } = useApprovalContext('AgentApprovalCard');
  return (
    <>
      <AgentApprovalCardTitle />
      <AgentApprovalCardMessage />
      <ul className="ack-approval__items">
        {interactions.map((interaction, index) => (
          <AgentApprovalCardItem
            key={interaction.interactionId ?? `unknown-${index}`}
            interaction={interaction}
          />
        ))}
      </ul>
      <AgentApprovalCardSubmit />
    </>
  );
}

/** Props of {@link AgentApprovalCardTitle}. */
export interface AgentApprovalCardTitleProps
  extends ComponentPropsWithoutRef<'h2'>, RefAttributes<HTMLHeadingElement> {
  /**
   * The heading's text.
   * @default 'Approval needed' ('Approvals needed (n)' for several)
   */
  children?: ReactNode;
}

/**
 * The card's heading (`<h2 tabIndex={-1}>`): it takes focus when a batch appears, unless the person
 * is typing elsewhere. Its `ref` is the heading.
 */
export const AgentApprovalCardTitle = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLHeadingElement, AgentApprovalCardTitleProps>(
    AgentApprovalCardTitleRender,
  ),
  'AgentApprovalCard.Title',
);

function AgentApprovalCardTitleRender(
  { className, children, ...rest }: AgentApprovalCardTitleProps,
  ref: ForwardedRef<HTMLHeadingElement>,
) {
  const { interactions, headingRef } = useApprovalContext('AgentApprovalCard.Title');
  const composedRef = useComposedRefs(ref, headingRef);
  return (
    <h2
      ref={composedRef}
      tabIndex={-1}
      className={classNames('ack-approval__title', className)}
      {...rest}
    >
      {children ??
        (interactions.length > 1 ? `Approvals needed (${interactions.length})` : 'Approval needed')}
    </h2>
  );
}

/** Props of {@link AgentApprovalCardSubmit}. */
export interface AgentApprovalCardSubmitProps
  extends Omit<ComponentPropsWithoutRef<'button'>, 'type'>, RefAttributes<HTMLButtonElement> {
  /**
   * The button's label.
   * @default 'Submit decisions'
   */
  children?: ReactNode;
}

/**
 * Sends the batch's decisions at once (only for several requests: nothing for one). It is
 * `aria-disabled` until every request has a decision, and described by why it cannot send (how
 * many are chosen, an unknown kind, an expired request). Its `ref` is the button.
 */
export const AgentApprovalCardSubmit = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLButtonElement, AgentApprovalCardSubmitProps>(
    AgentApprovalCardSubmitRender,
  ),
  'AgentApprovalCard.Submit',
);

function AgentApprovalCardSubmitRender(
  { className, children, onClick, ...rest }: AgentApprovalCardSubmitProps,
  ref: ForwardedRef<HTMLButtonElement>,
) {
  const context = useApprovalContext('AgentApprovalCard.Submit');
  if (!context.batch) return null;
  const held = !context.armed || context.blockedReason !== undefined;
  return (
    <button
      ref={ref}
      type="button"
      className={classNames('ack-approval__submit', className)}
      data-variant="primary"
      aria-disabled={held ? true : undefined}
      aria-describedby={context.blockedReason === undefined ? undefined : context.reasonId}
      onPointerDown={context.notePointerDown}
      onClick={(event) => {
        onClick?.(event);
        context.submit(event);
      }}
      {...rest}
    >
      {children ?? 'Submit decisions'}
    </button>
  );
}

/** Props of {@link AgentApprovalCardMessage}. */
export interface AgentApprovalCardMessageProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {}

/**
 * What the card has to say: the batch changed ("The requests changed: review them again."), the
 * answer being sent, a 409 ("already answered or changed") or another error, and why Submit (or a
 * single request's buttons) cannot send. Its `ref` is the `<div>`.
 */
export const AgentApprovalCardMessage = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentApprovalCardMessageProps>(
    AgentApprovalCardMessageRender,
  ),
  'AgentApprovalCard.Message',
);

function AgentApprovalCardMessageRender(
  { className, ...rest }: AgentApprovalCardMessageProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const context = useApprovalContext('AgentApprovalCard.Message');
  const several = context.interactions.length > 1;
  return (
    <div ref={ref} className={classNames('ack-approval__messages', className)} {...rest}>
      {context.changed ? (
        <p className="ack-approval__changed">The requests changed: review them again.</p>
      ) : null}
      {context.status === 'responding' ? (
        <p className="ack-approval__responding">Sending your answer…</p>
      ) : null}
      {context.status === 'error' ? (
        <p className="ack-approval__error" role="alert">
          {isConflict(context.error)
            ? several
              ? 'These requests were already answered or changed.'
              : 'This request was already answered or changed.'
            : 'Your answer could not be sent. Try again.'}
        </p>
      ) : null}
      {context.blockedReason !== undefined ? (
        <p id={context.reasonId} className="ack-approval__reason">
          {context.blockedReason}
        </p>
      ) : null}
    </div>
  );
}

/** Props of {@link AgentApprovalCard}. */
export type AgentApprovalCardProps = AgentApprovalCardRootProps;

/**
 * A card for a durable run paused in `REQUIRES_INPUT`: each pending tool approval with its
 * arguments as escaped plain text, its deadline, and Approve and Reject; one Submit for a batch of
 * several. It never calls the service: it reports the decisions with `onSubmit`. Built from the
 * parts `AgentApprovalCard.Root` (which also takes a custom layout), `.Title`, `.Message`, `.Item`,
 * `.Arguments`, `.Deadline`, `.Actions`, `.Submit`. Its `ref` is the `<section>`.
 *
 * @example
 * const run = useDurableRun({ agentId });
 * {run.pendingInteractions.length > 0 ? (
 *   <AgentApprovalCard
 *     interactions={run.pendingInteractions}
 *     status={run.status === 'responding' ? 'responding' : run.error ? 'error' : 'idle'}
 *     error={run.error}
 *     onSubmit={(decisions) => void run.respond(decisions)}
 *   />
 * ) : null}
 */
export const AgentApprovalCard = /* @__PURE__ */ Object.assign(
  /* @__PURE__ */ named(
    /* @__PURE__ */ forwardRef<HTMLElement, AgentApprovalCardProps>(
      function AgentApprovalCardRender(props, ref) {
        return <AgentApprovalCardRoot ref={ref} {...props} />;
      },
    ),
    'AgentApprovalCard',
  ),
  {
    Root: AgentApprovalCardRoot,
    Title: AgentApprovalCardTitle,
    Message: AgentApprovalCardMessage,
    Item: AgentApprovalCardItem,
    Arguments: AgentApprovalCardArguments,
    Deadline: AgentApprovalCardDeadline,
    Actions: AgentApprovalCardActions,
    Submit: AgentApprovalCardSubmit,
  },
);
