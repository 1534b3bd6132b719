import { useCallback, useEffect, useRef, useState, type ForwardedRef } from 'react';
import { AgentApprovalConflictError } from '../core/wire/durable-run-errors.js';
import type { DurableInteraction } from '../core/wire/durable-run-schemas.js';
import type { AgentApprovalCardStatus, Decision } from './agent-approval-card-context.js';
import { useComposedRefs } from './part-helpers.js';

export function deadlineOf(interaction: DurableInteraction): number | undefined {
  if (interaction.kind !== 'tool-approval' || interaction.expiresAt === undefined) return undefined;
  const time = Date.parse(interaction.expiresAt);
  return Number.isNaN(time) ? undefined : time;
}

/** A 409 to the answer: the batch was answered already, or is not the one pending any more. */
export function isConflict(error: unknown): boolean {
  if (error instanceof AgentApprovalConflictError) return true;
  return (
    typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 409
  );
}

/** Whether the person is typing in a field outside `container` (focus must stay there). */
export function typingOutside(container: HTMLElement | null): boolean {
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

export interface CardView {
  batchKey: string | undefined;
  decisions: Readonly<Record<string, Decision>>;
  changed: boolean;
  /** The answer was handed to `onSubmit` and `status` has not changed since. */
  submitted: boolean;
  status: AgentApprovalCardStatus;
}

/** The card's decisions for the batch shown, started over when another batch shows. */
export function useCardView(
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
export function useArming(batchKey: string | undefined, armDelay: number) {
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
export function useDeadlineClock(interactions: readonly DurableInteraction[]) {
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
export function useFocusOnAppear(
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
export function useBatchAnnouncement(
  batchKey: string | undefined,
  announcementText: string,
): string {
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
export function blockedReasonOf({
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
export function cardStateOf(
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
