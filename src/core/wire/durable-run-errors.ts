/**
 * The typed errors of durable runs (`execution_mode: DURABLE`, platform generation only). Each is
 * one of the library's existing kinds, so a `switch (error.kind)` written before them still
 * handles them.
 */
import {
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentValidationError,
  type AgentHttpErrorInit,
  type AgentValidationIssue,
} from './errors.js';

/**
 * A durable run asked of a client that cannot make one (`api: 'rest-v1'`: the legacy generation
 * has no durable runs). Nothing was sent.
 */
export class AgentUnsupportedError extends AgentInputError {
  /** What was asked, e.g. `startDurableRun`. */
  readonly operation: string;
  override name = 'AgentUnsupportedError';
  constructor(operation: string) {
    super(
      `${operation} needs a client with api: 'platform' (the legacy rest-v1 generation has no durable runs): nothing was sent.`,
    );
    this.operation = operation;
  }
}

/**
 * The deployment has no durable runs: it refused `execution_mode` (a 400 whose `errors[].pointer`
 * or `detail` names it), or it answered the start with something that is not a durable run (an
 * ordinary wait or stream body). `status` is the status it answered (400, or the 2xx). Nothing
 * was retried; a 2xx may have run the agent as an ordinary run.
 */
export class AgentDurableUnavailableError extends AgentHttpError {
  override name = 'AgentDurableUnavailableError';
  constructor(init: AgentHttpErrorInit) {
    super(init);
    this.message = `Durable runs are not available on this deployment (${init.method} answered ${init.status}${
      this.detail === undefined || init.status < 300 ? '' : `: ${this.detail}`
    }). Nothing was retried.`;
  }
}

/** 404 for a durable run: unknown, another user's (another token), or not this agent's. */
export class AgentRunNotFoundError extends AgentHttpError {
  override name = 'AgentRunNotFoundError';
}

/**
 * 409 to an answer to approvals: the decisions do not cover exactly the pending batch (stale,
 * incomplete, repeated or unknown interaction ids), or the batch was already answered differently.
 * Read the run again; never send the same decisions again.
 */
export class AgentApprovalConflictError extends AgentHttpError {
  override name = 'AgentApprovalConflictError';
}

/** 409 to a cancellation: the active run cannot take one now (no cancellation registration). */
export class AgentCancelUnavailableError extends AgentHttpError {
  override name = 'AgentCancelUnavailableError';
}

/** Why the outcome of a durable start is unknown. */
export type AgentStartUnknownReason = 'network' | 'aborted' | 'gateway' | 'server' | 'unreadable';

/**
 * The start POST was sent and no answer says what became of it: the connection failed or was
 * aborted after sending, the body of the answer broke off, a gateway answered 408, 502 or 504,
 * the service answered 500 (or another 5xx that is not its own problem detail: `'server'`), or a
 * 201 came with a body that names no run (`'unreadable'`).
 * The run may have started. It is never sent again (each POST starts a new run): `retryable` is
 * false.
 */
export class AgentStartUnknownError extends AgentError {
  readonly kind = 'network';
  readonly retryable = false;
  readonly url: string;
  readonly reason: AgentStartUnknownReason;
  /** The status answered, for reasons `'gateway'`, `'server'` and `'unreadable'`. */
  readonly status: number | undefined;
  override name = 'AgentStartUnknownError';
  constructor(options: {
    url: string;
    reason: AgentStartUnknownReason;
    cause: unknown;
    status?: number;
  }) {
    super(
      `The durable run may have started: ${
        options.reason === 'gateway'
          ? `a gateway answered ${String(options.status)}`
          : options.reason === 'server'
            ? `the service answered ${String(options.status)} without saying the run was refused`
            : options.reason === 'unreadable'
              ? 'it was created (201) but the answer names no run'
              : options.reason === 'aborted'
                ? 'the request was aborted after it was sent'
                : 'the connection failed after the request was sent'
      }. It was not sent again.`,
      { cause: options.cause },
    );
    this.url = options.url;
    this.reason = options.reason;
    this.status = options.status;
  }
}

/**
 * A durable run answer about another run than the one asked for (`agent_id`, or `run_id` except
 * on start, differs). Nothing further was sent.
 */
export class AgentRunMismatchError extends AgentValidationError {
  readonly expected: { agentId: string; runId: string | undefined };
  readonly received: { agentId: string; runId: string };
  override name = 'AgentRunMismatchError';
  constructor(
    expected: { agentId: string; runId: string | undefined },
    received: { agentId: string; runId: string },
    body: unknown,
  ) {
    const issues: AgentValidationIssue[] = [];
    if (received.agentId !== expected.agentId) {
      issues.push({ path: 'run.agent_id', message: 'not the agent asked for' });
    }
    if (expected.runId !== undefined && received.runId !== expected.runId) {
      issues.push({ path: 'run.run_id', message: 'not the run asked for' });
    }
    super('The durable run', issues, body);
    this.expected = expected;
    this.received = received;
  }
}

export { AgentStorageError } from '../base/storage-helpers.js';
