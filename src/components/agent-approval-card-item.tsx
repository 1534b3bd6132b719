import {
  forwardRef,
  useId,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type { DurableInteraction } from '../core/wire/durable-run-schemas.js';
import {
  ItemContext,
  useApprovalContext,
  useItemContext,
  type Decision,
} from './agent-approval-card-context.js';
import { classNames, dataFlag, named } from './part-helpers.js';
import { deadlineOf } from './use-approval-decisions.js';
import {
  prettyJsonSegments,
  visibleSegments,
  visibleString,
  type VisibleSegment,
} from './visible-text.js';

/** Renders segments as text, markers as `<span title>` (never HTML). */
function Segments({ segments }: { segments: readonly VisibleSegment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.kind === 'text' ? (
          segment.text
        ) : (
          <span key={index} className="ack-approval__marker" title={segment.title}>
            {segment.text}
          </span>
        ),
      )}
    </>
  );
}

/** Props of {@link AgentApprovalCardItem}. */
export interface AgentApprovalCardItemProps
  extends ComponentPropsWithoutRef<'li'>, RefAttributes<HTMLLIElement> {
  /** The interaction this item shows. */
  interaction: DurableInteraction;
  /**
   * A custom layout from the item's parts (`.Arguments`, `.Deadline`, `.Actions`).
   * @default the tool's name, its description, arguments, deadline and buttons
   */
  children?: ReactNode;
}

/**
 * One request of the batch (`<li>`, labelled by the tool's name): the display name, the
 * description, the arguments, the deadline and Approve and Reject. An interaction of a kind this
 * version does not know is shown read-only, with a note. Carries `data-kind`, `data-decision`
 * (`approve`, `reject`) and `data-expired`. Its `ref` is the `<li>`.
 */
export const AgentApprovalCardItem = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLLIElement, AgentApprovalCardItemProps>(
    AgentApprovalCardItemRender,
  ),
  'AgentApprovalCard.Item',
);

function AgentApprovalCardItemRender(
  { interaction, className, children, ...rest }: AgentApprovalCardItemProps,
  ref: ForwardedRef<HTMLLIElement>,
) {
  const { decisions, now } = useApprovalContext('AgentApprovalCard.Item');
  const nameId = useId();
  const deadline = deadlineOf(interaction);
  const expired = deadline !== undefined && deadline <= now;
  const decision =
    interaction.kind === 'tool-approval' ? decisions[interaction.interactionId] : undefined;
  return (
    <ItemContext.Provider value={{ interaction, nameId, expired }}>
      <li
        ref={ref}
        aria-labelledby={nameId}
        className={classNames('ack-approval__item', className)}
        data-kind={interaction.kind}
        data-decision={decision?.toLowerCase()}
        data-expired={dataFlag(expired)}
        {...rest}
      >
        {interaction.kind === 'tool-approval' ? (
          <>
            <h3 id={nameId} className="ack-approval__tool">
              <Segments segments={visibleSegments(interaction.displayName)} />
            </h3>
            {children ?? (
              <>
                <p className="ack-approval__description">
                  <Segments segments={visibleSegments(interaction.description)} />
                </p>
                <AgentApprovalCardArguments />
                <AgentApprovalCardDeadline />
                <AgentApprovalCardActions />
              </>
            )}
          </>
        ) : (
          <>
            <h3 id={nameId} className="ack-approval__tool">
              Request of type <Segments segments={visibleSegments(interaction.type)} />
            </h3>
            <p className="ack-approval__note">
              This version cannot answer this kind of request: it is shown read-only. Answer it
              where the agent runs.
            </p>
          </>
        )}
      </li>
    </ItemContext.Provider>
  );
}

/** Props of {@link AgentApprovalCardArguments}. */
export interface AgentApprovalCardArgumentsProps
  extends Omit<ComponentPropsWithoutRef<'pre'>, 'children'>, RefAttributes<HTMLPreElement> {}

/**
 * The tool call's arguments as plain text: the JSON as sent (`argumentsText`), indented, its
 * numbers as written (an integer above 2^53 keeps every digit) and every control, bidi and
 * zero-width character shown as a `\uXXXX` marker (`<span title>` naming it). Never HTML. A
 * scrolling `<pre>` reachable by keyboard. Its `ref` is the `<pre>`.
 */
export const AgentApprovalCardArguments = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLPreElement, AgentApprovalCardArgumentsProps>(
    AgentApprovalCardArgumentsRender,
  ),
  'AgentApprovalCard.Arguments',
);

