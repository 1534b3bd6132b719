/**
 * The durable run operations of a client (platform generation only): start (one POST, never
 * retried), read, cancel and answer approvals. Every request goes through the client's own
 * request path (headers asked for anew, redirect guard, redaction, error bodies); this module only
 * builds the requests and reads the answers.
 */
import type { AgentApi, AgentRequestOptions } from './agent-client-types.js';
import {
  AgentApprovalConflictError,
  AgentCancelUnavailableError,
  AgentDurableUnavailableError,
  AgentRunMismatchError,
  AgentRunNotFoundError,
  AgentStartUnknownError,
  AgentUnsupportedError,
} from './durable-run-errors.js';
import {
  durableRunResponseSchema,
  toDurableRunRecord,
  type DurableRunDecision,
  type DurableRunRecord,
} from './durable-run-schemas.js';
import {
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentValidationError,
  isAbortError,
  type AgentHttpErrorInit,
} from './errors.js';
import type { AgentMessage } from './schemas.js';
import { redactJsonText, redactValue } from './secrets.js';
import { parseWith } from './zod-issues.js';

/** What starts a durable run: `messages` or `input` (or both), and `metadata`. */
export interface DurableRunStartRequest {
  /** Messages, for agents that take them (at least one; roles `USER` and `GLEAN_AI`). */
  messages?: AgentMessage[];
  /** The form input; for a form-triggered agent every field must be present. */
  input?: Record<string, unknown>;
  /** Metadata; `chat_session_id` is refused with durable runs (nothing is sent). */
  metadata?: Record<string, unknown>;
}

/** The durable run methods of `AgentClient`. */
export interface DurableRunMethods {
  /**
   * Starts a durable run: one `POST /api/agents/{id}/runs` with `stream: false` and
   * `execution_mode: 'DURABLE'`, never retried. Resolves with the run of the 201. Throws
   * {@link AgentStartUnknownError} when the request was sent and its outcome is unknown (the run
   * may have started: do not send it again), {@link AgentDurableUnavailableError} when the
   * deployment has no durable runs, {@link AgentUnsupportedError} on a `rest-v1` client (nothing
   * sent).
   */
  startDurableRun(
    agentId: string,
    request: DurableRunStartRequest,
    options?: AgentRequestOptions,
  ): Promise<DurableRunRecord>;
  /**
   * Reads a durable run: `GET /api/agents/{id}/runs/{run_id}` (this read is what makes the service
   * apply an overdue deadline). {@link AgentRunNotFoundError} for an unknown run, another user's
   * or another agent's.
   */
  getDurableRun(
    agentId: string,
    runId: string,
    options?: AgentRequestOptions,
  ): Promise<DurableRunRecord>;
  /**
   * Asks for a cooperative cancellation: `POST /api/agents/{id}/cancellations { run_id }`. The
   * answer may still be `RUNNING` (poll for the final state; completion can win). Idempotent.
   * {@link AgentCancelUnavailableError} on 409.
   */
  cancelDurableRun(
    agentId: string,
    runId: string,
    options?: AgentRequestOptions,
  ): Promise<DurableRunRecord>;
  /**
   * Answers the pending approvals: `POST /api/agents/{id}/responses` with one decision per
   * pending interaction of the batch, each id once. Sending the identical accepted batch again is
   * safe (no second continuation); after a 503 send the same batch again.
   * {@link AgentApprovalConflictError} on 409 (stale, incomplete or conflicting decisions).
   */
  respondToDurableRun(
    agentId: string,
    runId: string,
    decisions: readonly DurableRunDecision[],
    options?: AgentRequestOptions,
  ): Promise<DurableRunRecord>;
}

/** What one request of the client answered (2xx only; other statuses throw). */
export interface DurableWireAnswer {
  status: number;
  /** The body, with every secret as written replaced. */
  text: string;
  secrets: readonly string[];
}

/** What the wire needs of its client: its request path, and its checks of ids and bodies. */
export interface DurableWireTransport {
  api: AgentApi;
  /** `{base}/api/agents`, resolved at each request. */
  prefix(): string;
  /** An agent id as one path segment (throws AgentInputError). */
  agentIdSegment(agentId: string): string;
  /** Throws AgentInputError for a run body the platform API refuses. */
  checkRun(request: DurableRunStartRequest): void;
  /** One request through the client's request path. */
  send(
    url: string,
    options: AgentRequestOptions | undefined,
    body: Record<string, unknown> | undefined,
    hooks: {
      makeError: (init: AgentHttpErrorInit) => AgentHttpError;
      /** Called just before the request leaves (after headers were resolved). */
      onSend?: () => void;
    },
  ): Promise<DurableWireAnswer>;
}

