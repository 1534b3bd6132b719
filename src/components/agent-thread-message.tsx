import {
  forwardRef,
  memo,
  useId,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type {
  ConversationMessage,
  MessageVersion,
} from '../core/conversation/agent-conversation.js';
import { answerFailureText } from '../core/console/run-wording.js';
import { MessageEditor, useMessageEdit } from './agent-thread-editor.js';
import { VersionPicker } from './agent-thread-versions.js';
import { classNames, dataFlag, named } from './part-helpers.js';
import { useCopyText } from './use-copy-text.js';

/** Props of {@link AgentThreadMessage}. */
export interface AgentThreadMessageProps
  extends Omit<ComponentPropsWithoutRef<'li'>, 'onSelect'>, RefAttributes<HTMLLIElement> {
  message: ConversationMessage;
  /**
   * The label of an agent message.
   * @default 'Agent'
   */
  agentName?: string;
  /**
   * The label of a USER message.
   * @default 'You'
   */
  userName?: string;
  /** Shows Retry (a failed or stopped answer). @default undefined */
  onRetry?: (() => void) | undefined;
  /** Shows Edit (a USER message). @default undefined */
  onEdit?: ((messageId: string, text: string) => void) | undefined;
  /** Shows Regenerate (an answer). @default undefined */
  onRegenerate?: ((answerId: string) => void) | undefined;
  /** The version this message begins, when its turn has several: shows ‹ 1 / 2 ›. @default undefined */
  version?: MessageVersion | undefined;
  /** Called by ‹ › with the first message of the version to show. @default undefined */
  onShowVersion?: ((messageId: string) => void) | undefined;
  /** A turn runs: ‹ › wait for it. @default false */
  busy?: boolean;
  /** Shows "Show run" (an answer). @default undefined */
  onSelect?: ((messageId: string) => void) | undefined;
  /** @default false */
  selected?: boolean;
  /** Why the answer being written waits (a 429, a dropped connection). @default undefined */
  waiting?: string | undefined;
  /** Renders an answer's text (not the person's). @default undefined (plain text) */
  renderText?: ((text: string) => ReactNode) | undefined;
}

/**
 * One message: who wrote it (labelled for screen readers), its text as plain text, its state
 * (`data-role`, `data-status`, `data-selected`) and its actions: Copy and Regenerate on an answer,
 * Retry, Edit, ‹ 1 / 2 › between versions.
 * Its `ref` is the `<li>`.
 */
export const AgentThreadMessage = /* @__PURE__ */ named(
  /* @__PURE__ */ memo(
    /* @__PURE__ */ forwardRef<HTMLLIElement, AgentThreadMessageProps>(AgentThreadMessageRender),
  ),
  'AgentThreadMessage',
);

function AgentThreadMessageRender(
  {
    message,
    agentName = 'Agent',
    userName = 'You',
    onRetry,
    onEdit,
    onRegenerate,
    version,
    onShowVersion,
    busy = false,
    onSelect,
    selected = false,
    waiting,
    renderText,
    className,
    ...rest
  }: AgentThreadMessageProps,
  ref: ForwardedRef<HTMLLIElement>,
) {
  const id = useId();
  const edit = useMessageEdit(message, onEdit);
  const { editing } = edit;
  const fromUser = message.role === 'USER';
  const author = fromUser ? userName : agentName;

  return (
    <li
      ref={ref}
      aria-labelledby={`${id}author`}
      className={classNames('ack-thread__message', className)}
      data-role={fromUser ? 'user' : 'agent'}
      data-status={message.status}
      data-selected={dataFlag(selected)}
      {...rest}
    >
      <p id={`${id}author`} className="ack-thread__author">
        {fromUser ? `${author} said` : `${author} answered`}
      </p>
      {editing ? (
        <MessageEditor id={id} edit={edit} />
      ) : (
        <div className="ack-thread__text">
          {message.text === '' && message.status === 'streaming'
            ? null
            : !fromUser && renderText
              ? renderText(message.text)
              : message.text}
        </div>
      )}
      {message.status === 'streaming' ? (
        <p className="ack-thread__streaming">
          <span className="ack-thread__dots" aria-hidden="true" />
          {waiting ?? 'Writing…'}
        </p>
      ) : null}
      {message.status === 'waiting' ? (
        <p className="ack-thread__note">The answer is waiting for your approval.</p>
      ) : null}
      {message.status === 'stopped' ? (
        <p className="ack-thread__note">Stopped{message.text === '' ? ' before any text' : ''}.</p>
      ) : null}
      {message.status === 'error' ? (
        <p className="ack-thread__error">{answerFailureText(message)}</p>
      ) : null}
      {!editing ? (
        <div className="ack-thread__actions">
          {!fromUser && message.status !== 'streaming' && message.text !== '' ? (
            <CopyAnswerButton text={message.text} />
          ) : null}
          {version && onShowVersion ? (
            <VersionPicker version={version} disabled={busy} onShow={onShowVersion} />
          ) : null}
          {onRetry ? (
            <button type="button" className="ack-thread__retry" onClick={onRetry}>
              Retry
            </button>
          ) : null}
          {onRegenerate && message.status !== 'streaming' && message.status !== 'waiting' ? (
            <button
              type="button"
              className="ack-thread__regenerate"
              aria-label="Regenerate this answer"
              onClick={() => onRegenerate(message.id)}
            >
              Regenerate
            </button>
          ) : null}
          {onEdit ? (
            <button
              ref={edit.editButtonRef}
              type="button"
              className="ack-thread__edit-button"
              aria-label="Edit your message"
              onClick={edit.start}
            >
              Edit
            </button>
          ) : null}
          {onSelect ? (
            <button
              type="button"
              className="ack-thread__select"
              aria-pressed={selected}
              aria-label="Show run events of this answer"
              onClick={() => onSelect(message.id)}
            >
              Show run
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Copy on an answer: says whether it copied (in its label and `data-state`). */
function CopyAnswerButton({ text }: { text: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copyText = useCopyText();
  return (
    <button
      type="button"
      className="ack-thread__copy"
      data-state={copied}
      aria-label={
        copied === 'copied'
          ? 'Copied the answer'
          : copied === 'failed'
            ? 'Copy failed'
            : 'Copy the answer'
      }
      onClick={() => void copyText(text, (done) => setCopied(done ? 'copied' : 'failed'))}
    >
      {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
