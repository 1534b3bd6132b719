import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ConversationSnapshot } from '../core/conversation/agent-conversation.js';
import { lazyCancelConfirm } from './console-lazy-parts.js';

/**
 * Stop for the console's composer: a stream turn stops at once; a durable turn asks first (the
 * confirm step is `confirm`, to render under the composer) and cancels only when confirmed. The
 * step goes away by itself when the turn settles; Stop during the cancellation does nothing. Focus: "Keep running" returns it to where it
 * was; "Cancel run" and a turn that settled meanwhile give it to the composer's text area.
 * Internal to `AgentConsole`.
 */
export function useConfirmedStop(
  conversation: ConversationSnapshot | undefined,
  stop: () => void,
): { onStop: () => void; confirm: ReactNode } {
  const [open, setOpen] = useState(false);
  const opener = useRef<Element | null>(null);
  // A turn with a durable run: its Stop cancels the run at the service.
  const durable = conversation?.durableRun !== undefined;
  const underWay =
    conversation !== undefined &&
    conversation.status !== 'idle' &&
    conversation.status !== 'loading';
  const shown = open && durable && underWay;

  // Where the composer is: the confirm's parent, kept for after the confirm is gone.
  const container = useRef<Element | null>(null);
  const confirmRef = (element: HTMLDivElement | null) => {
    if (element !== null) container.current = element.parentElement;
  };
  // The step's code loads once a turn has a durable run, before its Stop is pressed.
  useEffect(() => {
    if (durable) void lazyCancelConfirm.preload();
  }, [durable]);
  const composerBox = () =>
    container.current?.querySelector<HTMLTextAreaElement>('textarea') ?? null;
  const close = (focus: 'opener' | 'composer') => {
    setOpen(false);
    const target =
      focus === 'opener' && opener.current instanceof HTMLElement && opener.current.isConnected
        ? opener.current
        : composerBox();
    target?.focus();
  };
  useEffect(() => {
    if (shown) return;
    // The turn settled while the step was open: nothing is left to cancel, and focus, lost with
    // the step, goes to the composer.
    if (open) {
      setOpen(false);
      if (document.activeElement === document.body) composerBox()?.focus();
    }
  }, [shown, open]);

  const onStop = () => {
    if (!durable) {
      stop();
      return;
    }
    // Asked already: a second cancellation would only be a second request.
    if (conversation.durableRun?.status === 'cancelling') return;
    opener.current = document.activeElement;
    setOpen(true);
  };
  const confirm = shown ? (
    <lazyCancelConfirm.Part
      confirmRef={confirmRef}
      className="ack-console__cancel-confirm"
      onConfirm={() => {
        close('composer');
        stop();
      }}
      onDismiss={() => close('opener')}
    />
  ) : null;
  return { onStop, confirm };
}
