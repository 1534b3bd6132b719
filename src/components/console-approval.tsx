import { useEffect, useRef, type ComponentType } from 'react';
import type { ConversationApprovalStatus } from '../core/conversation/conversation-options.js';
import type { DurableInteraction, DurableRunDecision } from '../core/wire/durable-run-schemas.js';
import type { AgentApprovalCardProps } from './agent-approval-card.js';

/** Props of {@link ConsoleApproval}. */
export interface ConsoleApprovalProps {
  /** The turn waits for approval (`conversation.status === 'waiting'`). */
  waiting: boolean;
  /** The card to show (`components.ApprovalCard`), or `null` when hidden. */
  ApprovalCard: ComponentType<AgentApprovalCardProps> | null;
  interactions: readonly DurableInteraction[];
  status: ConversationApprovalStatus;
  error: unknown;
  onSubmit: (decisions: DurableRunDecision[]) => void;
}

/**
 * A chat agent's durable turn waiting for approval, under the thread: the card (the thread's
 * waiting answer says that it waits). The card never
 * takes focus from someone typing in the composer; when it goes away with focus in it (answered,
 * the run moved on), focus goes to the composer's text area rather than to the page. Internal to
 * `AgentConsole`.
 */
export function ConsoleApproval({
  waiting,
  ApprovalCard,
  interactions,
  status,
  error,
  onSubmit,
}: ConsoleApprovalProps) {
  const showCard = ApprovalCard !== null && interactions.length > 0;
  const shown = waiting || showCard;
  const rootRef = useRef<HTMLDivElement>(null);
  // Where the composer is, kept for after this part is gone.
  const container = useRef<Element | null>(null);
  // Removing the focused element fires no blur: this stays true when the card left with focus.
  const focusInside = useRef(false);
  useEffect(() => {
    if (shown) {
      container.current = rootRef.current?.parentElement ?? null;
      return;
    }
    if (!focusInside.current) return;
    focusInside.current = false;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    const boxes = container.current?.querySelectorAll('textarea');
    boxes?.[boxes.length - 1]?.focus();
  }, [shown]);

  if (!shown) return null;
  return (
    <div
      ref={rootRef}
      className="ack-console__approval"
      onFocus={() => {
        focusInside.current = true;
      }}
      onBlur={(event) => {
        focusInside.current =
          event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget);
      }}
    >
      {showCard ? (
        <ApprovalCard
          interactions={interactions}
          status={status}
          error={error}
          onSubmit={onSubmit}
        />
      ) : null}
    </div>
  );
}
