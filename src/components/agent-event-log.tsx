import {
  forwardRef,
  memo,
  useCallback,
  useDeferredValue,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type FocusEvent,
  type ForwardedRef,
  type RefAttributes,
  type UIEvent,
} from 'react';
import {
  defaultRangeExtractor,
  measureElement,
  type Range,
  type Virtualizer,
} from '@tanstack/react-virtual';
import type { RunEvent, RunStatus } from '../core/stream/run-types.js';
import {
  formatCount,
  plural,
  runFailedSummary,
  runStatusAnnouncement,
} from '../core/console/run-wording.js';
import { eventsToNdjson } from '../core/stream/run-events-ndjson.js';
import {
  formatElapsed,
  indexEventNames,
  indexOfSequence,
  payloadIndentDepth,
  prettyPayload,
  previewOf,
  type EventNameIndex,
} from './event-log-format.js';
import { ChevronIcon, CopyIcon, DownloadIcon } from './part-icons.js';
import { classNames, createPartContext, dataFlag, visuallyHidden, named } from './part-helpers.js';
import {
  consecutiveKeys,
  measureReusedRows,
  rowSlots,
  useAppendingVirtualizer,
} from './virtual-append.js';
import { useCopyText } from './use-copy-text.js';
import { useFollowEnd } from './use-follow-end.js';

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

const estimatedRowHeight = 30;
type AnyVirtualizer = Virtualizer<HTMLDivElement, Element>;
/** How close to the end (px) still counts as "at the end": following continues. */
const endThreshold = 24;

/** What the parts of an {@link AgentEventLogRoot} share. */
interface EventLogContextValue {
  /** The prefix of the ids of the log's elements (its title, its rows' payloads). */
  id: string;
  label: string;
  status: RunStatus | undefined;
  events: readonly RunEvent[];
  /** The events the filter and the search let through (`events` itself when neither is set). */
  shown: readonly RunEvent[];
  droppedEvents: number;
  duplicateEvents: number;
  /** The time the rows count from (epoch ms). */
  origin: number;
  eventNames: readonly string[];
  eventName: string;
  setEventName: (name: string) => void;
  query: string;
  setQuery: (query: string) => void;
  expanded: ReadonlySet<number>;
  toggle: (sequence: number) => void;
  following: boolean;
  /** The newest sequence shown when the reader stopped following; `null` while following. */
  pausedAfter: number | null;
  followScroll: (element: HTMLElement, mark?: number) => void;
  follow: () => void;
}

const [EventLogContext, useEventLogContext] =
  /* @__PURE__ */ createPartContext<EventLogContextValue>('AgentEventLogRoot');

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

/** Props of {@link AgentEventLogToolbar}. */
export interface AgentEventLogToolbarProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {
  /**
   * The file name of "Download NDJSON".
   * @default 'run-events.ndjson'
   */
  downloadFileName?: string;
}

/**
 * The log's tools: filter by event name, search the payloads, copy the events shown to the
 * clipboard or download them as NDJSON (and a status line saying whether the copy worked). Renders
 * nothing while there is no event. Its `ref` is the toolbar's `<div>`.
 */
export const AgentEventLogToolbar = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentEventLogToolbarProps>(AgentEventLogToolbarRender),
  'AgentEventLogToolbar',
);

