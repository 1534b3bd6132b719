import {
  Component,
  forwardRef,
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  type RefAttributes,
  type UIEvent,
} from 'react';
import type {
  ConversationMessage,
  ConversationStatus,
} from '../core/conversation/agent-conversation.js';
import type { AgentError } from '../core/wire/errors.js';
import {
  answerAnnouncement,
  answerFailureText,
  answerWaitingText,
  formatCount,
} from '../core/console/run-wording.js';
import {
  classNames,
  createPartContext,
  dataFlag,
  useComposedRefs,
  visuallyHidden,
  named,
} from './part-helpers.js';
import { useCopyText } from './use-copy-text.js';
import { useFollowEnd } from './use-follow-end.js';

/** What the parts of an {@link AgentThreadRoot} share. */
interface ThreadContextValue {
  messages: readonly ConversationMessage[];
  status: ConversationStatus;
  agentName: string;
  userName: string;
  onRetry: (() => void) | undefined;
  onEdit: ((messageId: string, text: string) => void) | undefined;
  onSelect: ((messageId: string) => void) | undefined;
  canSelect: ((message: ConversationMessage) => boolean) | undefined;
  selectedId: string | undefined;
  reconnectReason: AgentError | undefined;
  nextAttemptAt: number | undefined;
  renderText: ((text: string) => ReactNode) | undefined;
  /** Index of the first message shown; the ones before it wait behind "Show earlier messages". */
  shownFrom: number;
  /** How many earlier messages the next "Show earlier messages" reveals. */
  earlierPageSize: number;
  /** Reveals the next page of earlier messages. */
  showEarlier: () => void;
  /** The scrolling element ({@link AgentThreadViewport} registers it), `null` without one. */
  scrollElement: RefObject<HTMLElement | null>;
}

const [ThreadContext, useThreadContext] =
  /* @__PURE__ */ createPartContext<ThreadContextValue>('AgentThreadRoot');

/** Props of {@link AgentThreadRoot} (and of {@link AgentThread}). */
export interface AgentThreadRootProps
  extends Omit<ComponentPropsWithoutRef<'section'>, 'onSelect'>, RefAttributes<HTMLElement> {
  /** The thread (`useAgentConversation().messages`), oldest first. */
  messages: readonly ConversationMessage[];
  /**
   * The conversation's status: a turn under way shows its answer as being written.
   * @default 'idle'
   */
  status?: ConversationStatus;
  /**
   * The agent's name, in the label of its messages.
   * @default 'Agent'
   */
  agentName?: string;
  /**
   * The person's name, in the label of their messages.
   * @default 'You'
   */
  userName?: string;
  /**
   * Renders an answer's text, e.g. as Markdown: `renderMarkdown` from `agent-console-kit/markdown`.
   * The person's own messages stay plain text.
   * @default undefined (plain text)
   */
  renderText?: (text: string) => ReactNode;
  /**
   * Called by Retry on the last answer when it failed or was stopped. No Retry without it.
   * @default undefined
   */
  onRetry?: () => void;
  /**
   * Called when the person edits the last USER message and saves it. No Edit without it.
   * @default undefined
   */
  onEdit?: (messageId: string, text: string) => void;
  /**
   * Called with an answer's id when the person asks to see its run (e.g. in an event log). No
   * button without it.
   * @default undefined
   */
  onSelect?: (messageId: string) => void;
  /**
   * Which answers offer "Show run" (e.g. those with a run in this session).
   * @default every answer
   */
  canSelect?: (message: ConversationMessage) => boolean;
  /**
   * The answer whose run is shown elsewhere (`data-selected`).
   * @default undefined
   */
  selectedId?: string | undefined;
  /**
   * Why the turn is waiting to try again (`conversation.run.reconnectReason`): the answer says so.
   * @default undefined
   */
  reconnectReason?: AgentError | undefined;
  /**
   * When the turn tries again (`conversation.run.nextAttemptAt`).
   * @default undefined
   */
  nextAttemptAt?: number | undefined;
  /**
   * How many of the newest messages are shown. The earlier ones are not rendered: a
   * "Show 50 earlier messages" button above the thread reveals them a page at a time, keeping the
   * reader's place, and says how many are not shown. A new turn keeps the newest in view (the count
   * runs from the end); pages revealed stay until the thread is cleared. `Infinity` shows every
   * message, with no button (as before this option). Rounded down; at least 1.
   * @default 100
   */
  visibleMessages?: number;
  /**
   * How many earlier messages each "Show earlier messages" reveals (`Infinity`: all of them at
   * once). Rounded down; at least 1.
   * @default 50
   */
  earlierPageSize?: number;
}

/** A count option: a whole number, at least 1 (`Infinity` stays). */
function atLeastOne(value: number): number {
  return Number.isNaN(value) ? 1 : Math.max(1, Math.floor(value));
}

