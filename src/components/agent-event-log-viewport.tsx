import {
  forwardRef,
  useCallback,
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
import { defaultRangeExtractor, measureElement, type Range } from '@tanstack/react-virtual';
import type { RunEvent } from '../core/stream/run-types.js';
import { plural } from '../core/console/run-wording.js';
import { useEventLogContext } from './agent-event-log-context.js';
import { EventLogRows, useRowSlots, type AnyVirtualizer } from './agent-event-log-rows.js';
import { indexOfSequence } from './event-log-format.js';
import { classNames, named } from './part-helpers.js';
import { consecutiveKeys, useAppendingVirtualizer } from './virtual-append.js';

const estimatedRowHeight = 30;

/** How close to the end (px) still counts as "at the end": following continues. */
export const endThreshold = 24;

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
