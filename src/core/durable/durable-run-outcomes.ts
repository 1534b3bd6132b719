import { AgentStartUnknownError } from '../wire/durable-run-errors.js';
import { AgentError, AgentHttpError, AgentInputError } from '../wire/errors.js';
import type { DurableInteraction, DurableRunDecision } from '../wire/durable-run-schemas.js';
import { statusOfError } from './durable-run-reducer.js';

// What a durable run's commands make of what they are given and of how a request ended.

/** Throws an `AgentInputError` unless `decisions` answer every approval of `pending` once. */
export function assertWholeBatch(
  decisions: readonly DurableRunDecision[],
  pending: readonly DurableInteraction[],
): void {
  const expected = new Set<string>();
  for (const interaction of pending) {
    if (interaction.kind !== 'tool-approval' || interaction.interactionId === undefined) {
      throw new AgentInputError(
        'The run waits for a kind of input this library cannot answer: nothing was sent.',
      );
    }
    expected.add(interaction.interactionId);
  }
  const seen = new Set<string>();
  for (const { interactionId, decision } of decisions) {
    if (decision !== 'APPROVE' && decision !== 'REJECT') {
      throw new AgentInputError(`A decision is APPROVE or REJECT, not ${String(decision)}.`);
    }
    if (!expected.has(interactionId)) {
      throw new AgentInputError(`${interactionId} is not an approval of the batch shown.`);
    }
    if (seen.has(interactionId)) {
      throw new AgentInputError(`${interactionId} has more than one decision.`);
    }
    seen.add(interactionId);
  }
  if (seen.size !== expected.size) {
    throw new AgentInputError(
      `Answer every approval of the batch shown (${expected.size}), not ${seen.size}.`,
    );
  }
}

/**
 * Whether a respond or a cancel that failed is sent again: after a network error, a 408 or a 5xx.
 * An abort is a stop, never retried.
 */
export function isPassingWriteFailure(error: unknown): boolean {
  const status = statusOfError(error);
  if (status !== undefined) return status >= 500 || status === 408;
  return error instanceof AgentError && error.kind === 'network';
}

/**
 * A 500, or another 5xx that is not the service's problem detail (a proxy's page, an empty body),
 * says nothing of whether the run was created: an unknown outcome like a broken connection. A
 * 4xx, or a 5xx problem such as 503 `service_unavailable`, is the service refusing the run.
 */
export function asStartOutcome(error: unknown): unknown {
  if (!(error instanceof AgentHttpError) || error.status < 500) return error;
  if (error.status !== 500 && error.problem !== undefined) return error;
  return new AgentStartUnknownError({
    url: error.url,
    reason: 'server',
    status: error.status,
    cause: error,
  });
}

/** Whether a failed start POST may still have created a run: anything but an HTTP answer. */
export function isUnknownStartOutcome(error: unknown): boolean {
  if (error instanceof AgentStartUnknownError) return true;
  if (statusOfError(error) !== undefined) return false;
  // Refused before sending (a blank agent id, a rest-v1 client).
  return !(error instanceof AgentError && error.kind === 'input');
}

/** The error as shown: an `AgentError`, or an `AgentInputError` of its message. */
export function asAgentError(error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  return new AgentInputError(error instanceof Error ? error.message : String(error));
}
