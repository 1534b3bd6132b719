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
import type { ConversationStatus } from '../core/agent-conversation.js';
import { SendIcon, StopIcon } from './icons.js';
import { classNames, dataFlag, isSendKey, named } from './part-helpers.js';

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
  {
    onSend,
    onStop,
    status = 'idle',
    disabled = false,
    label = 'Message',
    placeholder,
    rows = 2,
    actions,
    className,
    ...rest
  }: AgentThreadComposerProps,
  ref: ForwardedRef<HTMLFormElement>,
) {
  const id = useId();
  const [text, setText] = useState('');
  const busy = status !== 'idle';
  const blank = text.trim() === '';

  const send = () => {
    if (disabled || busy || blank) return;
    onSend(text.trim());
    setText('');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && busy) {
      event.preventDefault();
      onStop();
      return;
    }
    if (!isSendKey(event)) return;
    event.preventDefault();
    send();
  };

  return (
    <form
      ref={ref}
      className={classNames('ack-root', 'ack-thread-composer', className)}
      data-status={status}
      data-empty={dataFlag(blank)}
      data-disabled={dataFlag(disabled)}
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        send();
      }}
      {...rest}
    >
      <label htmlFor={`${id}text`} className="ack-thread-composer__label">
        {label}
      </label>
      <textarea
        id={`${id}text`}
        className="ack-thread-composer__input"
        rows={rows}
        value={text}
        placeholder={placeholder}
        disabled={disabled}
        aria-describedby={`${id}hint`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <div className="ack-thread-composer__footer">
        <p id={`${id}hint`} className="ack-thread-composer__hint">
          {busy
            ? 'The agent is answering: Stop or Escape ends the answer.'
            : 'Enter sends, Shift+Enter adds a line.'}
        </p>
        <div className="ack-actions">
          {busy ? (
            <button
              type="button"
              className="ack-thread-composer__stop"
              data-variant="secondary"
              onClick={onStop}
            >
              <StopIcon />
              Stop
            </button>
          ) : (
            <button
              type="submit"
              className="ack-thread-composer__send"
              data-variant="primary"
              disabled={disabled || blank}
            >
              <SendIcon />
              Send
            </button>
          )}
          {actions}
        </div>
      </div>
    </form>
  );
}