const decisions = new Set(['APPROVE', 'REJECT']);
/** Statuses of a start whose outcome is unknown: a gateway timed out or failed in between. */
const unknownOutcomeStatuses = new Set([408, 502, 504]);

/** Whether a 400 names `execution_mode`: a deployment that predates durable runs. */
function refusesExecutionMode(init: AgentHttpErrorInit): boolean {
  if (init.status !== 400) return false;
  const body = init.body;
  if (typeof body !== 'object' || body === null) {
    return typeof body === 'string' && /execution_mode/i.test(body);
  }
  const record = body as { errors?: unknown; detail?: unknown };
  const named = (value: unknown) => typeof value === 'string' && /execution_mode/i.test(value);
  if (named(record.detail)) return true;
  return (
    Array.isArray(record.errors) &&
    record.errors.some(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        (named((entry as { pointer?: unknown }).pointer) ||
          named((entry as { detail?: unknown }).detail)),
    )
  );
}

function runIdSegment(runId: string): string {
  if (typeof runId !== 'string' || runId.trim() === '') {
    throw new AgentInputError('The run id is empty: nothing was sent.');
  }
  if (runId === '.' || runId === '..') {
    throw new AgentInputError(`The run id "${runId}" cannot be a path segment: nothing was sent.`);
  }
  return encodeURIComponent(runId);
}

/** The durable run methods over a client's transport. */
export function createDurableRunMethods(transport: DurableWireTransport): DurableRunMethods {
  const platformOnly = (operation: string) => {
    if (transport.api !== 'platform') throw new AgentUnsupportedError(operation);
  };
  const agentUrl = (agentId: string) =>
    `${transport.prefix()}/${transport.agentIdSegment(agentId)}`;

  return {
    async startDurableRun(agentId, request, options) {
      platformOnly('startDurableRun');
      const url = `${agentUrl(agentId)}/runs`;
      const body = durableStartBody(request, transport);
      const answer = await sendDurableStart(transport, url, body, options);
      return readStartAnswer(answer, agentId, url);
    },

    async getDurableRun(agentId, runId, options) {
      platformOnly('getDurableRun');
      const url = `${agentUrl(agentId)}/runs/${runIdSegment(runId)}`;
      const answer = await transport.send(url, options, undefined, { makeError: runErrors() });
      return readDurableRun(answer, { agentId, runId });
    },

    async cancelDurableRun(agentId, runId, options) {
      platformOnly('cancelDurableRun');
      const url = `${agentUrl(agentId)}/cancellations`;
      runIdSegment(runId);
      const answer = await transport.send(
        url,
        options,
        { run_id: runId },
        { makeError: runErrors((init) => new AgentCancelUnavailableError(init)) },
      );
      return readDurableRun(answer, { agentId, runId });
    },

    async respondToDurableRun(agentId, runId, given, options) {
      platformOnly('respondToDurableRun');
      const url = `${agentUrl(agentId)}/responses`;
      runIdSegment(runId);
      const responses = checkDecisions(given);
      const answer = await transport.send(
        url,
        options,
        { run_id: runId, responses },
        { makeError: runErrors((init) => new AgentApprovalConflictError(init)) },
      );
      return readDurableRun(answer, { agentId, runId });
    },
  };
}

/** The run of an answer, checked to be the one asked for. */
function readDurableRun(
  answer: DurableWireAnswer,
  expected: { agentId: string; runId: string | undefined },
): DurableRunRecord {
  // Where an escape could spell a secret the text is written anew: safe over faithful.
  const text = redactJsonText(answer.text, answer.secrets);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AgentValidationError(
      'The durable run',
      [{ path: '', message: 'the body is not JSON' }],
      text,
    );
  }
  const envelope = parseWith(
    durableRunResponseSchema,
    redactValue(body, answer.secrets),
    'The durable run',
  );
  const run = envelope.run;
  if (run.agent_id !== expected.agentId || (expected.runId ?? run.run_id) !== run.run_id) {
    throw new AgentRunMismatchError(
      expected,
      { agentId: run.agent_id, runId: run.run_id },
      envelope,
    );
  }
  return toDurableRunRecord(run, {
    text,
    status: answer.status,
    requestId: envelope.request_id,
  });
}

/** The typed errors of a run's read, cancel or answer: 404 lost, 409 the operation's conflict. */
const runErrors =
  (conflict?: (init: AgentHttpErrorInit) => AgentHttpError) =>
  (init: AgentHttpErrorInit): AgentHttpError => {
    if (init.status === 404) return new AgentRunNotFoundError(init);
    if (init.status === 409 && conflict !== undefined) return conflict(init);
    return new AgentHttpError(init);
  };

