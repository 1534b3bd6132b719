import {
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { AgentClient } from '../core/wire/agent-client.js';
import type { ServerRunSummary } from '../core/storage/server-run-list.js';
import type { DurableRunClient, DurableRunSnapshot } from '../core/durable/durable-run.js';
import { useDurableRun } from '../react/use-durable-run.js';
import type { UseAgentInboxResult } from '../react/use-agent-inbox.js';
import { AgentApprovalCard } from './agent-approval-card.js';
import { classNames } from './part-helpers.js';

/** Props of {@link AgentInbox}. */
export interface AgentInboxProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** The runs (`useAgentInbox()`). */
  inbox: UseAgentInboxResult;
  /**
   * The client (`api: 'platform'`, through the proxy) that reads an opened run and sends the
   * answer.
   * @default the client of the nearest AgentClientProvider
   */
  client?: AgentClient | DurableRunClient | undefined;
  /**
   * The heading.
   * @default 'Waiting for your approval'
   */
  heading?: ReactNode;
  /**
   * What an empty inbox says.
   * @default 'Nothing is waiting for your approval.'
   */
  empty?: ReactNode;
  /**
   * The name of an agent in the list (e.g. from `useAgent`).
   * @default the agent id
   */
  agentName?: ((agentId: string) => string) | undefined;
  /**
   * The run open on mount.
   * @default undefined
   */
  defaultOpenRunId?: string | undefined;
}

/**
 * An approvals inbox: every durable run of the signed-in user waiting for their approval, across
 * agents and devices (`useAgentInbox`). Arrow keys, Home and End move between runs; Enter opens
 * one, which shows its approval card (as `AgentApprovalCard` does everywhere); Escape closes it.
 * The list is read again once an answer is accepted.
 */
