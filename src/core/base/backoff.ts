/** How a backoff delay is randomized. */
export type BackoffJitter =
  /** Uniform in `[0, delay]` (AWS "full jitter"): spreads clients best, may retry at once. */
  | 'full'
  /** Uniform in `[delay / 2, delay]` (AWS "equal jitter"): never less than half the delay. */
  | 'equal'
  /** No randomness. */
  | 'none';

/** The exponential backoff of {@link backoffDelay}. */
export interface BackoffPolicy {
  /** The delay before the first retry (before jitter), in ms. */
  baseDelayMs: number;
  /** No computed delay exceeds this, in ms. */
  maxDelayMs: number;
  jitter: BackoffJitter;
}

/** What the server asked for. */
export interface BackoffHints {
  /** From a `Retry-After` header, in ms: the delay is never shorter. */
  retryAfterMs?: number | undefined;
  /** The stream's last `retry:` field, in ms: the delay is never shorter (but still capped). */
  serverRetryMs?: number | undefined;
}

/**
 * The delay before retry number `retryIndex` (0 for the first retry): `baseDelayMs · 2^retryIndex`,
 * capped at `maxDelayMs`, then jittered. A server's `retry:` raises it (up to `maxDelayMs`); a
 * `Retry-After` raises it without a cap (see {@link exceedsRetryAfterLimit} to refuse a long one).
 *
 * @example
 * backoffDelay(2, { baseDelayMs: 1000, maxDelayMs: 30_000, jitter: 'equal' }); // 2000–4000
 */
export function backoffDelay(
  retryIndex: number,
  policy: BackoffPolicy,
  hints: BackoffHints = {},
  random: () => number = Math.random,
): number {
  const base = Math.max(0, policy.baseDelayMs);
  const cap = Math.max(0, policy.maxDelayMs);
  // 2 ** 1100 is Infinity; Math.min keeps it finite.
  const exponential = Math.min(cap, base * 2 ** Math.max(0, retryIndex));
  let delay: number;
  switch (policy.jitter) {
    case 'full':
      delay = random() * exponential;
      break;
    case 'equal':
      delay = exponential / 2 + (random() * exponential) / 2;
      break;
    default:
      delay = exponential;
  }
  if (hints.serverRetryMs !== undefined && hints.serverRetryMs >= 0) {
    delay = Math.max(delay, Math.min(cap, hints.serverRetryMs));
  }
  if (hints.retryAfterMs !== undefined && hints.retryAfterMs >= 0) {
    delay = Math.max(delay, hints.retryAfterMs);
  }
  return Math.round(delay);
}

/**
 * Whether a `Retry-After` asks for a longer wait than the policy allows: waiting that long would
 * leave the user looking at a spinner, retrying sooner would ignore the server, so the run ends.
 */
export function exceedsRetryAfterLimit(retryAfterMs: number | undefined, policy: BackoffPolicy) {
  return retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs;
}

/** The timers a wait uses (the globals unless given: tests give a manual clock). */
export interface BackoffTimers {
  setTimeout?: ((callback: () => void, ms: number) => unknown) | undefined;
  clearTimeout?: ((handle: unknown) => void) | undefined;
}

/** A delay that an abort ends early (resolving, not rejecting: the caller checks its signal). */
export function sleep(ms: number, signal?: AbortSignal, timers: BackoffTimers = {}): Promise<void> {
  const set = timers.setTimeout ?? setTimeout;
  const clear =
    timers.clearTimeout ??
    ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const onAbort = () => {
      clear(timer);
      resolve();
    };
    const timer = set(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How {@link retry} sends again. */
export interface RetryOptions {
  /** How many times the call is made again after its first failure. */
  retries: number;
  /** The delays between the calls: retry `n` waits `backoffDelay(n, policy)`. */
  policy: BackoffPolicy;
  /** Whether a failure may pass (the call is made again) or is final (thrown at once). */
  retryable: (error: unknown) => boolean;
  /** Ends the retrying: a wait ends at once and the last failure is thrown. */
  signal?: AbortSignal | undefined;
  timers?: BackoffTimers | undefined;
  random?: (() => number) | undefined;
}

/**
 * Calls `call` until it resolves, again after each failure `retryable` lets pass (at most
 * `retries` times more), waiting the policy's backoff between: the one retry loop of the library's
 * writes. Rejects with the last failure.
 */
export async function retry<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= options.retries || options.signal?.aborted || !options.retryable(error)) {
        throw error;
      }
      await sleep(
        backoffDelay(attempt, options.policy, {}, options.random),
        options.signal,
        options.timers,
      );
      if (options.signal?.aborted) throw error;
    }
  }
}
