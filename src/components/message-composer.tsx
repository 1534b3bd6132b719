import {
  forwardRef,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type { AgentMessage } from '../core/wire/schemas.js';
import { Composer } from './composer.js';
import { named } from './part-helpers.js';

/** Props of {@link MessageComposer}. */
export interface MessageComposerProps
  extends
    Omit<ComponentPropsWithoutRef<'form'>, 'onSubmit' | 'children'>,
    RefAttributes<HTMLFormElement> {
  /**
   * Called with `[{ role: 'USER', content: [{ type: 'text', text }] }]` when the person sends a
   * message (Enter, or the send button). The text is trimmed; a blank one is never sent.
   */
  onSend: (messages: AgentMessage[]) => void;
  /**
   * Disables the text area and the send button (e.g. while a run is active).
   * @default false
   */
  disabled?: boolean;
  /**
   * The text area's label.
   * @default 'Message'
   */
  label?: ReactNode;
  /**
   * The send button's label.
   * @default 'Send'
   */
  sendLabel?: ReactNode;
  /**
   * The text area's placeholder.
   * @default undefined
   */
  placeholder?: string;
  /**
   * The starting text.
   * @default ''
   */
  defaultValue?: string;
  /**
   * Keep the text after sending (e.g. to edit and send again) instead of clearing it.
   * @default false
   */
  keepAfterSend?: boolean;
  /**
   * Rows of the text area.
   * @default 3
   */
  rows?: number;
  /**
   * More buttons for the action bar, after the send button (`AgentConsole` puts Stop, Retry and
   * Clear there).
   * @default undefined
   */
  actions?: ReactNode;
}

/**
 * A text area that sends a message to an agent that takes `messages`. Enter sends, Shift+Enter adds
 * a line (and Enter while an input method is composing does nothing); empty or blank text cannot
 * be sent. Carries `data-disabled` and `data-empty`.
 *
 * @example
 * const run = useAgentRunStream();
 * <MessageComposer
 *   disabled={run.status === 'streaming'}
 *   onSend={(messages) => run.start({ agentId, messages })}
 * />
 */
export const MessageComposer = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLFormElement, MessageComposerProps>(MessageComposerRender),
  'MessageComposer',
);

function MessageComposerRender(
  { onSend, rows = 3, ...rest }: MessageComposerProps,
  ref: ForwardedRef<HTMLFormElement>,
) {
  return (
    <Composer
      ref={ref}
      classPrefix="ack-composer"
      rows={rows}
      onSendText={(text) => onSend([{ role: 'USER', content: [{ type: 'text', text }] }])}
      {...rest}
    />
  );
}