function AgentEventLogToolbarRender(
  { downloadFileName = 'run-events.ndjson', className, ...rest }: AgentEventLogToolbarProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { events, shown, eventNames, eventName, setEventName, query, setQuery } =
    useEventLogContext('AgentEventLogToolbar');
  const [copyStatus, setCopyStatus] = useState('');
  const copyText = useCopyText();
  // Nothing to filter, search, copy or download yet: no toolbar.
  if (events.length === 0) return null;

  const copy = () => {
    const count = shown.length;
    return copyText(eventsToNdjson(shown), (copied) =>
      setCopyStatus(
        copied
          ? `Copied ${plural(count, 'event')} as NDJSON.`
          : 'Copying failed: the browser refused clipboard access.',
      ),
    );
  };
  return (
    <div ref={ref} className={classNames('ack-event-log__toolbar', className)} {...rest}>
      <label className="ack-event-log__filter">
        <span className="ack-visually-hidden">Event</span>
        <select value={eventName} onChange={(event) => setEventName(event.target.value)}>
          <option value="">All events</option>
          {eventNames.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="ack-event-log__search">
        <span className="ack-visually-hidden">Search payloads</span>
        <input
          type="search"
          placeholder="Search payloads"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </label>
      <button
        type="button"
        className="ack-event-log__copy"
        data-variant="quiet"
        onClick={() => void copy()}
      >
        <CopyIcon />
        <span>
          Copy <span className="ack-event-log__format">NDJSON</span>
        </span>
      </button>
      <button
        type="button"
        className="ack-event-log__download"
        data-variant="quiet"
        onClick={() => downloadNdjson(shown, downloadFileName)}
      >
        <DownloadIcon />
        <span>
          Download <span className="ack-event-log__format">NDJSON</span>
        </span>
      </button>
      <span role="status" className="ack-event-log__copy-status">
        {copyStatus}
      </span>
    </div>
  );
}

/** Saves the events as an NDJSON file, through a hidden link. */
function downloadNdjson(events: readonly RunEvent[], fileName: string) {
  const blob = new Blob([eventsToNdjson(events)], { type: 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
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

/** Props of {@link AgentEventLogViewport}. */
export interface AgentEventLogViewportProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {
  /**
   * The height of the scrolling area (a number is pixels).
   * @default 320
   */
  height?: number | string;
}

/**
 * The log's rows, virtualized (100,000 events keep a few dozen rows in the DOM), in a scrolling
 * `log` that follows the newest event while the reader is at the end; scrolling up stops following
 * and shows "N new events, jump to latest". Never moves focus on its own. Its `ref` is the
 * `<div>` around the scrolling element and the jump button.
 */
export const AgentEventLogViewport = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentEventLogViewportProps>(
    AgentEventLogViewportRender,
  ),
  'AgentEventLogViewport',
);

function AgentEventLogViewportRender(
  { height = 320, className, ...rest }: AgentEventLogViewportProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { label, events, shown, following, pausedAfter, followScroll, follow } =
    useEventLogContext('AgentEventLogViewport');
  const scrollRef = useRef<HTMLDivElement>(null);
  const lastSequence = shown.at(-1)?.sequence;
  const { focusedIndex, handleFocus, handleBlur } = useFocusedRow(shown);
  const virtualizer = useEventLogVirtualizer(shown, following, focusedIndex, scrollRef);
  const rows = useRowSlots(virtualizer, shown);

  const jumpToLatest = () => {
    follow();
    virtualizer.scrollToEnd();
    // The jump button disappears: focus goes to the log rather than to the page's body.
    scrollRef.current?.focus({ preventScroll: true });
  };
  const newEvents = pausedAfter === null ? 0 : countAfter(shown, pausedAfter);

  return (
    <div ref={ref} className={classNames('ack-event-log__viewport', className)} {...rest}>
      {/* aria-live="off": the rows are not read as they arrive (status changes are announced once, above). */}
      <div
        ref={scrollRef}
        role="log"
        aria-live="off"
        aria-label={label}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        className="ack-event-log__scroller"
        // An empty log is one short line, not a tall empty box.
        style={{
          // No taller than its rows: a short log does not leave an empty box below them.
          height:
            shown.length === 0
              ? undefined
              : typeof height === 'number'
                ? Math.min(height, virtualizer.getTotalSize() + 2)
                : height,
          overflowY: 'auto',
          position: 'relative',
          contain: 'content',
        }}
        onScroll={(event: UIEvent<HTMLDivElement>) =>
          followScroll(event.currentTarget, lastSequence ?? 0)
        }
        onFocus={handleFocus}
        onBlur={handleBlur}
      >
        {shown.length === 0 ? (
          <p className="ack-event-log__empty">
            {events.length === 0 ? 'No events yet.' : 'No event matches the filter.'}
          </p>
        ) : (
          <EventLogRows virtualizer={virtualizer} {...rows} />
        )}
      </div>
      {!following ? (
        <button
          type="button"
          className="ack-event-log__jump"
          data-variant="primary"
          onClick={jumpToLatest}
        >
          {newEvents > 0 ? `${plural(newEvents, 'new event')}, jump to latest` : 'Jump to latest'}
        </button>
      ) : null}
    </div>
  );
}

/** How many events at the end of `events` came after `sequence`. */
function countAfter(events: readonly RunEvent[], sequence: number): number {
  let count = 0;
  for (let index = events.length - 1; index >= 0; index -= 1) {
    if ((events[index]?.sequence ?? 0) <= sequence) break;
    count += 1;
  }
  return count;
}

/** The row holding focus (its index in `shown`, -1 for none), followed through focus and blur. */
function useFocusedRow(shown: readonly RunEvent[]) {
  const [focusedSequence, setFocusedSequence] = useState<number | null>(null);
  const focusedIndex = useMemo(
    () => (focusedSequence === null ? -1 : indexOfSequence(shown, focusedSequence)),
    [shown, focusedSequence],
  );
  const handleFocus = (event: FocusEvent<HTMLDivElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-sequence]');
    setFocusedSequence(row ? Number(row.dataset['sequence']) : null);
  };
  const handleBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedSequence(null);
  };
  return { focusedIndex, handleFocus, handleBlur };
}

/**
 * The virtualizer of the log's rows: keyed by sequence, estimated at the height of a plain row,
 * anchored to the end and following it while `following`, and keeping the focused row rendered.
 */
function useEventLogVirtualizer(
  shown: readonly RunEvent[],
  following: boolean,
  focusedIndex: number,
  scrollRef: { current: HTMLDivElement | null },
): AnyVirtualizer {
  const lastSequence = shown.at(-1)?.sequence;
  // The newest row of the last commit: rows that arrive after it while following are followed in
  // the same commit (see `rangeExtractor`).
  const committedLast = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    committedLast.current = lastSequence;
  });
  // A row holding focus stays rendered when it scrolls out of view, so focus is never lost.
  const rangeExtractor = useCallback(
    (range: Range) => {
      // Following, and newer rows came in (appended, perhaps with the oldest dropped): this commit
      // ends with the view at the new end (followOnAppend, and the layout effect below). Render the
      // rows of that end now, rather than the rows in view before, so an append takes one commit
      // instead of two (the second after the scroll).
      const follow =
        following && committedLast.current !== undefined && lastSequence !== committedLast.current;
      const indexes = defaultRangeExtractor(
        follow
          ? {
              ...range,
              startIndex: Math.max(0, range.count - 1 - (range.endIndex - range.startIndex)),
              endIndex: range.count - 1,
            }
          : range,
      );
      if (focusedIndex === -1 || indexes.includes(focusedIndex)) return indexes;
      return [...indexes, focusedIndex].sort((a, b) => a - b);
    },
    [focusedIndex, following, lastSequence],
  );

  // The same function for the same list: a new `getItemKey` makes the virtualizer recompute every
  // row's offset from the first, so it changes only with the list. A list without gaps in its
  // sequence numbers (the whole buffer, unfiltered) computes the key without reading the event,
  // and tells `useAppendingVirtualizer` in O(1) that an append left the earlier keys as they were
  // (it then computes the offsets of the new rows only).
  const getItemKey = useMemo(() => {
    const first = shown[0]?.sequence ?? 0;
    const last = shown.at(-1)?.sequence ?? 0;
    return last - first === shown.length - 1
      ? consecutiveKeys(first)
      : (index: number) => shown[index]?.sequence ?? index;
  }, [shown]);
  // Rows not measured yet are estimated at the height of the last plain row measured (closed, no
  // attempt marker): most rows are such rows, so a new row's measurement rarely changes its size,
  // and each change of size costs the virtualizer a pass over every row after it.
  const rowHeight = useRef(estimatedRowHeight);
  const estimateSize = useCallback(() => rowHeight.current, []);
  const measureRow = useCallback(
    (element: Element, entry: ResizeObserverEntry | undefined, instance: AnyVirtualizer) => {
      const size = measureElement(element, entry, instance);
      const row = element.firstElementChild;
      if (
        size > 0 &&
        row?.getAttribute('data-state') === 'closed' &&
        !row.hasAttribute('data-attempt-start')
      ) {
        rowHeight.current = size;
      }
      return size;
    },
    [],
  );
  const virtualizer = useAppendingVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    measureElement: measureRow,
    getItemKey,
    overscan: 8,
    rangeExtractor,
    anchorTo: 'end',
    followOnAppend: following,
    scrollEndThreshold: endThreshold,
  });

  // While following, the newest row stays in view, also when a filter or a trimmed buffer changes
  // the list in ways that are not an append.
  useLayoutEffect(() => {
    if (following && shown.length > 0 && !virtualizer.isAtEnd()) virtualizer.scrollToEnd();
  }, [following, shown, virtualizer]);
  return virtualizer;
}

