import {
  forwardRef,
  useEffect,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type {
  ConversationMessage,
  ConversationStatus,
  MessageVersion,
} from '../core/conversation/agent-conversation.js';
import type { AgentError } from '../core/wire/errors.js';
import { answerAnnouncement } from '../core/console/run-wording.js';
import {
  ThreadContext,
  useThreadContext,
  type ThreadContextValue,
} from './agent-thread-context.js';
import { AgentThreadMessage, type AgentThreadMessageProps } from './agent-thread-message.js';
import { AgentThreadMessages, type AgentThreadMessagesProps } from './agent-thread-messages.js';
import { AgentThreadViewport, type AgentThreadViewportProps } from './agent-thread-viewport.js';
import { versionText } from './agent-thread-versions.js';
import { classNames, dataFlag, visuallyHidden, named } from './part-helpers.js';

export { AgentThreadMessage, type AgentThreadMessageProps };
export { AgentThreadMessages, type AgentThreadMessagesProps };
export { AgentThreadViewport, type AgentThreadViewportProps };

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
   * Called when the person edits a USER message and saves it, also while a turn runs (pass an
   * edit that stops it first: `chat.edit(id, text, { stopRunning: true })`, as the console
   * does). No Edit without it.
   * @default undefined
   */
  onEdit?: (messageId: string, text: string) => void;
  /**
   * Called by Regenerate on a settled answer (`chat.regenerate`: the previous answer is kept as
   * a version). No Regenerate without it.
   * @default undefined
   */
  onRegenerate?: (answerId: string) => void;
  /**
   * The messages that begin one of several versions (`chat.versions`): each shows ‹ 1 / 2 ›.
   * @default no versions
   */
  versions?: ReadonlyMap<string, MessageVersion>;
  /**
   * Called with the first message of the version to show (`chat.showVersion`). No version
   * buttons without it.
   * @default undefined
   */
  onShowVersion?: (messageId: string) => void;
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

const noVersions: ReadonlyMap<string, MessageVersion> = new Map();

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
    onRegenerate,
    versions = noVersions,
    onShowVersion,
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
    onRegenerate,
    versions,
    onShowVersion,
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

/** Props of {@link AgentThreadAnnouncer}. */
export interface AgentThreadAnnouncerProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {}

/**
 * A polite live region that reads each answer once, when it is complete (or says it stopped or
 * failed), and a change of version once ("Version 1 of 2"): never token by token, never the
 * answers restored or settled before it mounted. Its `ref` is the region (`role="status"`).
 */
export const AgentThreadAnnouncer = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentThreadAnnouncerProps>(AgentThreadAnnouncerRender),
  'AgentThreadAnnouncer',
);

function AgentThreadAnnouncerRender(
  { className, ...rest }: AgentThreadAnnouncerProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { messages, agentName, versions } = useThreadContext('AgentThreadAnnouncer');
  const [announcement, setAnnouncement] = useState('');
  const streamingRef = useRef(new Set<string>());
  // The version shown at each fork (named by its versions), as last rendered.
  const shownRef = useRef<Map<string, number> | undefined>(undefined);

  useEffect(() => {
    const shown = new Map<string, number>();
    let next: string | undefined;
    for (const version of versions.values()) {
      const fork = version.ids.join(' ');
      const before = shownRef.current?.get(fork);
      if (before !== undefined && before !== version.index) next = versionText(version);
      shown.set(fork, version.index);
    }
    shownRef.current = shown;
    if (next !== undefined) setAnnouncement(next);
  }, [versions]);

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
    // Answers no longer shown (another version, a clear) are no longer awaited.
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
 * stopped and failed answers marked with the error and Retry on the last one, Copy and
 * Regenerate on each answer, Edit on each USER message, ‹ 1 / 2 › between the versions of a turn. Follows the newest message while the reader is at the
 * bottom, never moves focus on its own, and reads a finished answer once in a polite live region.
 * A long thread shows its newest `visibleMessages` (100) and a "Show 50 earlier messages" button
 * above them (`visibleMessages={Infinity}` shows every message); when the last page takes the
 * button away, focus goes to the thread. Text only: nothing is rendered as HTML. Built from its
 * parts, for a layout of your own: `AgentThread.Root`, `.Viewport`, `.Messages`, `.Message`,
 * `.Announcer` (compose them in a client component: a server component cannot reach a part
 * through a dot); its `ref` is the thread's `<section>` (the one `.Root` renders).
 *
 * @example
 * const chat = useAgentConversation({ agentId: 'helpdesk' });
 * <AgentThread
 *   messages={chat.messages}
 *   status={chat.status}
 *   reconnectReason={chat.run.reconnectReason}
 *   nextAttemptAt={chat.run.nextAttemptAt}
 *   onRetry={() => void chat.retry()}
 *   onEdit={(id, text) => void chat.edit(id, text, { stopRunning: true })}
 *   onRegenerate={(id) => void chat.regenerate(id)}
 *   versions={chat.versions}
 *   onShowVersion={chat.showVersion}
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
