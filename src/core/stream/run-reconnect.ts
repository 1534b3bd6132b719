import { backoffDelay, exceedsRetryAfterLimit, type BackoffPolicy } from '../base/backoff.js';
import {
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentValidationError,
} from '../wire/errors.js';
import type { RunStreamReconnectOptions } from './run-stream-options.js';

/** A {@link RunStreamReconnectOptions} with its defaults filled in. */
export interface ReconnectPlan {
  maxAttempts: number;
  backoff: BackoffPolicy;
  midStream: 'reconnect' | 'fail';
}

/** The policy a run starts with (it keeps it until it ends). */
export function reconnectPlan(policy: RunStreamReconnectOptions = {}): ReconnectPlan {
  return {
    maxAttempts: Math.max(1, policy.maxAttempts ?? 4),
    backoff: {
      baseDelayMs: policy.baseDelayMs ?? 1000,
      maxDelayMs: policy.maxDelayMs ?? 30_000,
      jitter: policy.jitter ?? 'equal',
    },
    midStream: policy.midStream ?? 'reconnect',
  };
}

/** Where a run stands when an attempt failed. */
export interface FailedAttempt {
  /** The attempts made so far, the failed one included. */
  attempt: number;
  /** The failed attempt's response had opened (the stream dropped rather than failed to open). */
  opened: boolean;
  /** The stream's last `retry:` field, in ms. */
  serverRetryMs: number | undefined;
}

/**
 * The wait before the next attempt after `error`, or undefined when the run ends in `error`: a
 * stream that dropped after it opened is tried again only on a network failure with `midStream:
 * 'reconnect'`, one that never opened when the error is retryable; never past `maxAttempts`, nor
 * when a `Retry-After` asks for longer than `maxDelayMs`.
 */
export function retryDelay(
  plan: ReconnectPlan,
  failed: FailedAttempt,
  error: AgentError,
  random: (() => number) | undefined,
): number | undefined {
  const retryable = failed.opened
    ? error instanceof AgentNetworkError && plan.midStream === 'reconnect'
    : error.retryable;
  const retryAfterMs = error instanceof AgentHttpError ? error.retryAfterMs : undefined;
  if (
    !retryable ||
    failed.attempt >= plan.maxAttempts ||
    exceedsRetryAfterLimit(retryAfterMs, plan.backoff)
  ) {
    return undefined;
  }
  return backoffDelay(
    failed.attempt - 1,
    plan.backoff,
    { retryAfterMs, serverRetryMs: failed.serverRetryMs },
    random,
  );
}

/** Any failure as an {@link AgentError} (a snapshot's `error` is always one). */
export function toAgentError(error: unknown, phase: 'prepare' | 'stream'): AgentError {
  if (error instanceof AgentError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (phase === 'prepare') {
    const inputError = new AgentInputError(`The run request could not be prepared: ${reason}`);
    Object.defineProperty(inputError, 'cause', { value: error });
    return inputError;
  }
  return new AgentValidationError('The run stream', [{ path: '', message: reason }], undefined);
}
