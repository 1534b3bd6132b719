/**
 * An error in words a person can act on (`describeAgentError`): what `AgentErrorMessage` says.
 * Pure, no React, so server code can word an error the same way the components do.
 */
import {
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentRedirectError,
  AgentValidationError,
  type AgentError,
} from '../wire/errors.js';
import type { FormField } from './input-form.js';
import type { AgentErrorTool } from '../wire/tool-authorization.js';

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
