import {
  forwardRef,
  useMemo,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type RefAttributes,
} from 'react';
import type { AgentError } from '../core/wire/errors.js';
import { runStatusText } from '../core/console/run-wording.js';
import type { RunStatus } from '../core/stream/run-types.js';
import { classNames, named } from './part-helpers.js';
import { useOnline } from './use-online.js';

/** Props of {@link AgentRunStatus}. */
export interface AgentRunStatusProps
  extends Omit<ComponentPropsWithoutRef<'p'>, 'children'>, RefAttributes<HTMLParagraphElement> {
  /** The run's status, or `'waiting'` for a durable turn paused until a person approves. */
  status: RunStatus | 'waiting';
  /**
   * The connection attempt, from 1 (`useAgentRunStream().attempt`).
   * @default 0
   */
  attempt?: number;
  /**
   * How many times the server started the run over on a reconnect.
   * @default 0
   */
  restarts?: number;
  /**
   * When the next attempt starts (epoch ms), while `reconnecting`: the line says how long it waits.
   * @default undefined
   */
  nextAttemptAt?: number | undefined;
  /**
   * Why the last attempt failed, while `reconnecting` (`useAgentRunStream().reconnectReason`): the
   * line says whether the connection broke off or the service asked to wait.
   * @default undefined
   */
  reconnectReason?: AgentError | undefined;
  /**
   * When the run started (epoch ms).
   * @default undefined
   */
  startedAt?: number | undefined;
  /**
   * When the run ended (epoch ms): a finished run says how long it took.
   * @default undefined
   */
  endedAt?: number | undefined;
}

/**
 * One line saying where the run is (ready, starting, running, reconnecting and why: the device is
 * offline, the connection broke off or the service asked to wait; done in N s, failed, stopped) in
 * a polite live region. The text changes only when the status (or attempt) changes, so a screen
 * reader hears each change once, never each token.
 * Carries `data-status`.
 *
 * @example
 * <AgentRunStatus status={run.status} attempt={run.attempt} restarts={run.restarts}
 *   startedAt={run.startedAt} endedAt={run.endedAt} />
 */
export const AgentRunStatus = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLParagraphElement, AgentRunStatusProps>(AgentRunStatusRender),
  'AgentRunStatus',
);

function AgentRunStatusRender(
  {
    status,
    attempt = 0,
    restarts = 0,
    nextAttemptAt,
    reconnectReason,
    startedAt,
    endedAt,
    className,
    ...rest
  }: AgentRunStatusProps,
  ref: ForwardedRef<HTMLParagraphElement>,
) {
  const online = useOnline();
  // Computed once per planned attempt, so the line does not change (and is not re-announced) as
  // time passes.
  const waitSeconds = useMemo(
    () =>
      nextAttemptAt === undefined
        ? undefined
        : Math.max(0, Math.ceil((nextAttemptAt - Date.now()) / 1000)),
    [nextAttemptAt],
  );
  return (
    <p
      ref={ref}
      role="status"
      className={classNames('ack-root', 'ack-run-status', className)}
      data-status={status}
      data-offline={online ? undefined : ''}
      {...rest}
    >
      {runStatusText(
        { status, attempt, restarts, startedAt, endedAt, reconnectReason },
        online,
        waitSeconds,
      )}
    </p>
  );
}
