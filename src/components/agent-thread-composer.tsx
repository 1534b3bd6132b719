import {
  forwardRef,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type { ConversationStatus } from '../core/conversation/agent-conversation.js';
import { Composer } from './composer.js';
import { named } from './part-helpers.js';

/** Props of {@link AgentThreadComposer}. */
export interface AgentThreadComposerProps
  extends
    Omit<ComponentPropsWithoutRef<'form'>, 'onSubmit' | 'children'>,
    RefAttributes<HTMLFormElement> {
  /** Called with the trimmed text when the person sends (Enter or Send); never with blank text. */
  onSend: (text: string) => void;
  /** Called by Stop (and Escape in the text area) while a turn runs. */
  onStop: () => void;
  /**
   * The conversation's status: while a turn runs, Stop replaces Send and Enter sends nothing.
   * @default 'idle'
   */
  status?: ConversationStatus;
  /**
   * Disables the whole composer (e.g. while the agent loads).
   * @default false
   */
  disabled?: boolean;
  /**
   * The text area's label.
   * @default 'Message'
   */
  label?: ReactNode;
  /**
   * The text area's placeholder.
   * @default undefined
   */
  placeholder?: string;
  /**
   * Rows of the text area.
   * @default 2
   */
  rows?: number;
  /**
   * More buttons after Send (or Stop), in the same action bar (the console puts Clear there).
   * @default undefined
   */
  actions?: ReactNode;
}

/**
 * The composer under a thread: Enter sends, Shift+Enter adds a line, Stop replaces Send while a
 * turn runs (Escape stops it too). The text area stays enabled and focused after sending, so the
 * next question can be typed while the answer streams. Carries `data-status`, `data-empty`.
 *
 * @example
 * <AgentThreadComposer status={chat.status} onSend={(text) => void chat.send(text)} onStop={chat.stop} />
 */
export const AgentThreadComposer = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLFormElement, AgentThreadComposerProps>(AgentThreadComposerRender),
  'AgentThreadComposer',
);

function AgentThreadComposerRender(
  { onSend, status = 'idle', rows = 2, ...rest }: AgentThreadComposerProps,
  ref: ForwardedRef<HTMLFormElement>,
) {
  return (
    <Composer
      ref={ref}
      classPrefix="ack-thread-composer"
      status={status}
      rows={rows}
      onSendText={onSend}
      {...rest}
      // The text area starts empty: a `defaultValue` here is the form's attribute, not the text.
      defaultValue={undefined}
    />
  );
}
