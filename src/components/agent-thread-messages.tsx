import {
  forwardRef,
  useId,
  useLayoutEffect,
  useRef,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type MouseEvent,
  type ReactNode,
  type RefAttributes,
} from 'react';
import { answerWaitingText, formatCount } from '../core/console/run-wording.js';
import { useThreadContext } from './agent-thread-context.js';
import { AgentThreadMessage } from './agent-thread-message.js';
import { ScrollAnchor } from './agent-thread-scroll-anchor.js';
import { classNames, useComposedRefs, named } from './part-helpers.js';

/** Props of {@link AgentThreadMessages}. */
export interface AgentThreadMessagesProps
  extends Omit<ComponentPropsWithoutRef<'ol'>, 'children'>, RefAttributes<HTMLOListElement> {
  /**
   * What an empty thread shows.
   * @default 'No messages yet.'
   */
  empty?: ReactNode;
}

/**
 * The thread's newest messages (`visibleMessages` of {@link AgentThreadRoot}), as
 * {@link AgentThreadMessage}s in a list, and above them, while earlier ones are not shown, a
 * "Show 50 earlier messages" button that reveals a page of them without moving the messages in
 * view (described by how many are not shown). Its `ref` is the `<ol>` (`null` while the thread is
 * empty and shows `empty` instead).
 */
export const AgentThreadMessages = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLOListElement, AgentThreadMessagesProps>(AgentThreadMessagesRender),
  'AgentThreadMessages',
);

function AgentThreadMessagesRender(
  { empty = 'No messages yet.', className, ...rest }: AgentThreadMessagesProps,
  ref: ForwardedRef<HTMLOListElement>,
) {
  const context = useThreadContext('AgentThreadMessages');
  const { messages, status, shownFrom, earlierPageSize, showEarlier, scrollElement } = context;
  const listRef = useRef<HTMLOListElement>(null);
  const composedRef = useComposedRefs(ref, listRef);
  const noteId = useId();
  // Whether "Show earlier messages" had focus when it was pressed.
  const buttonHadFocus = useRef(false);

  useLayoutEffect(() => {
    const hadFocus = buttonHadFocus.current;
    buttonHadFocus.current = false;
    if (hadFocus && shownFrom === 0) {
      // The button went away with the last page: focus goes to the thread (as after "Jump to the
      // newest message"), not to the page's body, and nothing scrolls.
      const scroller = scrollElement.current;
      const target = scroller ?? listRef.current?.firstElementChild;
      if (target instanceof HTMLElement) {
        if (!scroller) target.tabIndex = -1;
        target.focus({ preventScroll: true });
      }
    }
  }, [shownFrom, scrollElement]);

  if (messages.length === 0) return <p className="ack-thread__empty">{empty}</p>;

  const handleShowEarlier = (event: MouseEvent<HTMLButtonElement>) => {
    buttonHadFocus.current = document.activeElement === event.currentTarget;
    showEarlier();
  };
  const nextPage = Math.min(earlierPageSize, shownFrom);
  const lastIndex = messages.length - 1;
  const lastStatus = messages[lastIndex]?.status;
  // Retry stands for Regenerate on the last answer when it failed or stopped.
  const retries =
    context.onRetry !== undefined && (lastStatus === 'error' || lastStatus === 'stopped');
  const idle = status === 'idle';
  const { versions } = context;
  return (
    <>
      {shownFrom > 0 ? (
        <div className="ack-thread__earlier">
          <button
            type="button"
            className="ack-thread__earlier-button"
            aria-describedby={noteId}
            onClick={handleShowEarlier}
          >
            Show {formatCount(nextPage)} earlier {nextPage === 1 ? 'message' : 'messages'}
          </button>
          <p id={noteId} className="ack-thread__earlier-note">
            {formatCount(shownFrom)} earlier {shownFrom === 1 ? 'message' : 'messages'} not shown
          </p>
        </div>
      ) : null}
      <ScrollAnchor shownFrom={shownFrom} list={listRef} scroller={scrollElement} />
      <ol ref={composedRef} className={classNames('ack-thread__messages', className)} {...rest}>
        {messages.slice(shownFrom).map((message, offset) => {
          const index = shownFrom + offset;
          return (
            <AgentThreadMessage
              // The versions of a turn are one item: focus stays on ‹ › as the version changes.
              key={versions.get(message.id)?.ids[0] ?? message.id}
              message={message}
              agentName={context.agentName}
              userName={context.userName}
              renderText={context.renderText}
              onRetry={
                idle &&
                index === lastIndex &&
                (message.status === 'error' || message.status === 'stopped')
                  ? context.onRetry
                  : undefined
              }
              onEdit={message.role === 'USER' && status !== 'loading' ? context.onEdit : undefined}
              onRegenerate={
                idle && message.role === 'GLEAN_AI' && !(index === lastIndex && retries)
                  ? context.onRegenerate
                  : undefined
              }
              version={versions.get(message.id)}
              onShowVersion={context.onShowVersion}
              busy={!idle}
              onSelect={
                message.role === 'GLEAN_AI' && (context.canSelect?.(message) ?? true)
                  ? context.onSelect
                  : undefined
              }
              selected={context.selectedId === message.id}
              waiting={
                message.status === 'streaming'
                  ? answerWaitingText(context.reconnectReason, context.nextAttemptAt)
                  : undefined
              }
            />
          );
        })}
      </ol>
    </>
  );
}
