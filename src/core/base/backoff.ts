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

/** A delay that an abort ends early (resolving, not rejecting: the caller checks its signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
