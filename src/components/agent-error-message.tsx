import {
  forwardRef,
  useEffect,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import {
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentRedirectError,
  AgentValidationError,
  type AgentError,
} from '../core/errors.js';
import type { FormField } from '../core/input-form.js';
import type { AgentErrorTool, ToolAuthorizationState } from '../core/tool-authorization.js';
import { useOnline } from './use-online.js';
import { AlertIcon, KeyIcon, RetryIcon } from './icons.js';
import { classNames, named } from './part-helpers.js';

export type { AgentErrorTool, ToolAuthorizationState };

/** What a person can read and do about an {@link AgentError}. */
export interface AgentErrorDescription {
  /** A short title: `Sign-in needed`, `Agent not found` … */
  title: string;
  /** What happened and what to do, in one or two sentences. */
  detail: string;
  /** The tools to authorize (422) or the fields to fill in (`AgentInputError`). */
  items: string[];
  /**
   * The tools to authorize (422), each with the name to show (its display name, else its tool
   * name, else its server id) and the server id to authorize it with, when the service gave one.
   */
  tools: AgentErrorTool[];
  /** The seconds to wait before a retry (429 with `Retry-After`). */
  retryAfterSeconds: number | undefined;
  /** The service's own words (a problem's `detail`, a legacy `message`), when it gave some. */
  serviceDetail: string | undefined;
  /** The service's request id, to quote to its support. */
  requestId: string | undefined;
}

/** What {@link describeAgentError} may use to be specific. */
export interface DescribeAgentErrorContext {
  /** The agent the request was for (named in a 404). */
  agentId?: string | undefined;
  /** The form's fields (their labels name the missing ones). */
  fields?: readonly FormField[] | undefined;
  /**
   * Whether the browser is online (a network error then says "offline").
   * @default navigator.onLine
   */
  online?: boolean | undefined;
  /**
   * The error ended a run that had started streaming (a `run.failed` event): the description says
   * the run failed partway and that the output so far is kept.
   * @default false
   */
  midRun?: boolean | undefined;
}

/**
 * Turns an {@link AgentError} into words a person can act on: 401 the token, 403 permissions,
 * 404 no such agent, 422 the tools to authorize, 429 when to try again, a network error offline or
 * unreachable, an `AgentInputError` the fields to fill in.
 *
 * @example
 * const { title, detail, items } = describeAgentError(run.error, { agentId });
 */
export function describeAgentError(
  error: AgentError,
  context: DescribeAgentErrorContext = {},
): AgentErrorDescription {
  const base = {
    items: [] as string[],
    tools: [] as AgentErrorTool[],
    retryAfterSeconds: undefined as number | undefined,
    serviceDetail: undefined as string | undefined,
    requestId: undefined as string | undefined,
  };
  if (error instanceof AgentHttpError) {
    const http = { ...base, serviceDetail: error.detail, requestId: error.requestId };
    if (context.midRun === true) {
      return {
        ...http,
        title: 'The run failed partway',
        detail:
          'The agent stopped with an error after it had started answering. Its output so far is kept and marked as partial; run it again to get a whole answer.',
      };
    }
    return { ...http, ...describeHttpError(error, context) };
  }
  if (error instanceof AgentNetworkError) {
    const online =
      context.online ?? (typeof navigator === 'undefined' ? true : navigator.onLine !== false);
    return online
      ? {
          ...base,
          title: 'Cannot reach the service',
          detail:
            'The connection failed or broke off. Check the network and the service address, then try again.',
        }
      : {
          ...base,
          title: 'You are offline',
          detail: 'This device has no network connection. Try again once it is back online.',
        };
  }
  if (error instanceof AgentInputError) {
    const labels = error.missingFields.map(
      (name) => context.fields?.find((field) => field.name === name)?.label ?? name,
    );
    return labels.length > 0
      ? {
          ...base,
          title: 'Some fields are missing',
          detail: 'Nothing was sent. Fill in these fields, then run again:',
          items: labels,
        }
      : { ...base, title: 'Nothing was sent', detail: error.message };
  }
  if (error instanceof AgentValidationError) {
    return {
      ...base,
      title: 'Unexpected answer',
      detail:
        'The service answered something this console does not understand. The details below may help its administrators.',
      items: error.issues.map((issue) =>
        issue.path ? `${issue.path}: ${issue.message}` : issue.message,
      ),
    };
  }
  return { ...base, title: 'Something went wrong', detail: error.message };
}

function describeHttpError(
  error: AgentHttpError,
  context: DescribeAgentErrorContext,
): Pick<AgentErrorDescription, 'title' | 'detail'> &
  Partial<Pick<AgentErrorDescription, 'items' | 'retryAfterSeconds' | 'tools'>> {
  const { status, code } = error;
  if (code === 'tools_unauthorized' || status === 422) {
    const tools = toolsOf(error);
    return {
      title: 'Tools need authorizing',
      detail:
        tools.length > 0
          ? 'This agent uses tools you have not authorized yet. Authorize each one, then run again:'
          : 'This agent uses tools you have not authorized yet (the service did not say which). Authorize them in the agent service, then run again.',
      items: tools.map((tool) => tool.name),
      tools,
    };
  }
  if (status === 401) {
    return {
      title: 'Sign-in needed',
      detail:
        code === 'token_expired'
          ? 'The access token has expired. Sign in again or provide a fresh token, then try again.'
          : 'The access token is missing or expired. Sign in again or provide a valid token, then try again.',
    };
  }
  if (status === 403) {
    return code === 'spend_limit_exceeded'
      ? {
          title: 'Spending limit reached',
          detail:
            'The deployment has reached its spending limit. Ask an administrator to raise it.',
        }
      : {
          title: 'Not allowed',
          detail:
            'This token is not allowed to use this agent. Ask an administrator of the agent service for access.',
        };
  }
  if (status === 404) {
    return {
      title: 'Agent not found',
      detail:
        context.agentId === undefined
          ? 'There is no such agent. Check the agent id.'
          : `There is no agent with the id “${context.agentId}”. Check the id, and that the agent is shared with you.`,
    };
  }
  if (status === 429) {
    const seconds =
      error.retryAfterMs === undefined
        ? undefined
        : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return {
      title: 'Too many runs',
      detail:
        seconds === undefined
          ? 'The service limits how often runs can start. Try again in a few seconds.'
          : `The service limits how often runs can start. Try again in ${seconds} s.`,
      retryAfterSeconds: seconds,
    };
  }
  if (status === 400) {
    return {
      title: 'Request refused',
      detail: 'The service refused the request as invalid.',
      items: error.fieldErrors.map((fieldError) =>
        [fieldError.pointer, fieldError.detail ?? fieldError.code].filter(Boolean).join(': '),
      ),
    };
  }
  if (status === 408 || status === 504) {
    return {
      title: 'The service took too long',
      detail: 'The request timed out. Try again.',
    };
  }
  if (status === 409) {
    return { title: 'Conflict', detail: 'The service reported a conflict with another request.' };
  }
  if (status === 413) {
    return { title: 'Request too large', detail: 'Shorten the input, then try again.' };
  }
  if (status >= 500) {
    return {
      title: 'The service failed',
      detail: `The agent service had a problem (${status}). Try again later.`,
    };
  }
  if (error instanceof AgentRedirectError) {
    return {
      title: 'Redirected elsewhere',
      detail: `The service answered with a redirect${error.redirectOrigin === undefined ? '' : ` to ${error.redirectOrigin}`}. It was not followed, so nothing went there: check the service address.`,
    };
  }
  return { title: `The service answered ${status}`, detail: 'The request did not succeed.' };
}

/** The tools of a 422 of either generation (read into `authenticationSuggestions`). */
function toolsOf(error: AgentHttpError): AgentErrorTool[] {
  return error.authenticationSuggestions.flatMap((suggestion) => {
    const name = suggestion.toolDisplayName ?? suggestion.toolName ?? suggestion.serverId;
    if (name === undefined || name === '') return [];
    const cta = suggestion.toolCta?.trim();
    return [{ name, serverId: suggestion.serverId, ...(cta ? { cta } : {}) }];
  });
}

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
          <ul className="ack-error__tools">
            {description.tools.map((tool, index) => {
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
