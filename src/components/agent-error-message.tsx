import {
  forwardRef,
  useEffect,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import { AgentHttpError, type AgentError } from '../core/wire/errors.js';
import type { FormField } from '../core/console/input-form.js';
import type { AgentErrorTool, ToolAuthorizationState } from '../core/wire/tool-authorization.js';
import { useOnline } from './use-online.js';
import { AlertIcon, KeyIcon, RetryIcon } from './icons.js';
import { classNames, named } from './part-helpers.js';

import { describeAgentError } from '../core/console/error-wording.js';

/** Props of {@link AgentErrorMessage}. */
export interface AgentErrorMessageProps
  extends Omit<ComponentPropsWithoutRef<'div'>, 'children'>, RefAttributes<HTMLDivElement> {
  /** The error to explain. */
  error: AgentError;
  /**
   * The agent the request was for (named in a 404).
   * @default undefined
   */
  agentId?: string;
  /**
   * The form's fields, whose labels name missing fields.
   * @default undefined
   */
  fields?: readonly FormField[];
  /**
   * The error ended a run that had started streaming (see `describeAgentError`).
   * @default false
   */
  midRun?: boolean;
  /**
   * Shows a retry button (for errors where trying again may help) that calls this.
   * @default undefined (no button)
   */
  onRetry?: () => void;
  /**
   * The retry button's label.
   * @default 'Try again'
   */
  retryLabel?: ReactNode;
  /**
   * Shows an "Authorize" button beside each tool of a 422 that names its tool server, and calls
   * this with the tool (`AgentConsole` asks `client.authorizeToolServer` for the URL and opens it).
   * @default undefined (the tools are listed without a button)
   */
  onAuthorizeTool?: (tool: AgentErrorTool) => void;
  /**
   * Where each tool's authorization stands, by server id: the row says so ("Opening…", "Opened:
   * run again once you have allowed access", or why it failed).
   * @default {}
   */
  toolStates?: Readonly<Record<string, ToolAuthorizationState>>;
}

/**
 * An error explained as plain text, in an `alert`: a title, what to do, the tools (each with an
 * "Authorize" button when `onAuthorizeTool` is given) or fields concerned, a countdown to when a
 * rate-limited request may be tried again, the service's own words and its request id. It follows
 * the browser's online state (a network error says "offline" while it is). Carries `data-kind`
 * and `data-status`.
 *
 * @example
 * {run.error ? <AgentErrorMessage error={run.error} agentId={agentId} onRetry={retry} /> : null}
 */
export const AgentErrorMessage = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentErrorMessageProps>(AgentErrorMessageRender),
  'AgentErrorMessage',
);

function AgentErrorMessageRender(
  {
    error,
    agentId,
    fields,
    midRun = false,
    onRetry,
    retryLabel = 'Try again',
    onAuthorizeTool,
    toolStates = {},
    className,
    ...rest
  }: AgentErrorMessageProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const online = useOnline();
  const description = describeAgentError(error, { agentId, fields, online, midRun });
  const remaining = useCountdown(description.retryAfterSeconds);
  const showServiceDetail =
    description.serviceDetail !== undefined &&
    description.serviceDetail !== '' &&
    description.serviceDetail !== description.detail;
  const anyOpened = Object.values(toolStates).some((state) => state.status === 'opened');
  return (
    <div
      ref={ref}
      role="alert"
      className={classNames('ack-root', 'ack-error', className)}
      data-kind={error.kind}
      data-status={error instanceof AgentHttpError ? error.status : undefined}
      {...rest}
    >
      <AlertIcon />
      <div className="ack-error__body">
        <p className="ack-error__title">{description.title}</p>
        {/* With a countdown, the detail is for screen readers; the ticking line says it for the eyes. */}
        <p
          className={classNames(
            'ack-error__detail',
            remaining !== undefined && 'ack-visually-hidden',
          )}
        >
          {description.detail}
        </p>
        {description.tools.length > 0 ? (
          <ToolList
            tools={description.tools}
            toolStates={toolStates}
            onAuthorizeTool={onAuthorizeTool}
          />
        ) : description.items.length > 0 ? (
          <ul className="ack-error__items">
            {description.items.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
        ) : null}
        {anyOpened ? (
          <p className="ack-error__next">
            Once you have allowed access in the page that opened, run the agent again.
          </p>
        ) : null}
        {remaining !== undefined ? (
          // The detail says it once for screen readers; this line ticks for the eyes only.
          <p className="ack-error__countdown" aria-hidden="true">
            {remaining > 0 ? `You can try again in ${remaining} s.` : 'You can try again now.'}
          </p>
        ) : null}
        {showServiceDetail ? (
          <p className="ack-error__service">The service said: {description.serviceDetail}</p>
        ) : null}
        {description.requestId ? (
          <p className="ack-error__request-id">
            Request id: <code>{description.requestId}</code>
          </p>
        ) : null}
        {onRetry ? (
          <div className="ack-actions">
            <button
              type="button"
              className="ack-error__retry"
              data-variant={anyOpened ? 'primary' : 'secondary'}
              onClick={onRetry}
            >
              <RetryIcon />
              {retryLabel}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** Seconds left of `seconds`, counted from when it was first given; ticks once a second. */
function useCountdown(seconds: number | undefined): number | undefined {
  const [start, setStart] = useState(() => ({ seconds, at: Date.now() }));
  const [now, setNow] = useState(() => Date.now());
  if (start.seconds !== seconds) setStart({ seconds, at: Date.now() });
  const remaining =
    seconds === undefined ? undefined : Math.max(0, seconds - Math.floor((now - start.at) / 1000));
  const running = remaining !== undefined && remaining > 0;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return remaining;
}

interface ToolListProps {
  tools: readonly AgentErrorTool[];
  toolStates: Readonly<Record<string, ToolAuthorizationState>>;
  onAuthorizeTool: ((tool: AgentErrorTool) => void) | undefined;
}

/** The tools of a 422, each with where its authorization stands and an Authorize button. */
function ToolList({ tools, toolStates, onAuthorizeTool }: ToolListProps) {
  return (
    <ul className="ack-error__tools">
      {tools.map((tool, index) => {
        const state = tool.serverId === undefined ? undefined : toolStates[tool.serverId];
        return (
          <li key={`${tool.serverId ?? ''}-${index}`} className="ack-error__tool">
            <span className="ack-error__tool-name">{tool.name}</span>
            {state ? (
              <span className="ack-error__tool-status" data-state={state.status}>
                {state.status === 'pending'
                  ? 'Opening the sign-in page…'
                  : state.status === 'opened'
                    ? 'Sign-in page opened.'
                    : `Could not start: ${state.message ?? 'the service refused.'}`}
              </span>
            ) : null}
            {onAuthorizeTool && tool.serverId !== undefined ? (
              <button
                type="button"
                className="ack-error__authorize"
                data-variant={state?.status === 'opened' ? 'secondary' : 'primary'}
                aria-label={`${tool.cta ?? 'Authorize'} ${tool.name}`}
                disabled={state?.status === 'pending'}
                onClick={() => onAuthorizeTool(tool)}
              >
                <KeyIcon />
                {tool.cta ?? 'Authorize'}
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