export function AgentInbox({
  inbox,
  client,
  heading = 'Waiting for your approval',
  empty = 'Nothing is waiting for your approval.',
  agentName = (agentId) => agentId,
  defaultOpenRunId,
  className,
  ...rest
}: AgentInboxProps) {
  const headingId = useId();
  const [openRunId, setOpenRunId] = useState(defaultOpenRunId);
  const listRef = useRef<HTMLUListElement>(null);
  const { runs, status, error, refresh } = inbox;
  const open = runs.find((run) => run.runId === openRunId);
  // Kept while open, even once the list no longer has it (answered): its result stays shown.
  const [shown, setShown] = useState<ServerRunSummary | undefined>(open);
  useEffect(() => {
    if (open !== undefined) setShown(open);
    else if (openRunId === undefined) setShown(undefined);
  }, [open, openRunId]);

  const focusItem = (runId: string) =>
    listRef.current
      ?.querySelector<HTMLButtonElement>(`[data-run-id="${CSS.escape(runId)}"]`)
      ?.focus();
  const close = () => {
    const runId = openRunId;
    setOpenRunId(undefined);
    if (runId !== undefined) queueMicrotask(() => focusItem(runId));
  };
  const onItemKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const buttons = [
      ...(listRef.current?.querySelectorAll<HTMLButtonElement>('[data-run-id]') ?? []),
    ];
    const index = buttons.findIndex((button) => button === document.activeElement);
    const target =
      event.key === 'ArrowDown'
        ? buttons[Math.min(buttons.length - 1, index + 1)]
        : event.key === 'ArrowUp'
          ? buttons[Math.max(0, index - 1)]
          : event.key === 'Home'
            ? buttons[0]
            : event.key === 'End'
              ? buttons.at(-1)
              : undefined;
    if (target === undefined) return;
    event.preventDefault();
    target.focus();
  };

  return (
    <section
      aria-labelledby={headingId}
      className={classNames('ack-root', 'ack-inbox', className)}
      data-state={status}
      {...rest}
    >
      <h2 id={headingId} className="ack-inbox__heading">
        {heading}
      </h2>
      {status === 'error' ? (
        <div role="alert" className="ack-inbox__error">
          <p>The inbox could not be read: {error?.message ?? 'unknown error'}</p>
          <button type="button" onClick={() => void refresh()}>
            Try again
          </button>
        </div>
      ) : null}
      {status === 'loading' ? (
        <p role="status" className="ack-inbox__empty">
          Loading…
        </p>
      ) : runs.length === 0 && status === 'ready' ? (
        <p className="ack-inbox__empty">{empty}</p>
      ) : null}
      {runs.length > 0 ? (
        <ul ref={listRef} className="ack-inbox__items">
          {runs.map((run) => (
            <li key={run.runId} className="ack-inbox__item">
              <button
                type="button"
                className="ack-inbox__open"
                data-run-id={run.runId}
                aria-expanded={run.runId === openRunId}
                onKeyDown={onItemKeyDown}
                onClick={() => setOpenRunId(run.runId === openRunId ? undefined : run.runId)}
              >
                <span className="ack-inbox__title">{run.title || 'Untitled run'}</span>{' '}
                <span className="ack-inbox__meta">
                  {agentName(run.agentId)} · {new Date(run.createdAt).toLocaleString()}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {openRunId !== undefined && shown !== undefined ? (
        <InboxRun
          key={shown.runId}
          run={shown}
          client={client}
          onClose={close}
          onAnswered={() => void refresh()}
        />
      ) : null}
    </section>
  );
}

const statusText: Partial<Record<DurableRunSnapshot['status'], string>> = {
  idle: 'Opening…',
  queued: 'Queued',
  running: 'Running',
  'requires-input': 'Waiting for your approval',
  responding: 'Sending your answer…',
  cancelling: 'Cancelling',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  lost: 'No longer available',
};

/** One opened run: read through the proxy, its approval card, its answer once it has one. */
function InboxRun({
  run,
  client,
  onClose,
  onAnswered,
}: {
  run: ServerRunSummary;
  client: AgentClient | DurableRunClient | undefined;
  onClose: () => void;
  onAnswered: () => void;
}) {
  const headingId = useId();
  const regionRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    // Escape in the opened run closes it (focus goes back to its item); also when the focus was
    // lost with the card's buttons, once the answer was accepted.
    const region = regionRef.current;
    const page = region?.ownerDocument;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const focused = page?.activeElement;
      if (focused !== page?.body && focused !== null && !region?.contains(focused ?? null)) return;
      event.preventDefault();
      closeRef.current();
    };
    page?.addEventListener('keydown', onKeyDown);
    return () => page?.removeEventListener('keydown', onKeyDown);
  }, []);
  const durable = useDurableRun({
    agentId: run.agentId,
    runId: run.runId,
    resume: false,
    ...(client === undefined ? {} : { client }),
  });
  const waiting = durable.status === 'requires-input' || durable.status === 'responding';
  // 'answered': sent from this card; 'told': the inbox was asked to read its list again, once.
  const answered = useRef<'no' | 'answered' | 'told'>('no');
  useEffect(() => {
    if (answered.current !== 'answered' || waiting) return;
    answered.current = 'told';
    onAnswered();
  }, [waiting, onAnswered]);
  const cardStatus =
    durable.status === 'responding' ? 'responding' : durable.error === undefined ? 'idle' : 'error';
  return (
    <div ref={regionRef} role="region" aria-labelledby={headingId} className="ack-inbox__run">
      <h3 id={headingId} className="ack-inbox__run-heading">
        {run.title || 'Untitled run'}
      </h3>
      <p className="ack-inbox__status" role="status">
        {statusText[durable.status] ?? durable.status}
      </p>
      {durable.pendingInteractions.length > 0 ? (
        <AgentApprovalCard
          interactions={durable.pendingInteractions}
          status={cardStatus}
          error={durable.error}
          onSubmit={(decisions) => {
            answered.current = 'answered';
            void durable.respond(decisions).catch(() => undefined);
          }}
        />
      ) : null}
      {durable.output.text !== '' ? (
        <p className="ack-inbox__answer" data-testid="inbox-answer">
          {durable.output.text}
        </p>
      ) : null}
      <button type="button" className="ack-inbox__close" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
