import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { RunEvent } from '../core/stream/run-types.js';
import { runFailedSummary } from '../core/console/event-log-wording.js';
import { useEventLogContext } from './agent-event-log-context.js';
import { formatElapsed, payloadIndentDepth, prettyPayload, previewOf } from './event-log-format.js';
import { ChevronIcon } from './part-icons.js';
import { dataFlag } from './part-helpers.js';
import { measureReusedRows, rowSlots } from './virtual-append.js';

export type AnyVirtualizer = Virtualizer<HTMLDivElement, Element>;

/**
 * The rows to render and the element slot of each: rows are recycled, a row that comes into view
 * takes the elements of one that left (see `rowSlots`), and is measured after the commit like a
 * new one. Called after the virtualizer, so its layout effect runs after the virtualizer's.
 */
export function useRowSlots(virtualizer: AnyVirtualizer, shown: readonly RunEvent[]) {
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
export function EventLogRows({ virtualizer, items, slots, rowsRef }: EventLogRowsProps) {
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