/**
 * The rows to render and the element slot of each: rows are recycled, a row that comes into view
 * takes the elements of one that left (see `rowSlots`), and is measured after the commit like a
 * new one. Called after the virtualizer, so its layout effect runs after the virtualizer's.
 */
function useRowSlots(virtualizer: AnyVirtualizer, shown: readonly RunEvent[]) {
  const committedSlots = useRef<ReadonlyMap<number, number>>(new Map());
  const rowsRef = useRef<HTMLDivElement>(null);
  const items = virtualizer.getVirtualItems();
  const slots = rowSlots(
    committedSlots.current,
    items.map((item) => shown[item.index]?.sequence ?? -1),
  );
  useLayoutEffect(() => {
    committedSlots.current = slots;
    measureReusedRows(virtualizer, rowsRef.current);
  });
  return { items, slots, rowsRef };
}

interface EventLogRowsProps extends ReturnType<typeof useRowSlots> {
  virtualizer: AnyVirtualizer;
}

/** The rows in view (and the focused one), each in a positioned, measured slot. */
function EventLogRows({ virtualizer, items, slots, rowsRef }: EventLogRowsProps) {
  const { id, shown, origin, expanded, toggle } = useEventLogContext('AgentEventLogViewport');
  return (
    <div
      ref={rowsRef}
      role="list"
      className="ack-event-log__rows"
      style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}
    >
      {items.map((item) => {
        const event = shown[item.index];
        if (!event) return null;
        const previous = shown[item.index - 1];
        return (
          <div
            key={slots.get(event.sequence)}
            ref={virtualizer.measureElement}
            data-index={item.index}
            role="listitem"
            aria-posinset={item.index + 1}
            aria-setsize={shown.length}
            className="ack-event-log__item"
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              width: '100%',
              transform: `translateY(${item.start}px)`,
            }}
          >
            <EventRow
              event={event}
              attemptStart={previous ? previous.attempt !== event.attempt : event.attempt > 1}
              elapsed={event.receivedAt - origin}
              expanded={expanded.has(event.sequence)}
              onToggle={toggle}
              detailsId={`${id}event-${event.sequence}`}
            />
          </div>
        );
      })}
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

