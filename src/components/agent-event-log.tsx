import {
  forwardRef,
  useCallback,
  useDeferredValue,
  useId,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type RefAttributes,
} from 'react';
import type { RunEvent, RunStatus } from '../core/stream/run-types.js';
import { runStatusAnnouncement } from '../core/console/event-log-wording.js';
import { formatCount, plural } from '../core/console/run-wording.js';
import {
  EventLogContext,
  useEventLogContext,
  type EventLogContextValue,
} from './agent-event-log-context.js';
import { AgentEventLogToolbar, type AgentEventLogToolbarProps } from './agent-event-log-toolbar.js';
import {
  AgentEventLogViewport,
  endThreshold,
  type AgentEventLogViewportProps,
} from './agent-event-log-viewport.js';
import { indexEventNames, type EventNameIndex } from './event-log-format.js';
import { classNames, dataFlag, visuallyHidden, named } from './part-helpers.js';
import { useFollowEnd } from './use-follow-end.js';

export { AgentEventLogToolbar, type AgentEventLogToolbarProps };
export { AgentEventLogViewport, type AgentEventLogViewportProps };

/** Props of {@link AgentEventLogRoot}. */
export interface AgentEventLogRootProps
  extends ComponentPropsWithoutRef<'section'>, RefAttributes<HTMLElement> {
  /** The run's events (`useAgentRunStream().events`), oldest first. */
  events: readonly RunEvent[];
  /**
   * Events the bounded buffer left out (the oldest), shown as a count.
   * @default 0
   */
  droppedEvents?: number;
  /**
   * Events received twice and kept once (e.g. on a resumed reconnect), shown as a count.
   * @default 0
   */
  duplicateEvents?: number;
  /**
   * The run's status: status changes (started, reconnecting, done, failed, stopped) are announced
   * once in a polite live region, and set `data-status`.
   * @default undefined
   */
  status?: RunStatus;
  /**
   * When the run started (epoch ms): rows show the time since then.
   * @default the first event's `receivedAt`
   */
  startedAt?: number;
  /**
   * The log's accessible name.
   * @default 'Run events'
   */
  label?: string;
}

/** Props of {@link AgentEventLog}. */
export interface AgentEventLogProps extends Omit<AgentEventLogRootProps, 'children'> {
  /**
   * The height of the scrolling area (a number is pixels).
   * @default 320
   */
  height?: number | string;
  /**
   * The level of the log's heading, to fit the page's outline.
   * @default 3
   */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
  /**
   * Announce status changes in the log's own polite live region. Turn off when the page announces
   * them already (as `AgentConsole` does with its status line).
   * @default true
   */
  announceStatus?: boolean;
  /**
   * The file name of "Download NDJSON".
   * @default 'run-events.ndjson'
   */
  downloadFileName?: string;
}

/**
 * The root of an event log's parts: it shares the events, the filter, the search, the expanded
 * rows and whether the log follows the end with them, and carries `data-status`,
 * `data-following` and `data-empty`. Lay out {@link AgentEventLogHeader},
 * {@link AgentEventLogToolbar}, {@link AgentEventLogAnnouncer} and {@link AgentEventLogViewport}
 * inside it. Its `ref` is the log's `<section>`.
 */
export const AgentEventLogRoot = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentEventLogRootProps>(AgentEventLogRootRender),
  'AgentEventLogRoot',
);

function AgentEventLogRootRender(
  {
    events,
    droppedEvents = 0,
    duplicateEvents = 0,
    status,
    startedAt,
    label = 'Run events',
    className,
    children,
    ...rest
  }: AgentEventLogRootProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const id = useId();
  const [eventName, setEventName] = useState('');
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const { following, pausedAt, handleScroll, follow } = useFollowEnd(endThreshold);

  // The names seen, updated per append in O(appended + dropped), not O(events).
  const nameIndex = useRef<EventNameIndex | undefined>(undefined);
  const eventNames = useMemo(() => {
    const next = indexEventNames(nameIndex.current, events);
    nameIndex.current = next;
    return next.names;
  }, [events]);

  const shown = useMemo(() => {
    const needle = deferredQuery.trim().toLowerCase();
    if (eventName === '' && needle === '') return events;
    return events.filter(
      (event) =>
        (eventName === '' || event.event === eventName) &&
        (needle === '' || event.data.toLowerCase().includes(needle)),
    );
  }, [events, eventName, deferredQuery]);

  const toggle = useCallback((sequence: number) => {
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(sequence)) next.delete(sequence);
      else next.add(sequence);
      return next;
    });
  }, []);

  const value: EventLogContextValue = {
    id,
    label,
    status,
    events,
    shown,
    droppedEvents,
    duplicateEvents,
    origin: startedAt ?? events[0]?.receivedAt ?? 0,
    eventNames,
    eventName,
    setEventName,
    query,
    setQuery,
    expanded,
    toggle,
    following,
    pausedAfter: pausedAt,
    followScroll: handleScroll,
    follow,
  };
  return (
    <EventLogContext.Provider value={value}>
      <section
        ref={ref}
        aria-labelledby={`${id}title`}
        className={classNames('ack-root', 'ack-event-log', className)}
        data-status={status}
        data-following={dataFlag(following)}
        data-empty={dataFlag(events.length === 0)}
        {...rest}
      >
        {children}
      </section>
    </EventLogContext.Provider>
  );
}

