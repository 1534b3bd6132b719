import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type KeyboardEvent,
  type RefAttributes,
} from 'react';
import type { ThreadSummary } from '../core/storage/thread-store.js';
import { messageOf, titleOf, useThreadListContext } from './agent-thread-list-context.js';
import { classNames, dataFlag, named } from './part-helpers.js';

/** Props of {@link AgentThreadListItem}. */
export interface AgentThreadListItemProps
  extends Omit<ComponentPropsWithoutRef<'li'>, 'children'>, RefAttributes<HTMLLIElement> {
  /** The thread. */
  thread: ThreadSummary;
}

/**
 * One thread: a button that selects it (`aria-current` when it is shown), its message count and
 * time, Rename (inline: Enter saves, Escape cancels, focus back on Rename) and Delete (asks first:
 * Delete again or Keep; Escape keeps). Carries `data-selected` and `data-state` (`idle`,
 * `renaming`, `confirming-delete`). Its `ref` is the `<li>`.
 */
export const AgentThreadListItem = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLLIElement, AgentThreadListItemProps>(AgentThreadListItemRender),
  'AgentThreadListItem',
);

type ItemState = 'idle' | 'renaming' | 'confirming-delete';

function AgentThreadListItemRender(
  { thread, className, ...rest }: AgentThreadListItemProps,
  ref: ForwardedRef<HTMLLIElement>,
) {
  const item = useThreadListItem(thread);
  return (
    <li
      ref={ref}
      className={classNames('ack-thread-list__item', className)}
      data-selected={dataFlag(item.selected)}
      data-state={item.state}
      {...rest}
    >
      {item.state === 'renaming' ? (
        <ThreadRenameField item={item} />
      ) : (
        <>
          <button
            ref={item.registerSelect}
            type="button"
            className="ack-thread-list__select"
            aria-current={item.selected ? 'true' : undefined}
            aria-describedby={`${item.id}meta`}
            onClick={item.select}
          >
            <span className="ack-thread-list__title">{item.title}</span>
          </button>
          <p id={`${item.id}meta`} className="ack-thread-list__meta">
            {metaText(thread)}
          </p>
          {item.state === 'confirming-delete' ? (
            <ThreadDeleteConfirm item={item} />
          ) : (
            <ThreadItemActions item={item} />
          )}
        </>
      )}
    </li>
  );
}

/** One thread's state in the list and what its buttons do: rename, delete and their focus. */
function useThreadListItem(thread: ThreadSummary) {
  const context = useThreadListContext('AgentThreadListItem');
  const { onSelect, onRename, onDelete, selectButtons, announce } = context;
  const id = useId();
  const [state, setState] = useState<ItemState>('idle');
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState(false);
  // After a rename or a kept thread, focus returns to the button that opened the step.
  const [refocus, setRefocus] = useState<'rename' | 'delete' | undefined>(undefined);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (refocus === undefined) return;
    (refocus === 'rename' ? renameButton : deleteButton).current?.focus();
    setRefocus(undefined);
  }, [refocus]);

  const selected = context.selectedThreadId === thread.id;
  const title = titleOf(thread, context.untitled);
  const registerSelect = useCallback(
    (element: HTMLButtonElement | null) => {
      if (element) selectButtons.set(thread.id, element);
      else selectButtons.delete(thread.id);
    },
    [selectButtons, thread.id],
  );

  const cancelRename = () => {
    setState('idle');
    setRefocus('rename');
  };
  const saveRename = async () => {
    const next = draft.trim();
    if (onRename === undefined || pending) return;
    if (next === '' || next === thread.title) {
      cancelRename();
      return;
    }
    setPending(true);
    try {
      await onRename(thread.id, next);
      announce(`Renamed to “${next}”.`);
    } catch (error) {
      announce(`Could not rename “${title}”: ${messageOf(error)}`);
    }
    if (!mounted.current) return;
    setPending(false);
    setState('idle');
    setRefocus('rename');
  };
  const keep = () => {
    setState('idle');
    setRefocus('delete');
  };
  const confirmDelete = async () => {
    if (pending) return;
    setPending(true);
    await context.deleteThread(thread.id);
    if (!mounted.current) return;
    // Still here: the delete failed (the root said why).
    setPending(false);
    setState('idle');
    setRefocus('delete');
  };

  return {
    id,
    state,
    draft,
    pending,
    selected,
    title,
    canRename: onRename !== undefined,
    canDelete: onDelete !== undefined,
    renameButton,
    deleteButton,
    registerSelect,
    select: () => {
      if (!selected) onSelect(thread.id);
    },
    setDraft,
    startRename: () => {
      setDraft(thread.title);
      setState('renaming');
    },
    cancelRename,
    saveRename,
    askDelete: () => setState('confirming-delete'),
    keep,
    confirmDelete,
  };
}

type ThreadListItemState = ReturnType<typeof useThreadListItem>;

function ThreadRenameField({ item }: { item: ThreadListItemState }) {
  const cancelOnEscape = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    item.cancelRename();
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void item.saveRename();
    } else {
      cancelOnEscape(event);
    }
  };
  return (
    <div className="ack-thread-list__rename">
      <input
        className="ack-thread-list__rename-input"
        aria-label={`New title of “${item.title}”`}
        value={item.draft}
        maxLength={200}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the person asked to rename: the title goes where they look
        autoFocus
        onChange={(event) => item.setDraft(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <div className="ack-thread-list__actions">
        <button
          type="button"
          aria-disabled={item.pending}
          onClick={() => void item.saveRename()}
          onKeyDown={cancelOnEscape}
        >
          Save
        </button>
        <button
          type="button"
          data-variant="quiet"
          onClick={item.cancelRename}
          onKeyDown={cancelOnEscape}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}

function ThreadDeleteConfirm({ item }: { item: ThreadListItemState }) {
  const keepOnEscape = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    item.keep();
  };
  return (
    <div role="group" aria-labelledby={`${item.id}confirm`} className="ack-thread-list__confirm">
      <p id={`${item.id}confirm`} className="ack-thread-list__confirm-text">
        Delete “{item.title}”? This cannot be undone.
      </p>
      <div className="ack-thread-list__actions">
        <button
          type="button"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the person asked to delete: the safe choice takes focus
          autoFocus
          onClick={item.keep}
          onKeyDown={keepOnEscape}
        >
          Keep
        </button>
        <button
          type="button"
          data-variant="danger"
          aria-disabled={item.pending}
          onClick={() => void item.confirmDelete()}
          onKeyDown={keepOnEscape}
        >
          Delete
        </button>
      </div>
    </div>
  );
}

function ThreadItemActions({ item }: { item: ThreadListItemState }) {
  if (!item.canRename && !item.canDelete) return null;
  return (
    <div className="ack-thread-list__actions">
      {item.canRename ? (
        <button
          ref={item.renameButton}
          type="button"
          data-variant="quiet"
          aria-label={`Rename “${item.title}”`}
          onClick={item.startRename}
        >
          Rename
        </button>
      ) : null}
      {item.canDelete ? (
        <button
          ref={item.deleteButton}
          type="button"
          data-variant="quiet"
          aria-label={`Delete “${item.title}”`}
          onClick={item.askDelete}
        >
          Delete
        </button>
      ) : null}
    </div>
  );
}

function metaText(thread: ThreadSummary): string {
  const count = `${thread.messageCount} ${thread.messageCount === 1 ? 'message' : 'messages'}`;
  const time = new Date(thread.updatedAt).toLocaleString(undefined, {
    dateStyle: 'short',
    timeStyle: 'short',
  });
  return `${count}, ${time}`;
}
