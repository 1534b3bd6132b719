import { backoffDelay } from '../base/backoff.js';

/**
 * When a durable run is read again. Every delay is in ms. The defaults are ours: the service
 * publishes no cadence (its own example client polls a flat 2 s and stops while a run waits for
 * approval).
 */
export interface DurablePollPolicy {
  /**
   * The delay while a run is queued or running, for the first `quickForMs` after it last changed.
   * @default 1000
   */
  quickMs: number;
  /**
   * How long after a change the quick delay lasts.
   * @default 10_000
   */
  quickForMs: number;
  /**
   * The delay after the quick phase, until `steadyForMs` after the last change.
   * @default 2000
   */
  steadyMs: number;
  /**
   * How long after a change the steady delay lasts; the patient delay follows.
   * @default 120_000
   */
  steadyForMs: number;
  /**
   * The delay once a run has not changed for `steadyForMs`.
   * @default 5000
   */
  patientMs: number;
  /**
   * The delay while a cancellation is on its way.
   * @default 1000
   */
  cancellingMs: number;
  /**
   * The delay while a run waits for approval (another tab or device may answer or cancel it).
   * @default 15_000
   */
  requiresInputMs: number;
  /**
   * The delay while the server reports a state this library does not know (shown, not acted on).
   * @default 15_000
   */
  unknownStateMs: number;
  /**
   * What the delay is multiplied by while the page is hidden.
   * @default 4
   */
  hiddenFactor: number;
  /**
   * The longest delay the hidden factor makes (a longer delay, e.g. a `Retry-After`, is kept).
   * @default 30_000
   */
  hiddenMaxMs: number;
  /**
   * The first delay after a failed read (network error, 408, 429, 5xx), doubled per failure.
   * @default 2000
   */
  failureBaseMs: number;
  /**
   * The longest delay after failed reads (before a `Retry-After`, which is always honoured).
   * @default 30_000
   */
  failureMaxMs: number;
  /**
   * How long after a turn was accepted the service expires it on the next read (30 minutes of
   * execution and 10 of grace): an active run is read once more just after it.
   * @default 2_400_000
   */
  deadlineMs: number;
  /**
   * How long one read may take before it counts as failed.
   * @default 15_000
   */
  requestTimeoutMs: number;
}

/** The defaults of {@link DurablePollPolicy}. */
export const defaultDurablePollPolicy: Readonly<DurablePollPolicy> = Object.freeze({
  quickMs: 1000,
  quickForMs: 10_000,
  steadyMs: 2000,
  steadyForMs: 120_000,
  patientMs: 5000,
  cancellingMs: 1000,
  requiresInputMs: 15_000,
  unknownStateMs: 15_000,
  hiddenFactor: 4,
  hiddenMaxMs: 30_000,
  failureBaseMs: 2000,
  failureMaxMs: 30_000,
  deadlineMs: 40 * 60_000,
  requestTimeoutMs: 15_000,
});

/** What {@link durablePollDelay} decides from. */
export interface DurablePollSituation {
  /** The run's phase as polling sees it. */
  phase: 'active' | 'cancelling' | 'requires-input' | 'unknown' | 'settled';
  /** Time since the run's state or `updated_at` last changed (or since the last action), in ms. */
  sinceChangeMs: number;
  /** Whether the page is hidden. */
  hidden?: boolean;
  /** Whether the browser says it is offline. */
  offline?: boolean;
  /** Reads that failed in a row (0 after a successful one). */
  consecutiveFailures?: number;
  /** The `Retry-After` of the last failed read, in ms. */
  retryAfterMs?: number | undefined;
  /** Time left until the turn's deadline (negative once past), when known, in ms. */
  untilDeadlineMs?: number | undefined;
  /** Randomness for the jitter of failure backoff. */
  random?: () => number;
}

/**
 * The delay until the next read of a durable run, or `undefined` when there is none to schedule (a
 * settled run; offline, where the `online` event reads at once). Pure: the table of the README's
 * "Runs that survive a reload" is this function.
 *
 * @example
 * durablePollDelay({ phase: 'active', sinceChangeMs: 30_000 }); // 2000
 * durablePollDelay({ phase: 'active', sinceChangeMs: 30_000, hidden: true }); // 8000
 */
export function durablePollDelay(
  situation: DurablePollSituation,
  policy: Readonly<DurablePollPolicy> = defaultDurablePollPolicy,
): number | undefined {
  if (situation.phase === 'settled' || situation.offline === true) return undefined;
  const failures = situation.consecutiveFailures ?? 0;
  if (failures > 0) {
    return backoffDelay(
      failures - 1,
      { baseDelayMs: policy.failureBaseMs, maxDelayMs: policy.failureMaxMs, jitter: 'equal' },
      { retryAfterMs: situation.retryAfterMs },
      situation.random,
    );
  }
  let delay: number;
  switch (situation.phase) {
    case 'cancelling':
      delay = policy.cancellingMs;
      break;
    case 'requires-input':
      delay = policy.requiresInputMs;
      break;
    case 'unknown':
      delay = policy.unknownStateMs;
      break;
    default:
      delay =
        situation.sinceChangeMs < policy.quickForMs
          ? policy.quickMs
          : situation.sinceChangeMs < policy.steadyForMs
            ? policy.steadyMs
            : policy.patientMs;
  }
  if (situation.hidden === true) {
    delay = Math.max(delay, Math.min(delay * policy.hiddenFactor, policy.hiddenMaxMs));
  }
  // Expiry is applied by a read: the first read after the deadline makes the service say FAILED.
  const untilDeadline = situation.untilDeadlineMs;
  if (
    untilDeadline !== undefined &&
    untilDeadline >= 0 &&
    situation.phase !== 'requires-input' &&
    delay > untilDeadline + 1000
  ) {
    delay = untilDeadline + 1000;
  }
  return delay;
}