/**
 * The root of a thread's parts: it shares the messages and the actions with them, and carries
 * `data-status`. Lay out {@link AgentThreadViewport}, {@link AgentThreadMessages} (or your own
 * {@link AgentThreadMessage} list) and {@link AgentThreadAnnouncer} inside it. Its `ref` is the
 * thread's `<section>`.
 */
export const AgentThreadRoot = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentThreadRootProps>(AgentThreadRootRender),
  'AgentThreadRoot',
);

function AgentThreadRootRender(
  {
    messages,
    status = 'idle',
    agentName = 'Agent',
    userName = 'You',
    onRetry,
    onEdit,
    onSelect,
    canSelect,
    selectedId,
    reconnectReason,
    nextAttemptAt,
    renderText,
    visibleMessages = 100,
    earlierPageSize = 50,
    className,
    children,
    ...rest
  }: AgentThreadRootProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const scrollElement = useRef<HTMLElement | null>(null);
  const pageSize = atLeastOne(earlierPageSize);
  // The pages revealed belong to this thread: a thread cleared (or another one, with another first
  // message) starts again from `visibleMessages`.
  const firstId = messages[0]?.id;
  const [revealed, setRevealed] = useState({ firstId, count: 0 });
  if (revealed.firstId !== firstId) setRevealed({ firstId, count: 0 });
  const revealedCount = revealed.firstId === firstId ? revealed.count : 0;
  const shown = atLeastOne(visibleMessages) + revealedCount;
  const shownFrom = Math.max(0, messages.length - shown);
  const showEarlier = () =>
    setRevealed({ firstId, count: revealedCount + Math.min(pageSize, shownFrom) });
  const value: ThreadContextValue = {
    messages,
    status,
    agentName,
    userName,
    onRetry,
    onEdit,
    onSelect,
    canSelect,
    selectedId,
    reconnectReason,
    nextAttemptAt,
    renderText,
    shownFrom,
    earlierPageSize: pageSize,
    showEarlier,
    scrollElement,
  };
  return (
    <ThreadContext.Provider value={value}>
      <section
        ref={ref}
        aria-label={rest['aria-label'] ?? 'Conversation'}
        className={classNames('ack-root', 'ack-thread', className)}
        data-status={status}
        data-empty={dataFlag(messages.length === 0)}
        {...rest}
      >
        {children}
      </section>
    </ThreadContext.Provider>
  );
}

/** Props of {@link AgentThreadViewport}. */
export interface AgentThreadViewportProps
  extends ComponentPropsWithoutRef<'div'>, RefAttributes<HTMLDivElement> {
  /**
   * The height of the scrolling area (a number is pixels); `undefined` lets the CSS decide.
   * @default undefined
   */
  height?: number | string;
}

/** How close to the bottom (px) still counts as "at the bottom": following continues. */
const bottomThreshold = 32;

/**
 * The scrolling area of a thread. It follows the newest message while the reader is at the bottom;
 * scrolling up stops following and shows "Jump to the newest message". It never moves focus on its
 * own. Carries `data-following`. Its props and its `ref` are the scrolling element's (the `log`).
 */
export const AgentThreadViewport = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentThreadViewportProps>(AgentThreadViewportRender),
  'AgentThreadViewport',
);

function AgentThreadViewportRender(
  { height, className, style, children, onScroll, ...rest }: AgentThreadViewportProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { messages, shownFrom, scrollElement } = useThreadContext('AgentThreadViewport');
  const scrollRef = useRef<HTMLDivElement>(null);
  const registerScrollElement = useCallback(
    (element: HTMLDivElement | null) => {
      scrollElement.current = element;
    },
    [scrollElement],
  );
  const composedRef = useComposedRefs(ref, useComposedRefs(scrollRef, registerScrollElement));
  const {
    following,
    followingRef,
    handleScroll: followScroll,
    follow,
    scrollToEnd,
  } = useFollowEnd(bottomThreshold);
  const last = messages.at(-1);
  const empty = messages.length === 0;
  const someHidden = shownFrom > 0;

  // Every change of the newest message (a new one, a new token) keeps the bottom in view.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (following && element) scrollToEnd(element);
  }, [following, messages.length, last?.text, last?.status, scrollToEnd]);

  // Messages off screen are laid out lazily (content-visibility), so the content's height changes
  // after the scroll: while following, stay at the bottom.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || element.children.length === 0 || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (followingRef.current) scrollToEnd(element);
    });
    // The list, and "Show earlier messages" above it while some are hidden.
    for (const content of element.children) observer.observe(content);
    return () => observer.disconnect();
  }, [empty, someHidden, followingRef, scrollToEnd]);

  const handleScroll = (event: UIEvent<HTMLDivElement>) => {
    onScroll?.(event);
    followScroll(event.currentTarget);
  };

  const jump = () => {
    follow();
    const element = scrollRef.current;
    if (element) {
      scrollToEnd(element);
      // The button goes away: focus goes to the thread rather than to the page's body.
      element.focus({ preventScroll: true });
    }
  };

  return (
    <div className="ack-thread__frame">
      {/* aria-live="off": tokens are not read as they arrive; the announcer reads a finished answer once. */}
      <div
        ref={composedRef}
        role="log"
        aria-live="off"
        aria-label="Messages"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        className={classNames('ack-thread__viewport', className)}
        data-following={dataFlag(following)}
        style={{ height, overflowY: 'auto', ...style }}
        onScroll={handleScroll}
        {...rest}
      >
        {children}
      </div>
      {!following ? (
        <button type="button" className="ack-thread__jump" data-variant="primary" onClick={jump}>
          Jump to the newest message
        </button>
      ) : null}
    </div>
  );
}

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
  let lastUserIndex = -1;
  for (let index = lastIndex; index >= 0; index -= 1) {
    if (messages[index]?.role === 'USER') {
      lastUserIndex = index;
      break;
    }
  }
  const idle = status === 'idle';
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
            <MessageItem
              key={message.id}
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
              onEdit={idle && index === lastUserIndex ? context.onEdit : undefined}
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

