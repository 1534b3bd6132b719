import {
  forwardRef,
  useLayoutEffect,
  useRef,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
  type UIEvent,
} from 'react';
import { activeRunStatuses, type RunStatus } from '../core/stream/run-types.js';
import { classNames, dataFlag, useComposedRefs, named } from './part-helpers.js';
import { useFollowEnd } from './use-follow-end.js';

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
  /**
   * Marks the output as partial (`data-partial` and a short note above the text): the run ended
   * before the agent finished.
   * @default true when `status` is 'error' or 'aborted' and there is text
   */
  partial?: boolean;
  /**
   * Renders the text, e.g. as Markdown (`renderMarkdown` from `agent-console-kit/markdown`).
   * @default undefined (plain text, whitespace kept)
   */
  renderText?: (text: string) => ReactNode;
}

/** How close to the end (px) still counts as "at the end": the output keeps following. */
const endThreshold = 24;

/**
 * The agent's streamed output as plain text, whitespace kept (`white-space: pre-wrap`), with
 * `aria-busy` while the run is active. It scrolls within a bounded height (the stylesheet's
 * `--ack-output-max-height`) and follows new text while the reader is at the end; scrolling up
 * stops following until they scroll back down. Output cut short by a failure or a stop is marked
 * as partial. It is not a live region: a screen reader is not made to read every token (announce
 * status changes elsewhere, e.g. with `AgentRunStatus`).
 *
 * @example
 * const run = useAgentRunStream();
 * <AgentRunOutput text={run.text} status={run.status} />
 */
export const AgentRunOutput = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentRunOutputProps>(AgentRunOutputRender),
  'AgentRunOutput',
);

function AgentRunOutputRender(
  {
    text,
    status = 'idle',
    label = 'Agent output',
    placeholder = 'No output yet.',
    partial,
    renderText,
    className,
    style,
    onScroll,
    ...rest
  }: AgentRunOutputProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const elementRef = useRef<HTMLDivElement>(null);
  const composedRef = useComposedRefs(ref, elementRef);
  const { followingRef, handleScroll: followScroll, scrollToEnd } = useFollowEnd(endThreshold);
  const empty = text === '';
  const isPartial = partial ?? (!empty && (status === 'error' || status === 'aborted'));

  useLayoutEffect(() => {
    const element = elementRef.current;
    if (element && followingRef.current) scrollToEnd(element);
  }, [text, isPartial, followingRef, scrollToEnd]);

  const handleScroll = (event: UIEvent<HTMLDivElement>) => {
    followScroll(event.currentTarget);
    onScroll?.(event);
  };

  return (
    <div
      ref={composedRef}
      role="region"
      aria-label={label}
      aria-busy={activeRunStatuses.has(status) ? true : undefined}
      // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={classNames('ack-root', 'ack-run-output', className)}
      data-status={status}
      data-empty={dataFlag(empty)}
      data-partial={dataFlag(isPartial)}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', ...style }}
      onScroll={handleScroll}
      {...rest}
    >
      {isPartial ? (
        <p className="ack-run-output__partial">
          {status === 'aborted'
            ? 'Partial output: the run was stopped.'
            : 'Partial output: the run failed before it finished.'}
        </p>
      ) : null}
      {empty ? (
        <span className="ack-run-output__placeholder">{placeholder}</span>
      ) : renderText ? (
        renderText(text)
      ) : (
        text
      )}
    </div>
  );
}
