import type { AgentMessage } from '../wire/schemas.js';
import type { RunStream } from './run-stream.js';
import { settledRunStatuses, type RunSnapshot } from './run-types.js';
import { ListenerSet } from '../base/subscribable.js';

/** One finished run of a {@link RunHistory}: plain JSON. */
export interface RunHistoryEntry {
  id: string;
  /** The `input` as it was sent (every form field, an optional empty one as `""`). */
  input: Record<string, unknown> | undefined;
  /** The `messages` as they were sent, for an agent that takes messages. */
  messages: AgentMessage[] | undefined;
  status: 'done' | 'error' | 'aborted';
  /** The agent's output. */
  text: string;
  /** Why the run failed (status `error`). */
  error: { kind: string; message: string } | undefined;
  startedAt: number | undefined;
  firstEventAt: number | undefined;
  endedAt: number | undefined;
  /** Connection attempts the run took, and times the server started it over. */
  attempts: number;
  restarts: number;
}

/** Options of {@link createRunHistory}. */
export interface RunHistoryOptions {
  /**
   * How many runs are kept (the newest).
   * @default 20
   */
  limit?: number;
  /**
   * Entries to start with (newest first), e.g. restored from storage.
   * @default []
   */
  initialEntries?: readonly RunHistoryEntry[];
}

/** The default of `RunHistoryOptions.limit`. */
export const defaultRunHistoryLimit = 20;

/**
 * The finished runs of a {@link RunStream}, newest first, at most `limit` of them. It records
 * while it has a subscriber (from the first to the last), or from `connect()` (it returns the
 * disconnection); `getSnapshot()` is the same array until a run ends. Fits
 * `useSyncExternalStore`.
 *
 * @example
 * const history = createRunHistory(stream, { limit: 10 });
 * const disconnect = history.connect();
 */
export class RunHistory {
  readonly #stream: RunStream;
  readonly #limit: number;
  readonly #listeners = new ListenerSet({
    onFirst: () => {
      this.#stopRecording = this.connect();
    },
    onLast: () => {
      this.#stopRecording?.();
      this.#stopRecording = undefined;
    },
  });
  #stopRecording: (() => void) | undefined;
  #entries: readonly RunHistoryEntry[];
  #recorded = new WeakSet<RunSnapshot>();
  #counter = 0;

  constructor(stream: RunStream, options: RunHistoryOptions = {}) {
    this.#stream = stream;
    this.#limit = Math.max(1, Math.floor(options.limit ?? defaultRunHistoryLimit));
    this.#entries = Object.freeze((options.initialEntries ?? []).slice(0, this.#limit));
  }

  getSnapshot = (): readonly RunHistoryEntry[] => this.#entries;

  subscribe = this.#listeners.subscribe;

  /** Starts recording the stream's runs as they end; returns the function that stops it. */
  connect(): () => void {
    return this.#stream.observe({
      onStatusChange: (status, snapshot) => {
        if (settledRunStatuses.has(status)) this.#record(snapshot);
      },
    });
  }

  /** Forgets every entry. */
  clear(): void {
    if (this.#entries.length === 0) return;
    this.#entries = Object.freeze([]);
    this.#notify();
  }

  #record(snapshot: RunSnapshot) {
    if (this.#recorded.has(snapshot) || snapshot.request === undefined) return;
    this.#recorded.add(snapshot);
    const { input, messages } = snapshot.request;
    const entry: RunHistoryEntry = {
      id: `run-${(snapshot.startedAt ?? 0).toString(36)}-${++this.#counter}`,
      input,
      messages,
      status: snapshot.status as RunHistoryEntry['status'],
      text: snapshot.text,
      error: snapshot.error && { kind: snapshot.error.kind, message: snapshot.error.message },
      startedAt: snapshot.startedAt,
      firstEventAt: snapshot.firstEventAt,
      endedAt: snapshot.endedAt,
      attempts: snapshot.attempt,
      restarts: snapshot.restarts,
    };
    this.#entries = Object.freeze([entry, ...this.#entries].slice(0, this.#limit));
    this.#notify();
  }

  #notify() {
    this.#listeners.notify();
  }
}

/** Creates a {@link RunHistory}. */
export function createRunHistory(stream: RunStream, options?: RunHistoryOptions): RunHistory {
  return new RunHistory(stream, options);
}
