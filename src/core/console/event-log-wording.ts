// The event log's words (a failed run's row, the log's live region): only the event log, a part
// loaded on demand, says them, so they are not on a page with the console alone
// (docs/decisions/0014-bundle-size.md).
import type { RunEvent, RunStatus } from '../stream/run-types.js';
import { plural } from './run-wording.js';

/** A `run.failed` event's problem in words (its detail, else its title), for the row. */
export function runFailedSummary(event: RunEvent): string | undefined {
  if (event.kind !== 'run-failed' || typeof event.payload !== 'object' || event.payload === null) {
    return undefined;
  }
  const problem = (event.payload as { error?: unknown }).error;
  if (typeof problem !== 'object' || problem === null) return undefined;
  const { detail, title } = problem as { detail?: unknown; title?: unknown };
  if (typeof detail === 'string' && detail !== '') return detail;
  return typeof title === 'string' && title !== '' ? title : undefined;
}

/** The sentence a live region reads when a run's status changes (`undefined`: keep the last one). */
export function runStatusAnnouncement(
  previous: RunStatus | undefined,
  status: RunStatus | undefined,
  eventCount: number,
): string | undefined {
  switch (status) {
    case 'connecting':
      return 'Run started.';
    case 'streaming':
      return previous === 'reconnecting' ? 'Reconnected.' : undefined;
    case 'reconnecting':
      return 'Reconnecting.';
    case 'done':
      return `Run finished: ${plural(eventCount, 'event')}.`;
    case 'error':
      return 'Run failed.';
    case 'aborted':
      return 'Run stopped.';
    default:
      return '';
  }
}
