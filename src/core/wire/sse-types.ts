// The types of the run stream's wire, under both their users: the client that sends the request
// (`AgentClient.streamRun`) and the transports that read its response.

/** One server-sent event that carries data (the SSE spec's "dispatch"). */
export interface SseMessage {
  /** The frame's `id:` field; undefined when the frame had none (or an empty one). */
  id: string | undefined;
  /** The `event:` field; `message` when the frame named none. */
  event: string;
  /** The `data:` lines joined by `\n`; never empty. */
  data: string;
  /**
   * The stream's last event id when this event came (the SSE standard's `lastEventId`): the
   * latest `id:` of this frame or an earlier one (or the one the attempt resumed from), `''` before
   * any (or after an empty `id:`). An `id:` holding NUL is ignored, as the standard says. Set by this
   * library's transport.
   */
  lastEventId?: string | undefined;
}

/** What a transport is told beside the response it reads. */
export interface SseReadOptions {
  /** Ends the reading; the promise then resolves `'aborted'`. */
  signal: AbortSignal;
  /**
   * The most bytes one event may take (its lines from one blank line to the next, as received,
   * line breaks not counted; comments count too). Past it the transport rejects at once with an
   * `AgentEventTooLargeError`: nothing holds more than this.
   * @default 4194304 (4 MiB)
   */
  maxEventSize?: number | undefined;
  /**
   * The last event id the stream starts from, as `EventSource` keeps it across reconnections: the
   * one sent as `Last-Event-ID`. An event with no `id:` of its own before the stream sets one carries
   * it as its `lastEventId`.
   * @default undefined (none: `''`)
   */
  lastEventId?: string | undefined;
  /** A chunk of the body arrived: a sign of life for the idle watch. */
  onActivity?: (() => void) | undefined;
  /** An event with data. A throw ends the reading with that error. */
  onMessage: (message: SseMessage) => void;
  /** A frame that set an `id:` but carried no data (not an event, but the last event id moves). */
  onId?: ((id: string) => void) | undefined;
  /** The server's `retry:` field, in ms. */
  onRetry?: ((retryMs: number) => void) | undefined;
}

/**
 * Turns an opened event-stream response (a 2xx `text/event-stream`, already checked) into
 * messages. It resolves `'closed'` when the body ends and `'aborted'` when `signal` does; it
 * rejects with the error a callback threw, with an `AgentError` that ends the attempt as it is
 * (`AgentEventTooLargeError`), or with the body's own failure (the client reports that as a
 * dropped connection). It never sends anything.
 */
export interface SseTransport {
  (response: Response, options: SseReadOptions): Promise<SseAttemptResult>;
  /**
   * Called before each request goes out: loads what reading needs (a lazy chunk), so the body is
   * read from its first byte, or throws when this runtime cannot read with it (nothing is sent).
   * @default undefined (nothing to load)
   */
  preload?: (() => Promise<unknown> | undefined) | undefined;
}

export interface SseAttemptResult {
  outcome: 'closed' | 'aborted';
}

/** What the client sent for one attempt: the run's secrets are removed from what comes back. */
export interface SentRunRequest {
  url: string;
  /** The token and the values of the secret headers of this attempt. */
  secrets: readonly string[];
}

/** Options of one attempt of `AgentClient.streamRun`. */
export interface StreamRunOptions extends Omit<
  SseReadOptions,
  'signal' | 'onActivity' | 'lastEventId'
> {
  /** Ends the attempt (before or after the response); the promise then resolves `'aborted'`. */
  signal: AbortSignal;
  /**
   * Sent as `Last-Event-ID` (a reconnect): a server that supports it resumes after that event.
   * The events read carry it as their `lastEventId` until the stream sets another.
   * @default undefined (none sent)
   */
  lastEventId?: string | undefined;
  /**
   * With no byte received for this long (response headers included), the attempt fails with an
   * `AgentNetworkError`: a half-open socket becomes a drop. (`RunStream` always passes one: see
   * its `idleTimeoutMs`.)
   * @default undefined (off)
   */
  idleTimeoutMs?: number | undefined;
  /**
   * What reads the response (a test seam).
   * @default defaultSseTransport (the one scan of the body, in every runtime)
   */
  transport?: SseTransport | undefined;
  /** The request is about to go out (the token and headers were asked for, the body built). */
  onSend?: ((request: SentRunRequest) => void) | undefined;
  /** The response opened: a 2xx `text/event-stream`. */
  onOpen?: ((response: Response) => void) | undefined;
}
