import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type MouseEvent,
  type ReactNode,
  type RefAttributes,
} from 'react';
import { AgentApprovalConflictError } from '../core/wire/durable-run-errors.js';
import type {
  DurableInteraction,
  DurableRunDecision,
  DurableToolApproval,
} from '../core/wire/durable-run-schemas.js';
import { batchKeyOf } from '../core/wire/durable-run-states.js';
import {
  classNames,
  createPartContext,
  dataFlag,
  named,
  useComposedRefs,
  visuallyHidden,
} from './part-helpers.js';
import {
  prettyJsonSegments,
  visibleSegments,
  visibleString,
  type VisibleSegment,
} from './visible-text.js';

/** What the engine is doing with the card's answer. */
export type AgentApprovalCardStatus = 'idle' | 'responding' | 'error';

type Decision = DurableRunDecision['decision'];

/** What the parts of an {@link AgentApprovalCardRoot} share. */
interface ApprovalContextValue {
  interactions: readonly DurableInteraction[];
  batchKey: string | undefined;
  /** More than one interaction: decisions are chosen, then one Submit sends them. */
  batch: boolean;
  decisions: Readonly<Record<string, Decision>>;
  /** Whether input counts yet (the arm delay after the batch appeared has passed). */
  armed: boolean;
  /** Sent, or being sent: the buttons wait. */
  locked: boolean;
  status: AgentApprovalCardStatus;
  error: unknown;
  changed: boolean;
  now: number;
  /** Why Submit cannot send, or undefined when it can. */
  blockedReason: string | undefined;
  reasonId: string;
  headingRef: (element: HTMLElement | null) => void;
  decide: (interactionId: string, decision: Decision, event: MouseEvent<HTMLButtonElement>) => void;
  submit: (event: MouseEvent<HTMLButtonElement>) => void;
  notePointerDown: () => void;
}

const [ApprovalContext, useApprovalContext] =
  /* @__PURE__ */ createPartContext<ApprovalContextValue>('AgentApprovalCard');

interface ItemContextValue {
  interaction: DurableInteraction;
  nameId: string;
  expired: boolean;
}

const [ItemContext, useItemContext] =
  /* @__PURE__ */ createPartContext<ItemContextValue>('AgentApprovalCard.Item');

function deadlineOf(interaction: DurableInteraction): number | undefined {
  if (interaction.kind !== 'tool-approval' || interaction.expiresAt === undefined) return undefined;
  const time = Date.parse(interaction.expiresAt);
  return Number.isNaN(time) ? undefined : time;
}

/** A 409 to the answer: the batch was answered already, or is not the one pending any more. */
function isConflict(error: unknown): boolean {
  if (error instanceof AgentApprovalConflictError) return true;
  return (
    typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 409
  );
}

/** Whether the person is typing in a field outside `container` (focus must stay there). */
function typingOutside(container: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || container?.contains(active)) return false;
  if (active.matches('textarea, select')) return true;
  if (active.matches('input')) {
    const type = (active as HTMLInputElement).type;
    return !['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file'].includes(
      type,
    );
  }
  return active.closest('[contenteditable]:not([contenteditable="false"])') !== null;
}

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

interface CardView {
  batchKey: string | undefined;
  decisions: Readonly<Record<string, Decision>>;
  changed: boolean;
  /** The answer was handed to `onSubmit` and `status` has not changed since. */
  submitted: boolean;
  status: AgentApprovalCardStatus;
}

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

/** The card's decisions for the batch shown, started over when another batch shows. */
function useCardView(
  batchKey: string | undefined,
  status: AgentApprovalCardStatus,
): [CardView, (view: CardView) => void] {
  const [view, setView] = useState<CardView>({
    batchKey,
    decisions: {},
    changed: false,
    submitted: false,
    status,
  });
  let current = view;
  if (view.batchKey !== batchKey) {
    // Another batch: the decisions were for the one that left. Said so unless it was answered.
    current = {
      batchKey,
      decisions: {},
      changed: view.batchKey !== undefined && batchKey !== undefined && !view.submitted,
      submitted: false,
      status,
    };
    setView(current);
  } else if (view.status !== status) {
    current = { ...view, status, submitted: false };
    setView(current);
  }

  return [current, setView];
}

/**
 * Whether the buttons count yet: `armDelay` ms after a batch shows, so a click meant for what was
 * there before does not answer it.
 */