/** The start's body, checked: nothing is sent for a request the service would refuse. */
function durableStartBody(
  request: DurableRunStartRequest,
  transport: DurableWireTransport,
): Record<string, unknown> {
  const { messages, input, metadata } = request;
  transport.checkRun(request);
  if (typeof metadata === 'object' && metadata !== null && 'chat_session_id' in metadata) {
    throw new AgentInputError(
      'metadata.chat_session_id cannot go with a durable run: nothing was sent.',
    );
  }
  const body: Record<string, unknown> = {};
  if (input !== undefined) body['input'] = input;
  if (messages !== undefined) body['messages'] = messages;
  if (metadata !== undefined) body['metadata'] = metadata;
  body['stream'] = false;
  body['execution_mode'] = 'DURABLE';
  return body;
}

/**
 * Sends the start once. A failure after the request left whose outcome the service did not say
 * (a gateway's page, the network, an abort after sending) is an {@link AgentStartUnknownError}.
 */
async function sendDurableStart(
  transport: DurableWireTransport,
  url: string,
  body: Record<string, unknown>,
  options: AgentRequestOptions | undefined,
): Promise<DurableWireAnswer> {
  let sent = false;
  let abortedBeforeSend = false;
  try {
    return await transport.send(url, options, body, {
      makeError: (init) =>
        refusesExecutionMode(init)
          ? new AgentDurableUnavailableError(init)
          : new AgentHttpError(init),
      onSend: () => {
        sent = true;
        abortedBeforeSend = options?.signal?.aborted === true;
      },
    });
  } catch (error) {
    if (error instanceof AgentHttpError && unknownOutcomeStatuses.has(error.status)) {
      throw new AgentStartUnknownError({
        url,
        reason: 'gateway',
        status: error.status,
        cause: error,
      });
    }
    if (sent && error instanceof AgentNetworkError) {
      throw new AgentStartUnknownError({ url, reason: 'network', cause: error });
    }
    if (sent && !abortedBeforeSend && isAbortError(error)) {
      throw new AgentStartUnknownError({ url, reason: 'aborted', cause: error });
    }
    throw error;
  }
}

/** The run a start's 2xx answer carries, or why there is none. */
function readStartAnswer(
  answer: DurableWireAnswer,
  agentId: string,
  url: string,
): DurableRunRecord {
  try {
    return readDurableRun(answer, { agentId, runId: undefined });
  } catch (error) {
    // A 201 that carries a run is a durable run read wrong; anything else is no durable run.
    if (error instanceof AgentRunMismatchError || (answer.status === 201 && carriesRun(answer)))
      throw error;
    // 201 Created with a body that names no run: a run exists whose id is unknown.
    if (answer.status === 201) {
      throw new AgentStartUnknownError({
        url,
        reason: 'unreadable',
        status: 201,
        cause: error,
      });
    }
    throw new AgentDurableUnavailableError({
      status: answer.status,
      url,
      method: 'POST',
      body: redactJsonText(answer.text, answer.secrets),
    });
  }
}

/** Whether a 2xx answer's body is an object with a `run` object (a durable answer read wrong). */
function carriesRun(answer: DurableWireAnswer): boolean {
  try {
    const body: unknown = JSON.parse(answer.text);
    const run: unknown =
      typeof body === 'object' && body !== null ? (body as { run?: unknown }).run : undefined;
    return typeof run === 'object' && run !== null && 'run_id' in run;
  } catch {
    return false;
  }
}

/** The wire form of the decisions; AgentInputError (nothing sent) for a batch that cannot be. */
function checkDecisions(given: readonly DurableRunDecision[]) {
  if (!Array.isArray(given) || given.length === 0) {
    throw new AgentInputError(
      'An answer needs one decision per pending interaction: nothing was sent.',
    );
  }
  const seen = new Set<string>();
  return given.map((entry, index) => {
    const interactionId: unknown = entry?.interactionId;
    if (typeof interactionId !== 'string' || interactionId === '') {
      throw new AgentInputError(`decisions[${index}] has no interaction id: nothing was sent.`);
    }
    if (seen.has(interactionId)) {
      throw new AgentInputError(
        `decisions[${index}] repeats an interaction id (each goes once): nothing was sent.`,
      );
    }
    seen.add(interactionId);
    if (!decisions.has(entry.decision)) {
      throw new AgentInputError(
        `decisions[${index}].decision must be APPROVE or REJECT: nothing was sent.`,
      );
    }
    return { interaction_id: interactionId, decision: entry.decision };
  });
}
