import {
  forwardRef,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type { ThreadSummary } from '../core/storage/thread-store.js';
import {
  ThreadListContext,
  messageOf,
  titleOf,
  useThreadListContext,
  type ThreadListContextValue,
} from './agent-thread-list-context.js';
import { AgentThreadListItem, type AgentThreadListItemProps } from './agent-thread-list-item.js';
import { classNames, dataFlag, named, useComposedRefs, visuallyHidden } from './part-helpers.js';

export { AgentThreadListItem, type AgentThreadListItemProps };

/** Props of {@link AgentThreadListRoot} (and of {@link AgentThreadList}). */
export interface AgentThreadListRootProps
  extends Omit<ComponentPropsWithoutRef<'nav'>, 'onSelect'>, RefAttributes<HTMLElement> {
  /** The threads, in the order shown (`useAgentThreads().threads`: the most recently saved first). */
  threads: readonly ThreadSummary[];
  /**
   * The thread shown now (`aria-current`, `data-selected`).
   * @default undefined
   */
  selectedThreadId?: string | undefined;
  /**
   * The threads are being read (`useAgentThreads().status === 'loading'`): `aria-busy`, and
   * "Loading threads…" rather than "No saved threads yet.".
   * @default false
   */
  loading?: boolean;
  /** Called with a thread's id when the person chooses it. */
  onSelect: (threadId: string) => void;
  /**
   * Called by "New thread" (e.g. `useAgentThreads().create`). No button without it.
   * @default undefined
   */
  onCreate?: () => unknown;
  /**
   * Called with a thread's id and its new title when the person saves a rename (a promise that
   * rejects is announced). No Rename without it.
   * @default undefined
   */
  onRename?: (threadId: string, title: string) => unknown;
  /**
   * Called with a thread's id once the person confirmed its deletion (a promise that rejects is
   * announced). No Delete without it.
   * @default undefined
   */
  onDelete?: (threadId: string) => unknown;
  /**
   * The name shown for a thread without a title.
   * @default 'New thread'
   */
  untitled?: string;
  /**
   * The list's accessible name (and its heading's text in {@link AgentThreadList}).
   * @default 'Threads'
   */
  label?: string;
}

/**
 * The root of a thread list's parts: a `<nav>` that shares the threads and the actions with
 * {@link AgentThreadListNew}, {@link AgentThreadListItems} and {@link AgentThreadListItem}, and
 * owns the focus after a delete (to the next thread, else the previous one, else "New thread")
 * and a polite live region that says what changed. Carries `data-empty` and, while loading,
 * `aria-busy`. Its `ref` is the `<nav>`.
 */
export const AgentThreadListRoot = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentThreadListRootProps>(AgentThreadListRootRender),
  'AgentThreadListRoot',
);

function AgentThreadListRootRender(
  {
    threads,
    selectedThreadId,
    loading = false,
    onSelect,
    onCreate,
    onRename,
    onDelete,
    untitled = 'New thread',
    label = 'Threads',
    className,
    children,
    ...rest
  }: AgentThreadListRootProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const rootRef = useRef<HTMLElement>(null);
  const composedRef = useComposedRefs(ref, rootRef);
  const selectButtons = useRef(new Map<string, HTMLButtonElement>()).current;
  const newButton = useRef<HTMLButtonElement>(null);
  const [announcement, setAnnouncement] = useState('');
  // The thread focus goes to once the deleted one has left the list.
  const [afterDelete, setAfterDelete] = useState<
    { deleted: string; next: string | undefined } | undefined
  >(undefined);

  useEffect(() => {
    if (afterDelete === undefined) return;
    if (threads.some((thread) => thread.id === afterDelete.deleted)) return;
    setAfterDelete(undefined);
    const target =
      (afterDelete.next === undefined ? undefined : selectButtons.get(afterDelete.next)) ??
      newButton.current ??
      rootRef.current;
    target?.focus();
  }, [afterDelete, threads, selectButtons]);

  const announce = useCallback((text: string) => setAnnouncement(text), []);
  const deleteThread = async (threadId: string) => {
    if (onDelete === undefined) return;
    const index = threads.findIndex((thread) => thread.id === threadId);
    const title = titleOf(threads[index], untitled);
    const next = (threads[index + 1] ?? threads[index - 1])?.id;
    try {
      await onDelete(threadId);
    } catch (error) {
      announce(`Could not delete “${title}”: ${messageOf(error)}`);
      return;
    }
    setAfterDelete({ deleted: threadId, next });
    announce(`Deleted “${title}”.`);
  };

  const value: ThreadListContextValue = {
    threads,
    selectedThreadId,
    loading,
    untitled,
    onSelect,
    onCreate,
    onRename,
    onDelete,
    selectButtons,
    newButton,
    deleteThread,
    announce,
  };
  return (
    <ThreadListContext.Provider value={value}>
      <nav
        ref={composedRef}
        aria-label={label}
        // The place focus goes when the last thread was deleted and there is no "New thread".
        tabIndex={-1}
        className={classNames('ack-root', 'ack-thread-list', className)}
        data-empty={dataFlag(threads.length === 0)}
        aria-busy={loading || undefined}
        {...rest}
      >
        {children}
        <p role="status" style={visuallyHidden}>
          {announcement}
        </p>
      </nav>
    </ThreadListContext.Provider>
  );
}

