import {
  forwardRef,
  useId,
  useState,
  type ComponentPropsWithoutRef,
  type FormEvent,
  type ForwardedRef,
  type KeyboardEvent,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type { AgentMessage } from '../core/schemas.js';
import { SendIcon } from './icons.js';
import { classNames, dataFlag, isSendKey, named } from './part-helpers.js';

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
  {
    onSend,
    disabled = false,
    label = 'Message',
    sendLabel = 'Send',
    placeholder,
    defaultValue = '',
    keepAfterSend = false,
    rows = 3,
    actions,
    className,
    ...rest
  }: MessageComposerProps,
  ref: ForwardedRef<HTMLFormElement>,
) {
  const id = useId();
  const hintId = `${id}hint`;
  const [text, setText] = useState(defaultValue);
  const blank = text.trim() === '';

  const send = () => {
    if (disabled || blank) return;
    onSend([{ role: 'USER', content: [{ type: 'text', text: text.trim() }] }]);
    if (!keepAfterSend) setText('');
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!isSendKey(event)) return;
    event.preventDefault();
    send();
  };

  return (
    <form
      ref={ref}
      className={classNames('ack-root', 'ack-composer', className)}
      data-disabled={dataFlag(disabled)}
      data-empty={dataFlag(blank)}
      onSubmit={handleSubmit}
      {...rest}
    >
      <label htmlFor={`${id}text`} className="ack-composer__label">
        {label}
      </label>
      <textarea
        id={`${id}text`}
        className="ack-composer__input"
        rows={rows}
        value={text}
        placeholder={placeholder}
        disabled={disabled}
        aria-describedby={hintId}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <div className="ack-composer__footer">
        <p id={hintId} className="ack-composer__hint">
          Enter sends, Shift+Enter adds a line.
        </p>
        <div className="ack-actions">
          <button
            type="submit"
            className="ack-composer__send"
            data-variant="primary"
            disabled={disabled || blank}
            data-disabled={dataFlag(disabled || blank)}
          >
            <SendIcon />
            {sendLabel}
          </button>
          {actions}
        </div>
      </div>
    </form>
  );
}
