import type { RunEvent, RunStatus } from '../core/stream/run-types.js';
import { createPartContext } from './part-helpers.js';

/** What the parts of an {@link AgentEventLogRoot} share. */
export interface EventLogContextValue {
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

export const [EventLogContext, useEventLogContext] =
  /* @__PURE__ */ createPartContext<EventLogContextValue>('AgentEventLogRoot');
