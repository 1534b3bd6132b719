import type { AgentRunRequest } from '../wire/agent-client.js';
import type { AgentError } from '../wire/errors.js';
import type { MessageEventPayload, RunFailedPayload } from '../wire/schemas.js';

/**
 * Where a run is: `idle → connecting → streaming → (reconnecting → streaming)* → done | error |
 * aborted`.
 */
export type RunStatus =
  'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'done' | 'error' | 'aborted';

/** The statuses a run ends in. */
export const settledRunStatuses: ReadonlySet<RunStatus> = new Set(['done', 'error', 'aborted']);

/** The statuses of a run under way: a request is open or about to be. */
export const activeRunStatuses: ReadonlySet<RunStatus> = new Set([
  'connecting',
  'streaming',
  'reconnecting',
]);

/** The frame of one server-sent event: its `id:`, `event:` and `data:` fields. */
export interface RunEventFrame {
  id?: string | undefined;
  /**
   * The stream's last event id when the frame came (`SseMessage.lastEventId`).
   * @default the frame's `id`, or `''` without one
   */
  lastEventId?: string | undefined;
  /** The event name; `message` when the frame named none. */
  event: string;
  data: string;
}

/** What every event has, whatever its {@link RunEvent.kind}. */
export interface RunEventBase {
  /** The client's sequence number: 1, 2, 3 … within one run, across its attempts. */
  sequence: number;
  /** The server's `id:` field as sent, or undefined when the frame had none. */
  id: string | undefined;
  /**
   * The stream's last event id when it came, as `EventSource` reports it: its own `id:`, else the
   * latest one before it (across reconnections: the one the attempt resumed from); `''` before any
   * or after an empty `id:`. An event after `id: 1` with no id of its own carries `1`.
   */
  lastEventId: string;
  /** The event name (`message` when the frame named none). */
  event: string;
  /** The `data:` text as received, the client's secrets replaced by `[redacted]`. */
  data: string;
  /**
   * When it arrived (epoch milliseconds): when the transport handed over the read that carried it.
   * Events that came in one network read share it (they arrived together); the clock is read once
   * per read, not once per event.
   */
  receivedAt: number;
  /** The connection attempt it came in, from 1. */
  attempt: number;
  /** The first event of an attempt whose server started the run over (ids did not continue). */
  restart: boolean;
}

/** A `message` event whose payload matched `{ messages: [...] }`. */
export interface MessageRunEvent extends RunEventBase {
  kind: 'message';
  event: 'message';
  payload: MessageEventPayload;
  /** The agent output this event added to the run's `text`. */
  text: string;
}

/** A `run.failed` event (replacement API) whose payload is a problem detail: the run ended in error. */
export interface RunFailedRunEvent extends RunEventBase {
  kind: 'run-failed';
  event: 'run.failed';
  payload: RunFailedPayload;
  text: '';
}

/** An event of any other name, its data JSON, kept as it came. */
export interface UnknownRunEvent extends RunEventBase {
  kind: 'unknown';
  payload: unknown;
  text: '';
}

/**
 * A `message` or `run.failed` event whose data is JSON that does not match the schema of its name
 * (a legacy failure inside a `message`, for one). A `run.failed` still ends the run in error.
 */
export interface InvalidRunEvent extends RunEventBase {
  kind: 'invalid';
  payload: unknown;
  text: '';
}

/** An event (of any name) whose data is not JSON: the raw text is in `data`. */
export interface ParseErrorRunEvent extends RunEventBase {
  kind: 'parse-error';
  payload: undefined;
  text: '';
}

/**
 * One server-sent event, as received, classified (by {@link classifyEvent}) and kept. Narrow on
 * `kind`: only a `message` has a typed payload and `text`, only a `parse-error` has no payload.
 */
export type RunEvent =
  MessageRunEvent | RunFailedRunEvent | UnknownRunEvent | InvalidRunEvent | ParseErrorRunEvent;

/** What the library made of an event: `message`, `run-failed`, `unknown`, `invalid`, `parse-error`. */
export type RunEventKind = RunEvent['kind'];

/** The state of a run: immutable, and the same object until something changes. */
export interface RunSnapshot {
  status: RunStatus;
  /** The request of the current (or last) run. */
  request: AgentRunRequest | undefined;
  /** The newest events, at most `maxEvents` of them. */
  events: readonly RunEvent[];
  /** Events left out of `events` by the bounded buffer (the oldest). */
  droppedEvents: number;
  /** Every event received in this run, dropped ones included. */
  totalEvents: number;
  /**
   * Events a resuming server sent again (an id not greater than one already seen): ignored, and
   * counted here. They are in neither `events` nor `totalEvents`.
   */
  duplicateEvents: number;
  /** The agent's output so far: the text blocks of agent messages appended in order. */
  text: string;
  /** The error a run ended with (status `error`). */
  error: AgentError | undefined;
  /** The connection attempt, from 1; 0 before the first. */
  attempt: number;
  /** How many times the server started the run over on a reconnect. */
  restarts: number;
  /**
   * The last server event id seen. A reconnect sends it as `Last-Event-ID` when it can travel in a
   * header (no character above U+00FF, no CR, LF or NUL); otherwise the last one that can (or none).
   */
  lastEventId: string | undefined;
  /** When the next attempt starts (epoch ms), while `reconnecting`. */
  nextAttemptAt: number | undefined;
  /**
   * Why the last attempt failed, while the run tries again (`reconnecting`, then `connecting`
   * until the next response opens): a dropped connection, a 429 with Retry-After, a 503… It tells
   * a wait for the service apart from a lost connection. `undefined` otherwise; a run that gives up
   * reports its error in `error`.
   */
  reconnectReason: AgentError | undefined;
  startedAt: number | undefined;
  firstEventAt: number | undefined;
  endedAt: number | undefined;
}