interface EventRowProps {
  event: RunEvent;
  attemptStart: boolean;
  elapsed: number;
  expanded: boolean;
  onToggle: (sequence: number) => void;
  detailsId: string;
}

const EventRow = /* @__PURE__ */ memo(function EventRow({
  event,
  attemptStart,
  elapsed,
  expanded,
  onToggle,
  detailsId,
}: EventRowProps) {
  return (
    <div
      className="ack-event-log__row"
      data-sequence={event.sequence}
      data-event={event.event}
      data-kind={event.kind}
      data-attempt={event.attempt}
      data-state={expanded ? 'open' : 'closed'}
      data-invalid={dataFlag(event.kind === 'invalid')}
      data-parse-error={dataFlag(event.kind === 'parse-error')}
      data-attempt-start={dataFlag(attemptStart)}
      data-restart={dataFlag(event.restart)}
    >
      {attemptStart ? (
        <p className="ack-event-log__marker" data-restart={dataFlag(event.restart)}>
          {event.restart
            ? `Attempt ${event.attempt}: the server started the run over`
            : `Attempt ${event.attempt}: reconnected`}
        </p>
      ) : null}
      <button
        type="button"
        className="ack-event-log__toggle"
        aria-expanded={expanded}
        aria-controls={expanded ? detailsId : undefined}
        onClick={() => onToggle(event.sequence)}
      >
        <ChevronIcon />
        {/* Read in this order (the name starts with the sequence); shown as columns by the CSS. */}
        <span className="ack-event-log__sequence">#{event.sequence}</span>{' '}
        <span className="ack-event-log__time">{formatElapsed(elapsed)}</span>{' '}
        <span className="ack-event-log__name">{event.event}</span>{' '}
        <span className="ack-event-log__id">
          {event.id === undefined ? 'no id' : `id ${event.id}`}
        </span>{' '}
        {event.kind === 'message' && event.text !== '' ? (
          <span className="ack-event-log__text">{event.text}</span>
        ) : (
          <span className="ack-event-log__text ack-event-log__preview" data-preview="">
            {runFailedSummary(event) ?? previewOf(event)}
          </span>
        )}
        {event.event === 'run.failed' ? (
          <span className="ack-event-log__flag" data-flag="run-failed">
            {' '}
            run failed
          </span>
        ) : null}
        {event.kind === 'invalid' ? (
          <span className="ack-event-log__flag" data-flag="invalid">
            {' '}
            invalid payload
          </span>
        ) : null}
        {event.kind === 'parse-error' ? (
          <span className="ack-event-log__flag" data-flag="parse-error">
            {' '}
            not JSON
          </span>
        ) : null}
      </button>
      {expanded ? <EventPayload event={event} detailsId={detailsId} /> : null}
    </div>
  );
});

/** The expanded row's payload, with a note when its deeper levels are written on one line. */
function EventPayload({ event, detailsId }: { event: RunEvent; detailsId: string }) {
  const { text, flattened } = useMemo(() => prettyPayload(event), [event]);
  return (
    <>
      {flattened ? (
        <p className="ack-event-log__note" data-flattened="">
          Nested deeper than {payloadIndentDepth} levels: the deeper levels are on one line.
        </p>
      ) : null}
      <pre id={detailsId} className="ack-event-log__payload">
        {text}
      </pre>
    </>
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
