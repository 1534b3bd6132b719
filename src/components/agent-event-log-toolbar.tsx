import {
  forwardRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type RefAttributes,
} from 'react';
import type { RunEvent } from '../core/stream/run-types.js';
import { plural } from '../core/console/run-wording.js';
import { eventsToNdjson } from '../core/stream/run-events-ndjson.js';
import { useEventLogContext } from './agent-event-log-context.js';
import { CopyIcon, DownloadIcon } from './part-icons.js';
import { classNames, named } from './part-helpers.js';
import { useCopyText } from './use-copy-text.js';

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
