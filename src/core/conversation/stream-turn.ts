import type { ConversationMessage } from '../storage/conversation-message.js';
import type { RunStream } from '../stream/run-stream.js';
import { settledRunStatuses, type RunSnapshot, type RunStatus } from '../stream/run-types.js';
import type { DurableInteraction } from '../wire/durable-run-schemas.js';
import {
  lastInFlightRun,
  plainError,
  type TurnDriver,
  type TurnHandle,
  type TurnPhase,
  type TurnSnapshot,
} from './turn-driver.js';

/** What a stream turn driver needs besides its run stream. */
export interface StreamTurnDriverOptions {
  agentId: string;
  /**
   * Follows a stored answer that a durable run still writes (a reload during a durable turn,
   * whatever the conversation's turns are now): the driver that can.
   */
  storedTurns: TurnDriver;
}

/**
 * The turns of a conversation as streamed runs: one SSE response each, on the conversation's run
 * stream (gone with the page: a reload finds the answer stopped).
 */
export function createStreamTurnDriver(
  stream: RunStream,
  options: StreamTurnDriverOptions,
): TurnDriver {
  const { agentId, storedTurns } = options;
  return {
    outlivesPage: false,
    setClient: (client) => {
      stream.setClient(client);
      storedTurns.setClient(client);
    },
    preload: () => Promise.resolve(),
    start: ({ messages, metadata }) => {
      const turn = new StreamTurn(stream);
      void stream.start({ agentId, messages, ...(metadata ? { metadata } : {}) });
      return turn;
    },
    findTurn: (messages) =>
      lastInFlightRun(messages) === undefined
        ? Promise.resolve(undefined)
        : storedTurns.findTurn(messages),
    attach: (ref) => storedTurns.attach(ref),
  };
}

const noApprovals: readonly DurableInteraction[] = Object.freeze([]);

/** One turn as one streamed run. */
class StreamTurn implements TurnHandle {
  readonly #stream: RunStream;
  #memo: { run: RunSnapshot; snapshot: TurnSnapshot } | undefined;

  constructor(stream: RunStream) {
    this.#stream = stream;
  }

  subscribe = (listener: () => void): (() => void) => this.#stream.subscribe(listener);

  getSnapshot = (): TurnSnapshot => {
    const run = this.#stream.getSnapshot();
    if (this.#memo?.run === run) return this.#memo.snapshot;
    const ended = settledRunStatuses.has(run.status);
    const snapshot: TurnSnapshot = {
      ended,
      phase: phaseOf(run.status),
      status: run.status,
      error: ended ? run.error : undefined,
      pendingInteractions: noApprovals,
      approvalStatus: 'idle',
      approvalError: undefined,
      run,
      durableRun: undefined,
      accepted: false,
    };
    this.#memo = { run, snapshot };
    return snapshot;
  };

  answer(message: ConversationMessage): ConversationMessage {
    const run = this.#stream.getSnapshot();
    const status: ConversationMessage['status'] = !settledRunStatuses.has(run.status)
      ? 'streaming'
      : run.status === 'done'
        ? 'done'
        : run.status === 'error'
          ? 'error'
          : 'stopped';
    return {
      ...message,
      text: run.text,
      status,
      ...(run.status === 'error' && run.error ? { error: plainError(run.error) } : {}),
      startedAt: run.startedAt,
      firstEventAt: run.firstEventAt,
      endedAt: run.endedAt,
    };
  }

  stop(): void {
    this.#stream.abort();
  }

  detach(): void {
    this.#stream.abort();
  }

  resume(): void {
    // A streamed run cannot be watched again: the answer was stopped.
  }

  discard(): void {
    this.#stream.reset();
  }
}

function phaseOf(status: RunStatus): TurnPhase {
  return status === 'streaming' || status === 'reconnecting' ? status : 'connecting';
}
