/**
 * The run's situation in words, in one place: why an answer waits or failed, where a run is, and
 * what a live region announces. Pure, no React. What to do about an error is `error-wording.ts`
 * (`describeAgentError`), loaded with the explanation of an error only.
 */
import { AgentHttpError, AgentNetworkError, type AgentError } from '../wire/errors.js';
import type { ConversationMessage } from '../conversation/agent-conversation.js';
import type { ConversationMessageError } from '../storage/conversation-message.js';
import type { RunStatus } from '../stream/run-types.js';

const numberFormat = /* @__PURE__ */ new Intl.NumberFormat('en');

/** A count with digit grouping: `100,000`. */
export function formatCount(count: number): string {
  return numberFormat.format(count);
}

/** `1 event`, `2 events`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/**
 * Why a request or an answer failed, in words: the error's kind and status, not its technical
 * message (which names the request URL). `AgentErrorMessage` explains and advises.
 */
export function failureReason(
  error: Pick<ConversationMessageError, 'kind' | 'message' | 'status'> | undefined,
): string {
  if (error === undefined) return 'the run failed.';
  switch (error.kind) {
    case 'http':
      return `the service answered ${error.status ?? 'with an error'}.`;
    case 'network':
      return 'the connection to the service broke off.';
    case 'validation':
      return 'the service sent something unexpected.';
    case 'input':
      return error.message;
    case 'run':
      return 'the agent reported a failure.';
  }
}

/** The failed answer's line in the thread: whether any of it came, and why it failed. */
export function answerFailureText({ text, error }: ConversationMessage): string {
  return `${text === '' ? 'No answer' : 'The answer stopped partway'}: ${failureReason(error)}`;
}

/**
 * What a live region reads once an answer settles: the answer itself, that it was stopped, or
 * whether any of it came and why it failed.
 */
export function answerAnnouncement(agentName: string, message: ConversationMessage): string {
  return message.status === 'done'
    ? `${agentName} answered: ${message.text}`
    : message.status === 'stopped'
      ? `${agentName}’s answer was stopped.`
      : `${agentName}’s answer ${message.text === '' ? 'failed' : 'stopped partway'}: ${failureReason(message.error)}`;
}

/** Why the answer being written waits (a 429, a dropped connection), and for how long. */
export function answerWaitingText(
  reason: AgentError | undefined,
  nextAttemptAt: number | undefined,
): string | undefined {
  if (reason === undefined) return undefined;
  const seconds =
    nextAttemptAt === undefined ? 0 : Math.max(0, Math.ceil((nextAttemptAt - Date.now()) / 1000));
  const when = seconds > 0 ? ` in ${seconds} s` : '';
  if (reason instanceof AgentHttpError && reason.status === 429) {
    return `The service asked to wait (429): trying again${when}…`;
  }
  if (reason instanceof AgentNetworkError) return `The connection broke off: reconnecting${when}…`;
  if (reason instanceof AgentHttpError) {
    return `The service answered ${reason.status}: trying again${when}…`;
  }
  return `Trying again${when}…`;
}

/** What {@link runStatusText} says a run's situation from. */
export interface RunStatusLine {
  /** The run's status, or `waiting`: a durable turn paused until a person approves. */
  status: RunStatus | 'waiting';
  /** The connection attempt, from 1. */
  attempt: number;
  /** How many times the server started the run over. */
  restarts: number;
  startedAt?: number | undefined;
  endedAt?: number | undefined;
  /** Why the last attempt failed, while `reconnecting`. */
  reconnectReason?: AgentError | undefined;
}

/**
 * One line saying where a run is: ready, starting, running, reconnecting and why (offline, the
 * connection broke off, the service asked to wait) and in how many seconds, done in N s, failed,
 * stopped.
 */
export function runStatusText(
  { status, attempt, restarts, startedAt, endedAt, reconnectReason }: RunStatusLine,
  online: boolean,
  waitSeconds: number | undefined,
): string {
  const restarted =
    restarts > 0
      ? ` The server started the run over ${restarts === 1 ? 'once' : `${restarts} times`}: the output shows the last attempt.`
      : '';
  switch (status) {
    case 'idle':
      return 'Ready.';
    case 'connecting':
      return attempt > 1 ? `Connecting (attempt ${attempt})…` : 'Starting the run…';
    case 'streaming':
      return `Running…${restarted}`;
    case 'reconnecting': {
      const when = waitSeconds === undefined || waitSeconds === 0 ? '' : ` in ${waitSeconds} s`;
      return `${online ? retryReasonText(reconnectReason) : 'You are offline. '}Reconnecting${when} (attempt ${attempt + 1})…`;
    }
    case 'done': {
      const took =
        startedAt !== undefined && endedAt !== undefined
          ? ` in ${((endedAt - startedAt) / 1000).toFixed(1)} s`
          : '';
      return `Done${took}.${restarted}`;
    }
    case 'error':
      return 'The run failed.';
    case 'aborted':
      return 'Stopped.';
    case 'waiting':
      return 'Waiting for your approval.';
  }
}

function retryReasonText(reason: AgentError | undefined): string {
  if (reason instanceof AgentNetworkError) return 'The connection broke off. ';
  if (reason instanceof AgentHttpError) {
    return reason.status === 429
      ? 'The service asked to wait (429). '
      : `The service answered ${reason.status}. `;
  }
  return '';
}