/** A message on screen and where it was (its top, in the viewport's coordinates). */
interface ScrollAnchorSnapshot {
  element: Element;
  top: number;
}

interface ScrollAnchorProps {
  shownFrom: number;
  list: RefObject<HTMLOListElement | null>;
  scroller: RefObject<HTMLElement | null>;
}

/**
 * Keeps the first message in view where it is when the messages shown change at the top (a page
 * revealed above it, the oldest shown leaving as a turn arrives): the scroll moves by as much as
 * the messages did. A class for `getSnapshotBeforeUpdate`, the one place that reads the layout
 * before React changes the DOM. The browser's scroll anchoring (`overflow-anchor`, where there is
 * one) misses a page added while the reader is at the top, and some removals above (a test in
 * Chromium shows both); it still keeps the place when messages off screen are laid out late.
 */
class ScrollAnchor extends Component<ScrollAnchorProps> {
  override getSnapshotBeforeUpdate(previous: ScrollAnchorProps): ScrollAnchorSnapshot | null {
    if (previous.shownFrom === this.props.shownFrom) return null;
    const list = this.props.list.current;
    if (!list) return null;
    const scroller = this.props.scroller.current;
    const viewTop = scroller ? scroller.getBoundingClientRect().top : 0;
    for (const element of list.children) {
      const box = element.getBoundingClientRect();
      if (box.bottom > viewTop) return { element, top: box.top };
    }
    return null;
  }

  override componentDidUpdate(
    _previous: ScrollAnchorProps,
    _state: unknown,
    snapshot: ScrollAnchorSnapshot | null,
  ) {
    if (!snapshot?.element.isConnected) return;
    const moved = snapshot.element.getBoundingClientRect().top - snapshot.top;
    if (moved === 0) return;
    const scroller = this.props.scroller.current;
    if (scroller) scroller.scrollTop += moved;
    else window.scrollBy(0, moved);
  }

  override render() {
    return null;
  }
}

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
 * (`data-role`, `data-status`, `data-selected`) and its actions: Copy on an answer, Retry, Edit.
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
          {onRetry ? (
            <button type="button" className="ack-thread__retry" onClick={onRetry}>
              Retry
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

const MessageItem = AgentThreadMessage;

/** The editing of a USER message: its draft, and Save (which sends) and Cancel. */
function useMessageEdit(
  message: ConversationMessage,
  onEdit: ((messageId: string, text: string) => void) | undefined,
) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.text);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  // Cancel returns focus to Edit, which renders again only after the editor is gone.
  const [refocusEdit, setRefocusEdit] = useState(false);
  useEffect(() => {
    if (!refocusEdit) return;
    editButtonRef.current?.focus();
    setRefocusEdit(false);
  }, [refocusEdit]);

  const start = () => {
    setDraft(message.text);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setDraft(message.text);
    setRefocusEdit(true);
  };
  const save = () => {
    if (draft.trim() === '') return;
    setEditing(false);
    onEdit?.(message.id, draft);
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      cancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };
  return { editing, draft, setDraft, editButtonRef, start, cancel, save, handleKeyDown };
}

