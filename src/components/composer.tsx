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
import type { ConversationStatus } from '../core/conversation/agent-conversation.js';
import { SendIcon, StopIcon } from './icons.js';
import { classNames, dataFlag, isSendKey, named } from './part-helpers.js';

/**
 * Props of {@link Composer}, the one composer that `MessageComposer` and `AgentThreadComposer`
 * preset (their props say what each means).
 */
export interface ComposerProps
  extends
    Omit<ComponentPropsWithoutRef<'form'>, 'onSubmit' | 'children'>,
    RefAttributes<HTMLFormElement> {
  /** The class of the form, and the prefix of its parts' classes (`${classPrefix}__input` …). */
  classPrefix: 'ack-composer' | 'ack-thread-composer';
  /** Called with the trimmed text; never with blank text. */
  onSendText: (text: string) => void;
  /** Called by Stop (and Escape in the text area) while a turn runs. */
  onStop?: (() => void) | undefined;
  /** A conversation's status (sets `data-status`): while a turn runs, Stop replaces Send. */
  status?: ConversationStatus | undefined;
  disabled?: boolean | undefined;
  label?: ReactNode;
  sendLabel?: ReactNode;
  placeholder?: string | undefined;
  defaultValue?: string | undefined;
  keepAfterSend?: boolean | undefined;
  rows: number;
  actions?: ReactNode;
}

/**
 * A text area that sends on Enter (Shift+Enter adds a line; Enter while an input method composes
 * does nothing), never sends blank text, and while a turn runs shows Stop instead of Send (Escape
 * stops too). Carries `data-disabled`, `data-empty` and, with a status, `data-status`.
 */
export const Composer = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLFormElement, ComposerProps>(ComposerRender),
  'Composer',
);

function ComposerRender(
  {
    classPrefix,
    onSendText,
    onStop,
    status,
    disabled = false,
    label = 'Message',
    sendLabel = 'Send',
    placeholder,
    defaultValue = '',
    keepAfterSend = false,
    rows,
    actions,
    className,
    ...rest
  }: ComposerProps,
  ref: ForwardedRef<HTMLFormElement>,
) {
  const id = useId();
  const hintId = `${id}hint`;
  const [text, setText] = useState(defaultValue);
  const busy = status !== undefined && status !== 'idle';
  const blank = text.trim() === '';

  const send = () => {
    if (disabled || busy || blank) return;
    onSendText(text.trim());
    if (!keepAfterSend) setText('');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && busy) {
      event.preventDefault();
      onStop?.();
      return;
    }
    if (!isSendKey(event)) return;
    event.preventDefault();
    send();
  };

  return (
    <form
      ref={ref}
      className={classNames('ack-root', classPrefix, className)}
      data-status={status}
      data-empty={dataFlag(blank)}
      data-disabled={dataFlag(disabled)}
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        send();
      }}
      {...rest}
    >
      <label htmlFor={`${id}text`} className={`${classPrefix}__label`}>
        {label}
      </label>
      <textarea
        id={`${id}text`}
        className={`${classPrefix}__input`}
        rows={rows}
        value={text}
        placeholder={placeholder}
        disabled={disabled}
        aria-describedby={hintId}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <div className={`${classPrefix}__footer`}>
        <p id={hintId} className={`${classPrefix}__hint`}>
          {status === 'waiting'
            ? 'The agent waits for your approval: Stop or Escape ends the answer.'
            : busy
              ? 'The agent is answering: Stop or Escape ends the answer.'
              : 'Enter sends, Shift+Enter adds a line.'}
        </p>
        <div className="ack-actions">
          {busy ? (
            <button
              type="button"
              className={`${classPrefix}__stop`}
              data-variant="secondary"
              onClick={onStop}
            >
              <StopIcon />
              Stop
            </button>
          ) : (
            <button
              type="submit"
              className={`${classPrefix}__send`}
              data-variant="primary"
              disabled={disabled || blank}
              data-disabled={dataFlag(disabled || blank)}
            >
              <SendIcon />
              {sendLabel}
            </button>
          )}
          {actions}
        </div>
      </div>
    </form>
  );
}