function useArming(batchKey: string | undefined, armDelay: number) {
  const [armedKey, setArmedKey] = useState<string | undefined>(undefined);
  const armed = armDelay <= 0 || (armedKey === batchKey && batchKey !== undefined);
  const armedRef = useRef(armed);
  armedRef.current = armed;
  const pressedEarly = useRef(false);
  useEffect(() => {
    if (armDelay <= 0 || batchKey === undefined) return;
    const timer = setTimeout(() => setArmedKey(batchKey), armDelay);
    return () => clearTimeout(timer);
  }, [batchKey, armDelay]);

  return { armed, armedRef, pressedEarly };
}

/** The requests' deadlines, and a clock ticking each second until the last one passes. */
function useDeadlineClock(interactions: readonly DurableInteraction[]) {
  const deadlines = interactions.map(deadlineOf);
  const nextDeadline = deadlines.reduce<number | undefined>(
    (soonest, time) => (time === undefined || (soonest ?? Infinity) < time ? soonest : time),
    undefined,
  );
  const [now, setNow] = useState(() => Date.now());
  const lastDeadline = Math.max(...deadlines.map((time) => time ?? -Infinity));
  useEffect(() => {
    if (nextDeadline === undefined || lastDeadline < Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [nextDeadline, lastDeadline]);

  return { deadlines, now };
}

/** Focus on the heading when a batch shows, unless the person is typing elsewhere. */
function useFocusOnAppear(
  ref: ForwardedRef<HTMLElement>,
  batchKey: string | undefined,
  focusOnAppear: boolean,
) {
  const rootRef = useRef<HTMLElement>(null);
  const composedRef = useComposedRefs(ref, rootRef);
  const headingElement = useRef<HTMLElement | null>(null);
  const headingRef = useCallback((element: HTMLElement | null) => {
    headingElement.current = element;
  }, []);
  const focusedKey = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (batchKey === undefined || focusedKey.current === batchKey) return;
    focusedKey.current = batchKey;
    if (!focusOnAppear || typingOutside(rootRef.current)) return;
    headingElement.current?.focus();
  }, [batchKey, focusOnAppear]);

  return { composedRef, headingRef };
}

/** The polite announcement of a batch, made once per batch. */
function useBatchAnnouncement(batchKey: string | undefined, announcementText: string): string {
  const [announcement, setAnnouncement] = useState('');
  const announcedKey = useRef<string | undefined>(undefined);
  const latestAnnouncement = useRef(announcementText);
  latestAnnouncement.current = announcementText;
  useEffect(() => {
    if (batchKey === undefined || announcedKey.current === batchKey) return;
    announcedKey.current = batchKey;
    setAnnouncement(latestAnnouncement.current);
  }, [batchKey]);

  return announcement;
}

/** Why the card cannot send now, in words; `undefined` when it can. */
function blockedReasonOf({
  total,
  unknownCount,
  expiredCount,
  conflict,
  locked,
  batch,
  chosen,
  answerable,
}: {
  total: number;
  unknownCount: number;
  expiredCount: number;
  conflict: boolean;
  locked: boolean;
  batch: boolean;
  chosen: number;
  answerable: number;
}): string | undefined {
  return total === 0
    ? 'Nothing is waiting for an answer.'
    : unknownCount > 0
      ? 'This version cannot answer every request here: answer them where the agent runs.'
      : expiredCount > 0
        ? 'A request expired: it can no longer be answered.'
        : conflict
          ? 'Already answered or changed: waiting for what the agent asks now.'
          : locked
            ? 'Your answer is being sent.'
            : batch && chosen < answerable
              ? `Choose Approve or Reject for each request: ${chosen} of ${answerable} chosen.`
              : undefined;
}

/** The card's `data-state`. */
function cardStateOf(
  conflict: boolean,
  locked: boolean,
  status: AgentApprovalCardStatus,
  armed: boolean,
): string {
  return conflict
    ? 'error'
    : locked
      ? 'responding'
      : status === 'error'
        ? 'error'
        : !armed
          ? 'arming'
          : 'pending';
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
      {deadline === undefined ? 'Expires' : expired ? 'Expired' : 'Expires'}{' '}
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
 * `.Arguments`, `.Deadline`, `.Actions`, `.Submit`; each is also a named export
 * (`AgentApprovalCardItem` …). Its `ref` is the `<section>`.
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