/** The editor of a USER message, in place of its text. */
function MessageEditor({ id, edit }: { id: string; edit: ReturnType<typeof useMessageEdit> }) {
  const { draft, setDraft, save, cancel, handleKeyDown } = edit;
  return (
    <div className="ack-thread__edit">
      <label htmlFor={`${id}edit`} className="ack-thread__edit-label">
        Edit your message
      </label>
      <textarea
        id={`${id}edit`}
        className="ack-thread__edit-input"
        value={draft}
        rows={3}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the person asked to edit: the text goes where they look
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <div className="ack-thread__actions">
        <button
          type="button"
          className="ack-thread__save"
          onClick={save}
          disabled={draft.trim() === ''}
        >
          Save and send
        </button>
        <button type="button" className="ack-thread__cancel" onClick={cancel}>
          Cancel
        </button>
      </div>
    </div>
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

/** Props of {@link AgentThreadAnnouncer}. */
export interface AgentThreadAnnouncerProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {}

/**
 * A polite live region that reads each answer once, when it is complete (or says it stopped or
 * failed): never token by token, never the answers restored or settled before it mounted. Its
 * `ref` is the region (`role="status"`).
 */
export const AgentThreadAnnouncer = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentThreadAnnouncerProps>(AgentThreadAnnouncerRender),
  'AgentThreadAnnouncer',
);

function AgentThreadAnnouncerRender(
  { className, ...rest }: AgentThreadAnnouncerProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { messages, agentName } = useThreadContext('AgentThreadAnnouncer');
  const [announcement, setAnnouncement] = useState('');
  const streamingRef = useRef(new Set<string>());

  useEffect(() => {
    const streaming = streamingRef.current;
    let next: string | undefined;
    for (const message of messages) {
      if (message.role !== 'GLEAN_AI') continue;
      // A durable turn waiting for approval has not settled: it is announced once it does.
      if (message.status === 'streaming' || message.status === 'waiting') {
        streaming.add(message.id);
      } else if (streaming.delete(message.id)) {
        next = answerAnnouncement(agentName, message);
      }
    }
    // Answers dropped by an edit, a retry or a clear are no longer awaited.
    for (const id of streaming) {
      if (!messages.some((message) => message.id === id)) streaming.delete(id);
    }
    if (next !== undefined) setAnnouncement(next);
  }, [messages, agentName]);

  return (
    <div
      ref={ref}
      role="status"
      aria-live="polite"
      className={classNames('ack-thread__announcer', className)}
      style={visuallyHidden}
      {...rest}
    >
      {announcement}
    </div>
  );
}

/** Props of {@link AgentThread}. */
export interface AgentThreadProps extends AgentThreadRootProps {
  /**
   * The height of the scrolling area (a number is pixels).
   * @default undefined (the stylesheet's: up to 60vh)
   */
  height?: number | string;
}

/**
 * The transcript of a conversation: USER and agent messages told apart (visually and for screen
 * readers), the answer being written with a streaming indicator (and why it waits, on a 429),
 * stopped and failed answers marked with the error and Retry on the last one, Copy on each
 * answer, Edit on the last USER message. Follows the newest message while the reader is at the
 * bottom, never moves focus on its own, and reads a finished answer once in a polite live region.
 * A long thread shows its newest `visibleMessages` (100) and a "Show 50 earlier messages" button
 * above them (`visibleMessages={Infinity}` shows every message); when the last page takes the
 * button away, focus goes to the thread. Text only: nothing is rendered as HTML. Built from its
 * parts, for a layout of your own: `AgentThread.Root`, `.Viewport`, `.Messages`, `.Message`,
 * `.Announcer` (each also a named export, `AgentThreadRoot` …, for server components, which cannot
 * reach a part through a dot); its `ref` is the thread's `<section>` (the one `.Root` renders).
 *
 * @example
 * const chat = useAgentConversation({ agentId: 'helpdesk' });
 * <AgentThread
 *   messages={chat.messages}
 *   status={chat.status}
 *   reconnectReason={chat.run.reconnectReason}
 *   nextAttemptAt={chat.run.nextAttemptAt}
 *   onRetry={() => void chat.retry()}
 *   onEdit={(id, text) => void chat.edit(id, text)}
 * />
 */
export const AgentThread = /* @__PURE__ */ Object.assign(
  /* @__PURE__ */ named(
    /* @__PURE__ */ forwardRef<HTMLElement, AgentThreadProps>(AgentThreadRender),
    'AgentThread',
  ),
  {
    Root: AgentThreadRoot,
    Viewport: AgentThreadViewport,
    Messages: AgentThreadMessages,
    Message: AgentThreadMessage,
    Announcer: AgentThreadAnnouncer,
  },
);

function AgentThreadRender(
  { height, ...rootProps }: AgentThreadProps,
  ref: ForwardedRef<HTMLElement>,
) {
  return (
    <AgentThreadRoot ref={ref} {...rootProps}>
      <AgentThreadViewport height={height}>
        <AgentThreadMessages />
      </AgentThreadViewport>
      <AgentThreadAnnouncer />
    </AgentThreadRoot>
  );
}
