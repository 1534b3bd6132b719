import type { AgentClient } from '../wire/agent-client.js';
import type { AgentError } from '../wire/errors.js';
import { RingBuffer } from './ring-buffer.js';
import type { RunStartRequest } from './run-stream-options.js';
import type { RunEvent, RunSnapshot, RunStatus } from './run-types.js';

/** The events of a run that has none (the idle snapshot's included). */
export const noRunEvents = Object.freeze([]) as readonly RunEvent[];

const textFoldPieces = 1024;
// What a header value refuses. One object for the module: a literal in the method would make a
// RegExp each time it runs (56 B per event).
const notInHeader = /[\0\r\n\u0100-\uffff]/;

/**
 * The mutable state of one run of a `RunStream`: the current attempt, the ids seen, the event
 * buffer and the text. Callbacks of an older run see that it is no longer the stream's and stop.
 */
export class Run {
  readonly controller = new AbortController();
  status: RunStatus = 'connecting';
  attempt = 0;
  /** The client sent the current attempt (a failure before is one of preparing it). */
  sent = false;
  /** The current attempt's response opened. */
  opened = false;
  /** How the current reconnect attempt relates to the events before it, once its first event came. */
  attemptMode: 'first' | 'resume' | 'restart' | undefined;
  /** The `Last-Event-ID` the current attempt sent. */
  resumeFrom: string | undefined;
  /** The highest numeric id accepted since the run (re)started. */
  maxId: number | undefined;
  serverRetryMs: number | undefined;
  url = '';
  buffer: RingBuffer<RunEvent>;
  eventsChanged = false;
  eventsView: readonly RunEvent[] = noRunEvents;
  totalEvents = 0;
  duplicateEvents = 0;
  /** The output joined so far; `textChunks` are the pieces since (joined when a snapshot is built). */
  textJoined = '';
  textChunks: string[] = [];
  error: AgentError | undefined;
  restarts = 0;
  lastEventId: string | undefined;
  /** The last id that can travel in a header: the `Last-Event-ID` of the next attempt. */
  resumeId: string | undefined;
  nextAttemptAt: number | undefined;
  reconnectReason: AgentError | undefined;
  /** The secrets of every attempt so far (a refreshed token included), removed from each event. */
  secrets: readonly string[] = [];
  firstEventAt: number | undefined;
  endedAt: number | undefined;
  settled = false;
  resolve: (snapshot: RunSnapshot) => void = () => undefined;
  readonly done: Promise<RunSnapshot>;

  constructor(
    readonly client: AgentClient,
    readonly request: RunStartRequest,
    readonly startedAt: number,
    maxEvents: number,
  ) {
    this.buffer = new RingBuffer(maxEvents);
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  get ended() {
    // The statuses a run ends in (run-types.ts), spelled out: read twice per event, three
    // comparisons of literals cost less than a set's lookup.
    const status = this.status;
    return status === 'done' || status === 'error' || status === 'aborted';
  }

  /**
   * Where an event with this numeric id stands against the events before it, noted: the first
   * event of a reconnect that went back to an id at or below the one it resumed from is a
   * `'restart'` (the server started the run over: the text so far goes); a resumed attempt's
   * event at or below the highest id taken is a `'duplicate'` (counted, not kept); else `'new'`.
   */
  admit(numericId: number | undefined): 'new' | 'restart' | 'duplicate' {
    let admitted: 'new' | 'restart' = 'new';
    if (this.attemptMode === undefined) {
      const resumeFrom = parseNumericId(this.resumeFrom);
      if (numericId !== undefined && resumeFrom !== undefined && numericId <= resumeFrom) {
        this.attemptMode = 'restart';
        admitted = 'restart';
        this.restarts += 1;
        this.textJoined = '';
        this.textChunks.length = 0;
        this.maxId = undefined;
      } else {
        this.attemptMode = 'resume';
      }
    } else if (
      this.attemptMode === 'resume' &&
      numericId !== undefined &&
      this.maxId !== undefined &&
      numericId <= this.maxId
    ) {
      this.duplicateEvents += 1;
      return 'duplicate';
    }
    if (numericId !== undefined) this.maxId = Math.max(this.maxId ?? numericId, numericId);
    return admitted;
  }

  /**
   * Keeps `id` as the run's last event id, and as the one a reconnect sends when it can travel in
   * a header: `fetch` refuses a `Last-Event-ID` with NUL, CR, LF or a character above U+00FF, and
   * the reconnect would fail locally ("Could not reach …"). Such an id stays on its event; the
   * last one that can travel is sent instead (or none). `numericId` is the id as a number when it
   * is one ({@link parseNumericId}): decimal digits travel, unsearched.
   */
  noteEventId(id: string, numericId?: number) {
    this.lastEventId = id;
    if (numericId !== undefined || !notInHeader.test(id)) this.resumeId = id;
  }

  /**
   * One concatenation per snapshot rather than one per event (each would be kept as a rope node),
   * and at least one per 1,024 pieces: events that come faster than snapshots are published (a
   * buffered response, a burst that never yields to a frame) would otherwise hold every piece,
   * and the payload string it is, in one growing array until the burst ends.
   */
  addText(text: string) {
    if (this.textChunks.push(text) >= textFoldPieces) this.#foldText();
  }

  get text(): string {
    if (this.textChunks.length > 0) this.#foldText();
    return this.textJoined;
  }

  #foldText() {
    this.textJoined += this.textChunks.join('');
    this.textChunks.length = 0;
  }
}

/** A decimal id (`1`, `42`) as a number; undefined for any other id. */
export function parseNumericId(id: string | undefined): number | undefined {
  if (id === undefined || id.length === 0 || id.length > 15) return undefined;
  // Read as its digits are checked (15 digits stay exact): no string-to-number conversion per event.
  let value = 0;
  for (let index = 0; index < id.length; index++) {
    const digit = id.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}
