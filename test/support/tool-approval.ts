import type { DurableToolApproval } from '../../src/core/wire/durable-run-schemas.js';

/**
 * A tool approval as the client reads one from a durable run: `Tool <id>`, arguments `{ id }`, no
 * deadline; `overrides` on top. For the card's tests, which build the interactions they show.
 */
export function toolApproval(
  id: string,
  overrides: Partial<DurableToolApproval> = {},
): DurableToolApproval {
  return {
    kind: 'tool-approval',
    interactionId: id,
    displayName: `Tool ${id}`,
    description: `Runs tool ${id}.`,
    toolId: undefined,
    arguments: { id },
    argumentsText: `{"id":"${id}"}`,
    argumentsPrecisionLost: false,
    expiresAt: undefined,
    raw: {},
    ...overrides,
  };
}
