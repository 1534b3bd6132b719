import type { PreparedRunRequest } from './agent-client-types.js';
import { AgentError } from './errors.js';
import {
  attemptFailure,
  checkEventStreamResponse,
  eventStreamHeaders,
  idleTimeoutError,
  startAttempt,
} from './sse-attempt.js';
import { defaultSseTransport } from './sse-transport.js';
import type { SseAttemptResult, SseReadOptions, StreamRunOptions } from './sse-types.js';

/**
 * Sends one attempt of a run (the client's `streamRun`): the POST through the client's `fetch`
 * (redirect guard included), the idle watch from the request on, the response checked, then the
 * body handed to the transport, which only reads it. Every failure ends as the errors of one
 * place: an `AgentHttpError` or `AgentValidationError` before the stream opens, an
 * `AgentNetworkError` for no response, a drop or the idle timeout, or what a callback threw.
 */
export async function sendStreamRequest(
  send: typeof fetch,
  prepared: PreparedRunRequest,
  options: StreamRunOptions,
  noteResponse: (response: Response) => void,
): Promise<SseAttemptResult> {
  const { signal } = options;
  const transport = options.transport ?? defaultSseTransport;
  // Before the request, as a transport of the caller's asks (the default has nothing to load):
  // once the response is there its body is read at once (a body that errors drops what it still
  // holds unread).
  if (transport.preload !== undefined) await transport.preload();
  if (signal.aborted) return { outcome: 'aborted' };
  options.onSend?.({ url: prepared.url, secrets: prepared.secrets });

  const headers = eventStreamHeaders(prepared.headers);
  if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
  const request = {
    url: prepared.url,
    method: prepared.method,
    secrets: prepared.secrets,
    idleTimeoutMs: options.idleTimeoutMs,
  };
  const attempt = startAttempt(signal, options.idleTimeoutMs);
  let opened = false;
  let handlerError: { error: unknown } | undefined;
  const guard =
    <Value>(callback: ((value: Value) => void) | undefined) =>
    (value: Value) => {
      try {
        callback?.(value);
      } catch (error) {
        handlerError ??= { error };
        throw error;
      }
    };
  const read: SseReadOptions = {
    signal: attempt.signal,
    maxEventSize: options.maxEventSize,
    lastEventId: options.lastEventId,
    onActivity: attempt.touch,
    onMessage: guard(options.onMessage),
    onId: options.onId === undefined ? undefined : guard(options.onId),
    onRetry: options.onRetry === undefined ? undefined : guard(options.onRetry),
  };

  let outcome: SseAttemptResult['outcome'];
  try {
    const response = await send(prepared.url, {
      method: prepared.method,
      headers,
      ...(prepared.body === undefined ? {} : { body: prepared.body }),
      signal: attempt.signal,
    });
    attempt.touch();
    await checkEventStreamResponse(response, request);
    opened = true;
    noteResponse(response);
    options.onOpen?.(response);
    if (response.body === null) return { outcome: 'closed' };
    ({ outcome } = await transport(response, read));
  } catch (error) {
    if (handlerError !== undefined) throw handlerError.error;
    if (signal.aborted) return { outcome: 'aborted' };
    if (error instanceof AgentError && !attempt.idleTimedOut) throw error;
    throw attemptFailure(error, attempt, opened, request);
  } finally {
    attempt.end();
    // Ends the body that is still open after a callback threw (no-op after a clean end).
    attempt.abort();
  }

  if (handlerError !== undefined) throw handlerError.error;
  if (signal.aborted) return { outcome: 'aborted' };
  if (attempt.idleTimedOut) throw idleTimeoutError(request);
  return { outcome };
}