/** Props of {@link AgentEventLogHeader}. */
export interface AgentEventLogHeaderProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {
  /**
   * The level of the log's heading, to fit the page's outline.
   * @default 3
   */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/**
 * The log's heading (its accessible name) and a line counting the events shown, dropped by the
 * buffer and received twice. Its `ref` is the header's `<div>`.
 */
export const AgentEventLogHeader = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentEventLogHeaderProps>(AgentEventLogHeaderRender),
  'AgentEventLogHeader',
);

function AgentEventLogHeaderRender(
  { headingLevel = 3, className, ...rest }: AgentEventLogHeaderProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { id, label, events, shown, droppedEvents, duplicateEvents } =
    useEventLogContext('AgentEventLogHeader');
  const Heading = `h${headingLevel}` as const;
  return (
    <div ref={ref} className={classNames('ack-event-log__header', className)} {...rest}>
      <Heading id={`${id}title`} className="ack-event-log__title">
        {label}
      </Heading>
      <p className="ack-event-log__summary">
        {shown !== events
          ? `Showing ${formatCount(shown.length)} of ${plural(events.length, 'event')}.`
          : `${plural(events.length, 'event')}.`}
        {droppedEvents > 0
          ? ` ${plural(droppedEvents, 'earlier event')} dropped (buffer limit).`
          : null}
        {duplicateEvents > 0 ? ` ${plural(duplicateEvents, 'duplicate event')} ignored.` : null}
      </p>
    </div>
  );
}

/** Props of {@link AgentEventLogAnnouncer}. */
export interface AgentEventLogAnnouncerProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {}

/**
 * A polite live region that says each status change of the run once (started, reconnecting,
 * reconnected, finished with N events, failed, stopped), never each event. Leave it out when the
 * page announces them already. Its `ref` is the region (`role="status"`).
 */
export const AgentEventLogAnnouncer = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentEventLogAnnouncerProps>(
    AgentEventLogAnnouncerRender,
  ),
  'AgentEventLogAnnouncer',
);

function AgentEventLogAnnouncerRender(
  { style, ...rest }: AgentEventLogAnnouncerProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { status, events, droppedEvents } = useEventLogContext('AgentEventLogAnnouncer');
  const announcement = useStatusAnnouncement(status, events.length + droppedEvents);
  return (
    <div ref={ref} role="status" style={{ ...visuallyHidden, ...style }} {...rest}>
      {announcement}
    </div>
  );
}

/**
 * The live event log of a run, virtualized (100,000 events keep a few dozen rows in the DOM).
 * Follows the newest event while the reader is at the end; scrolling up stops following and shows
 * "N new events, jump to latest". Never moves focus on its own.
 *
 * Each row shows the sequence number, the time since the run started, the event name, the server
 * id and a payload preview, and expands to the pretty-printed payload (as text). Attempt boundaries,
 * restarts, invalid payloads and parse errors are marked; dropped and duplicate events are counted.
 * A toolbar filters by event name, searches payloads, copies the shown events to the clipboard or
 * downloads them as NDJSON.
 *
 * Unstyled-first: `data-status`, `data-following`; rows carry `data-state` (`open`/`closed`), `data-event`,
 * `data-invalid`, `data-parse-error`, `data-attempt-start`, `data-restart`. Built from the
 * `AgentEventLog*` parts; its `ref` is the log's `<section>` (the one {@link AgentEventLogRoot}
 * renders).
 *
 * @example
 * const run = useAgentRunStream();
 * <AgentEventLog
 *   events={run.events}
 *   droppedEvents={run.droppedEvents}
 *   status={run.status}
 *   startedAt={run.startedAt}
 * />
 */
export const AgentEventLog = /* @__PURE__ */ Object.assign(
  /* @__PURE__ */ named(
    /* @__PURE__ */ forwardRef<HTMLElement, AgentEventLogProps>(AgentEventLogRender),
    'AgentEventLog',
  ),
  {
    Root: AgentEventLogRoot,
    Header: AgentEventLogHeader,
    Toolbar: AgentEventLogToolbar,
    Announcer: AgentEventLogAnnouncer,
    Viewport: AgentEventLogViewport,
  },
);

function AgentEventLogRender(
  {
    height,
    headingLevel,
    announceStatus = true,
    downloadFileName,
    ...rootProps
  }: AgentEventLogProps,
  ref: ForwardedRef<HTMLElement>,
) {
  return (
    <AgentEventLogRoot ref={ref} {...rootProps}>
      <AgentEventLogHeader headingLevel={headingLevel} />
      <AgentEventLogToolbar downloadFileName={downloadFileName} />
      {announceStatus ? <AgentEventLogAnnouncer /> : null}
      <AgentEventLogViewport height={height} />
    </AgentEventLogRoot>
  );
}

/** A sentence for each status change, kept until the next change (so it is announced once). */
function useStatusAnnouncement(status: RunStatus | undefined, eventCount: number): string {
  const [previous, setPrevious] = useState(status);
  const [announcement, setAnnouncement] = useState('');
  if (status !== previous) {
    setPrevious(status);
    const next = runStatusAnnouncement(previous, status, eventCount);
    if (next !== undefined) setAnnouncement(next);
  }
  return announcement;
}
