import {
  forwardRef,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import { activeRunStatuses, type RunStatus } from '../core/run-types.js';
import { classNames, dataFlag } from './part-helpers.js';

/** Props of {@link AgentRunOutput}. */
export interface AgentRunOutputProps
  extends ComponentPropsWithoutRef<'div'>, RefAttributes<HTMLDivElement> {
  /** The agent's output so far (`useAgentRunStream().text`), shown as plain text. */
  text: string;
  /**
   * The run's status: sets `aria-busy` while `connecting`, `streaming` or `reconnecting`, and
   * `data-status`.
   * @default 'idle'
   */
  status?: RunStatus;
  /**
   * The region's accessible name.
   * @default 'Agent output'
   */
  label?: string;
  /**
   * Shown while there is no output yet.
   * @default 'No output yet.'
   */
  placeholder?: ReactNode;
}

/**
 * The agent's streamed output as plain text, whitespace kept (`white-space: pre-wrap`), with
 * `aria-busy` while the run is active. It is not a live region: a screen reader is not made to
 * read every token (announce status changes elsewhere, e.g. with `AgentEventLog`).
 *
 * @example
 * const run = useAgentRunStream();
 * <AgentRunOutput text={run.text} status={run.status} />
 */
export const AgentRunOutput = forwardRef<HTMLDivElement, AgentRunOutputProps>(AgentRunOutputRender);
AgentRunOutput.displayName = 'AgentRunOutput';

function AgentRunOutputRender(
  {
    text,
    status = 'idle',
    label = 'Agent output',
    placeholder = 'No output yet.',
    className,
    style,
    ...rest
  }: AgentRunOutputProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const empty = text === '';
  return (
    <div
      ref={ref}
      role="region"
      aria-label={label}
      aria-busy={activeRunStatuses.has(status) ? true : undefined}
      className={classNames('ack-run-output', className)}
      data-status={status}
      data-empty={dataFlag(empty)}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', ...style }}
      {...rest}
    >
      {empty ? <span className="ack-run-output__placeholder">{placeholder}</span> : text}
    </div>
  );
}
