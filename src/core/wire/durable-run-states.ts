/**
 * The durable run's states and a batch's key: what the engine and the views need of the durable
 * wire without zod (durable-run-schemas.ts holds the wire schemas, loaded with the wire).
 */

/** The states the service documents. The list is open: the service may add others. */
export const durableRunStates = [
  'QUEUED',
  'RUNNING',
  'REQUIRES_INPUT',
  'CANCELLING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'EXPIRED',
] as const;

/** A documented state of a durable run. */
export type DurableRunState = (typeof durableRunStates)[number];

/** States in which the run still changes by itself (poll them). */
export const activeDurableRunStates: ReadonlySet<DurableRunState> = new Set([
  'QUEUED',
  'RUNNING',
  'CANCELLING',
]);
/** States after which the run never changes. */
export const terminalDurableRunStates: ReadonlySet<DurableRunState> = new Set([
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'EXPIRED',
]);

const knownStates: ReadonlySet<string> = new Set(durableRunStates);

/** Whether `state` is one of the documented states. */
export function isDurableRunState(state: string): state is DurableRunState {
  return knownStates.has(state);
}

/**
 * A batch of pending interactions' identity: their sorted ids (a kind in brackets for one without).
 * Decisions belong to the batch a person saw; another key is another batch.
 */
export function batchKeyOf(
  // A `DurableInteraction`'s fields used here (its type would import the schemas back: a circle).
  interactions: readonly { readonly interactionId?: string | undefined; readonly kind: string }[],
): string | undefined {
  if (interactions.length === 0) return undefined;
  return interactions
    .map((interaction) => interaction.interactionId ?? `(${interaction.kind})`)
    .sort()
    .join(' ');
}
