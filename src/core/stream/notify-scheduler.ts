/** Coalesces many changes into one call of `flush`, at most once per frame or throttle interval. */
export interface NotifyScheduler {
  /** Asks for a flush; calls made before it happens coalesce into that one. */
  schedule(): void;
  /** Drops a pending flush (the caller flushes synchronously instead). */
  cancel(): void;
  /** Whether a flush is pending. */
  readonly pending: boolean;
}

/** Outside browsers, and the bound when frames stop (a hidden tab runs no animation frame). */
const frameFallbackMs = 16;
const hiddenTabFallbackMs = 100;

/**
 * With `throttleMs` undefined: the next animation frame where `requestAnimationFrame` exists, raced
 * by a 100 ms timer (a hidden tab runs no frame, and the state should still move), else a 16 ms
 * timer. With `throttleMs` a number: a timer of that many ms. Touches no global until `schedule()`.
 */
export function createNotifyScheduler(flush: () => void, throttleMs?: number): NotifyScheduler {
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const clear = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
    frame = undefined;
    timer = undefined;
  };
  const run = () => {
    clear();
    flush();
  };

  return {
    schedule() {
      if (frame !== undefined || timer !== undefined) return;
      if (throttleMs === undefined && typeof requestAnimationFrame === 'function') {
        frame = requestAnimationFrame(run);
        timer = setTimeout(run, hiddenTabFallbackMs);
      } else {
        timer = setTimeout(run, Math.max(0, throttleMs ?? frameFallbackMs));
      }
    },
    cancel: clear,
    get pending() {
      return frame !== undefined || timer !== undefined;
    },
  };
}