function AgentApprovalCardArgumentsRender(
  { className, ...rest }: AgentApprovalCardArgumentsProps,
  ref: ForwardedRef<HTMLPreElement>,
) {
  const { interaction } = useItemContext('AgentApprovalCard.Arguments');
  if (interaction.kind !== 'tool-approval') return null;
  return (
    <pre
      ref={ref}
      dir="ltr"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- long arguments scroll: the region must be reachable by keyboard (axe: scrollable-region-focusable)
      tabIndex={0}
      role="group"
      aria-label={`Arguments of ${visibleString(interaction.displayName)}`}
      className={classNames('ack-approval__arguments', className)}
      {...rest}
    >
      <Segments segments={prettyJsonSegments(interaction.argumentsText)} />
    </pre>
  );
}

const relativeTime = /* @__PURE__ */ new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

function relative(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  const magnitude = Math.abs(seconds);
  if (magnitude < 60) return relativeTime.format(seconds, 'second');
  if (magnitude < 3600) return relativeTime.format(Math.round(seconds / 60), 'minute');
  if (magnitude < 86_400) return relativeTime.format(Math.round(seconds / 3600), 'hour');
  return relativeTime.format(Math.round(seconds / 86_400), 'day');
}

/** Props of {@link AgentApprovalCardDeadline}. */
export interface AgentApprovalCardDeadlineProps
  extends Omit<ComponentPropsWithoutRef<'p'>, 'children'>, RefAttributes<HTMLParagraphElement> {}

/**
 * The approval's deadline, when it has one: "Expires in 5 minutes (at …)", the absolute time in a
 * `<time dateTime>`; "Expired …" after it (the buttons are then held). Nothing without a deadline.
 * Its `ref` is the `<p>`.
 */
export const AgentApprovalCardDeadline = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLParagraphElement, AgentApprovalCardDeadlineProps>(
    AgentApprovalCardDeadlineRender,
  ),
  'AgentApprovalCard.Deadline',
);

function AgentApprovalCardDeadlineRender(
  { className, ...rest }: AgentApprovalCardDeadlineProps,
  ref: ForwardedRef<HTMLParagraphElement>,
) {
  const { now } = useApprovalContext('AgentApprovalCard.Deadline');
  const { interaction, expired } = useItemContext('AgentApprovalCard.Deadline');
  if (interaction.kind !== 'tool-approval' || interaction.expiresAt === undefined) return null;
  const deadline = deadlineOf(interaction);
  const absolute =
    deadline === undefined
      ? visibleString(interaction.expiresAt)
      : new Date(deadline).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <p
      ref={ref}
      className={classNames('ack-approval__deadline', className)}
      data-expired={dataFlag(expired)}
      {...rest}
    >
      {expired ? 'Expired' : 'Expires'}{' '}
      {deadline === undefined ? null : `${relative(deadline - now)} `}
      (at{' '}
      <time dateTime={deadline === undefined ? undefined : new Date(deadline).toISOString()}>
        {absolute}
      </time>
      ){expired ? ': it can no longer be answered.' : null}
    </p>
  );
}

/** Props of {@link AgentApprovalCardActions}. */
export interface AgentApprovalCardActionsProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {}

/**
 * Approve and Reject for one request. A single request is answered by the click itself; in a
 * batch they choose (`aria-pressed`) and Submit sends. While the batch is arming, being sent or
 * expired they are `aria-disabled` (they keep focus) and a click does nothing. Its `ref` is the
 * group.
 */
export const AgentApprovalCardActions = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentApprovalCardActionsProps>(
    AgentApprovalCardActionsRender,
  ),
  'AgentApprovalCard.Actions',
);

function AgentApprovalCardActionsRender(
  { className, ...rest }: AgentApprovalCardActionsProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const context = useApprovalContext('AgentApprovalCard.Actions');
  const { interaction, nameId, expired } = useItemContext('AgentApprovalCard.Actions');
  if (interaction.kind !== 'tool-approval') return null;
  const held = !context.armed || context.locked || expired;
  const chosen = context.decisions[interaction.interactionId];
  const button = (decision: Decision, label: string) => (
    <button
      type="button"
      className={`ack-approval__${decision.toLowerCase()}`}
      data-variant={
        context.batch && chosen !== decision
          ? undefined
          : decision === 'APPROVE'
            ? 'primary'
            : context.batch
              ? 'danger'
              : undefined
      }
      aria-pressed={context.batch ? chosen === decision : undefined}
      aria-disabled={held ? true : undefined}
      aria-describedby={
        context.batch || context.blockedReason === undefined ? undefined : context.reasonId
      }
      onPointerDown={context.notePointerDown}
      onClick={(event) => context.decide(interaction.interactionId, decision, event)}
    >
      {label}
    </button>
  );
  return (
    <div
      ref={ref}
      role="group"
      aria-labelledby={nameId}
      className={classNames('ack-approval__actions', className)}
      data-arming={dataFlag(!context.armed)}
      {...rest}
    >
      {button('APPROVE', 'Approve')}
      {button('REJECT', 'Reject')}
    </div>
  );
}