/** Props of {@link AgentThreadListNew}. */
export interface AgentThreadListNewProps
  extends Omit<ComponentPropsWithoutRef<'button'>, 'onClick'>, RefAttributes<HTMLButtonElement> {}

/**
 * "New thread": calls the root's `onCreate` (renders nothing without it). Its `ref` is the
 * `<button>`.
 */
export const AgentThreadListNew = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLButtonElement, AgentThreadListNewProps>(AgentThreadListNewRender),
  'AgentThreadListNew',
);

function AgentThreadListNewRender(
  { className, children, ...rest }: AgentThreadListNewProps,
  ref: ForwardedRef<HTMLButtonElement>,
) {
  const context = useThreadListContext('AgentThreadListNew');
  const composedRef = useComposedRefs(ref, context.newButton);
  const { onCreate, announce } = context;
  if (onCreate === undefined) return null;
  return (
    <button
      ref={composedRef}
      type="button"
      className={classNames('ack-thread-list__new', className)}
      onClick={() => {
        Promise.resolve()
          .then(onCreate)
          .catch((error: unknown) => announce(`Could not start a thread: ${messageOf(error)}`));
      }}
      {...rest}
    >
      {children ?? 'New thread'}
    </button>
  );
}

/** Props of {@link AgentThreadListItems}. */
export interface AgentThreadListItemsProps
  extends Omit<ComponentPropsWithoutRef<'ul'>, 'children'>, RefAttributes<HTMLUListElement> {
  /**
   * What is shown when there is no thread.
   * @default 'No saved threads yet.'
   */
  empty?: ReactNode;
}

/**
 * The threads as a list of {@link AgentThreadListItem}, or a line saying there are none. Its `ref`
 * is the `<ul>`.
 */
export const AgentThreadListItems = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLUListElement, AgentThreadListItemsProps>(
    AgentThreadListItemsRender,
  ),
  'AgentThreadListItems',
);

function AgentThreadListItemsRender(
  { empty = 'No saved threads yet.', className, ...rest }: AgentThreadListItemsProps,
  ref: ForwardedRef<HTMLUListElement>,
) {
  const { threads, loading } = useThreadListContext('AgentThreadListItems');
  if (threads.length === 0) {
    return <p className="ack-thread-list__empty">{loading ? 'Loading threads…' : empty}</p>;
  }
  return (
    <ul ref={ref} className={classNames('ack-thread-list__items', className)} {...rest}>
      {threads.map((thread) => (
        <AgentThreadListItem key={thread.id} thread={thread} />
      ))}
    </ul>
  );
}

/** Props of {@link AgentThreadList}. */
export interface AgentThreadListProps extends AgentThreadListRootProps {
  /**
   * The heading's level.
   * @default 3
   */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/**
 * A list of saved conversations: "New thread", each thread (the shown one marked `aria-current`)
 * with its message count and time, Rename inline (Enter saves, Escape cancels) and Delete with a
 * confirm step (focus then moves to the next thread, else the previous one, else "New thread").
 * Keyboard only works throughout; changes are announced once in a polite live region. Built from
 * the `AgentThreadList*` parts; its `ref` is the `<nav>`. `AgentConsole` shows it for a chat agent
 * when it has a `threadStore`.
 *
 * @example
 * const list = useAgentThreads({ threadStore, agentId: 'helpdesk' });
 * <AgentThreadList
 *   threads={list.threads}
 *   selectedThreadId={list.selectedThreadId}
 *   onSelect={list.select}
 *   onCreate={() => list.create()}
 *   onRename={list.rename}
 *   onDelete={list.remove}
 * />
 */
export const AgentThreadList = /* @__PURE__ */ Object.assign(
  /* @__PURE__ */ named(
    /* @__PURE__ */ forwardRef<HTMLElement, AgentThreadListProps>(AgentThreadListRender),
    'AgentThreadList',
  ),
  {
    Root: AgentThreadListRoot,
    New: AgentThreadListNew,
    Items: AgentThreadListItems,
    Item: AgentThreadListItem,
  },
);

function AgentThreadListRender(
  { headingLevel = 3, label = 'Threads', ...rootProps }: AgentThreadListProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const Heading = `h${headingLevel}` as const;
  return (
    <AgentThreadListRoot ref={ref} label={label} {...rootProps}>
      <div className="ack-thread-list__header">
        <Heading className="ack-thread-list__heading">{label}</Heading>
        <AgentThreadListNew />
      </div>
      <AgentThreadListItems />
    </AgentThreadListRoot>
  );
}
