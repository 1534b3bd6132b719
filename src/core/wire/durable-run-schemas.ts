/**
 * The durable run on the wire (`PlatformAgentRunResponse`, `PlatformDurableAgentRun`) and the
 * record the client makes of it: the open state list (an unknown state kept and flagged), tool
 * approvals with the text of their arguments as sent, unknown interaction kinds kept read-only,
 * and the output as text.
 */
import * as z from 'zod/mini';
import { agentMessageSchema, type AgentMessage } from './schemas.js';

// The states and the batch key need no zod: they live apart (durable-run-states.ts) so that the
// main entry, which exports them, does not reach these schemas (docs/decisions/0014-bundle-size.md).
import { isDurableRunState, type DurableRunState } from './durable-run-states.js';

const jsonObject = z.record(z.string(), z.unknown());

/** A `TOOL_APPROVAL` interaction as sent. */
export const toolApprovalSchema = z.looseObject({
  interaction_id: z.string(),
  type: z.literal('TOOL_APPROVAL'),
  tool_id: z.optional(z.nullable(z.string())),
  display_name: z.string(),
  description: z.string(),
  arguments: jsonObject,
  expires_at: z.optional(z.nullable(z.string())),
});

/** Any interaction: only its `type` is required (kinds the service adds later are kept). */
const anyInteractionSchema = z.looseObject({
  type: z.string(),
  interaction_id: z.optional(z.unknown()),
});

export const durableRunSchema = z.looseObject({
  run_id: z.string(),
  agent_id: z.string(),
  state: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.optional(z.nullable(z.string())),
  pending_interactions: z.array(anyInteractionSchema),
  output: z.optional(
    z.nullable(z.looseObject({ messages: z.optional(z.nullable(z.array(agentMessageSchema))) })),
  ),
  error: z.optional(
    z.nullable(z.looseObject({ code: z.optional(z.string()), message: z.optional(z.string()) })),
  ),
});

/** `{ run, request_id }`: the answer of start (201), read, cancel and respond (200). */
export const durableRunResponseSchema = z.looseObject({
  run: durableRunSchema,
  request_id: z.optional(z.string()),
});

/** A tool call that waits for a person's approval. */
export interface DurableToolApproval {
  kind: 'tool-approval';
  interactionId: string;
  /** The tool's display name, as sent (untrusted text: render it as text). */
  displayName: string;
  /** What the tool does, as sent (untrusted text). */
  description: string;
  toolId: string | undefined;
  /** The arguments as `JSON.parse` read them (written by the model: untrusted). */
  arguments: Record<string, unknown>;
  /**
   * The arguments' JSON as the response carried it (redacted), so an integer above 2^53 shows as
   * sent; `JSON.stringify(arguments)` when the text could not be found.
   */
  argumentsText: string;
  /** Whether a number in the arguments lost precision in `JSON.parse` (show `argumentsText`). */
  argumentsPrecisionLost: boolean;
  /** The approval's deadline (RFC 3339), when it has one. */
  expiresAt: string | undefined;
  /** The interaction as sent, unknown fields included. */
  raw: Record<string, unknown>;
}

/** An interaction of a kind this version does not know (or a malformed approval): read-only. */
export interface DurableUnknownInteraction {
  kind: 'unknown';
  /** Its `interaction_id` when it is a string. */
  interactionId: string | undefined;
  /** Its `type` as sent. */
  type: string;
  raw: Record<string, unknown>;
}

export type DurableInteraction = DurableToolApproval | DurableUnknownInteraction;

/** The agent's output of a durable run: a snapshot to replace, never deltas to append. */
export interface DurableRunOutput {
  /** The text blocks of every message, a message's blocks joined, messages by a blank line. */
  text: string;
  /** `output.messages` as sent (`[]` when absent). */
  messages: AgentMessage[];
  /** Whether the run carried `output` at all. */
  present: boolean;
}

/** A durable run as the client read it from one answer. */
export interface DurableRunRecord {
  runId: string;
  agentId: string;
  /** The state, or `'unknown'` for a state this version does not know (see `serverState`). */
  state: DurableRunState | 'unknown';
  /** The state exactly as the service sent it. */
  serverState: string;
  /** RFC 3339, as sent. Not an identity: it was seen to differ between answers of one run. */
  createdAt: string;
  /** RFC 3339, as sent: the latest persisted activity, not a heartbeat. */
  updatedAt: string;
  /** The execution deadline (RFC 3339) when one is set. */
  expiresAt: string | undefined;
  /** Unanswered interactions (tool approvals while `REQUIRES_INPUT`); unknown kinds kept. */
  pendingInteractions: DurableInteraction[];
  output: DurableRunOutput;
  /** Caller-safe failure details. */
  error: { code: string; message: string } | undefined;
  /** The answer's `request_id` ('' when it had none). */
  requestId: string;
  /** The HTTP status of the answer (201 for a start). */
  status: number;
}

/** One decision of an answer to approvals. */
export interface DurableRunDecision {
  interactionId: string;
  decision: 'APPROVE' | 'REJECT';
}

/** What {@link toDurableRunRecord} needs besides the parsed run. */
export interface DurableRunSource {
  /** The response text (redacted), where the arguments' raw text is found. */
  text: string;
  status: number;
  requestId: string | undefined;
}

/** The record of a validated run. */
export function toDurableRunRecord(
  run: z.infer<typeof durableRunSchema>,
  source: DurableRunSource,
): DurableRunRecord {
  const argumentTexts = findArgumentTexts(source.text);
  const messages = run.output?.messages ?? [];
  return {
    runId: run.run_id,
    agentId: run.agent_id,
    state: isDurableRunState(run.state) ? run.state : 'unknown',
    serverState: run.state,
    createdAt: run.created_at,
    updatedAt: run.updated_at,
    expiresAt: run.expires_at ?? undefined,
    pendingInteractions: run.pending_interactions.map((interaction, index) =>
      toInteraction(interaction, argumentTexts[index]),
    ),
    output: {
      text: messages
        .map((message) =>
          message.content
            .map((block) =>
              block.type === 'text' && typeof block.text === 'string' ? block.text : '',
            )
            .join(''),
        )
        .filter((text) => text !== '')
        .join('\n\n'),
      messages,
      present: run.output !== undefined && run.output !== null,
    },
    error:
      run.error === undefined || run.error === null
        ? undefined
        : { code: run.error.code ?? '', message: run.error.message ?? '' },
    requestId: source.requestId ?? '',
    status: source.status,
  };
}

function toInteraction(
  interaction: z.infer<typeof anyInteractionSchema>,
  argumentsText: string | undefined,
): DurableInteraction {
  const raw: Record<string, unknown> = interaction;
  const approval = toolApprovalSchema.safeParse(interaction);
  if (!approval.success) {
    return {
      kind: 'unknown',
      interactionId:
        typeof interaction.interaction_id === 'string' ? interaction.interaction_id : undefined,
      type: interaction.type,
      raw,
    };
  }
  const value = approval.data;
  const text = argumentsText ?? JSON.stringify(value.arguments);
  return {
    kind: 'tool-approval',
    interactionId: value.interaction_id,
    displayName: value.display_name,
    description: value.description,
    toolId: value.tool_id ?? undefined,
    arguments: value.arguments,
    argumentsText: text,
    argumentsPrecisionLost: losesPrecision(text),
    expiresAt: value.expires_at ?? undefined,
    raw,
  };
}

/** Whether a number literal of `text` (outside strings) does not survive `JSON.parse`. */
function losesPrecision(text: string): boolean {
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      continue;
    }
    if (char === '-' || (char >= '0' && char <= '9')) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
      const literal = match?.[0] ?? char;
      index += literal.length - 1;
      if (match !== null && match[1] === undefined && match[2] === undefined) {
        if (!Number.isSafeInteger(Number(literal))) return true;
      } else if (/\d{16,}/.test(literal.replace(/[.eE+-]/g, ''))) {
        return true;
      }
    }
  }
  return false;
}

/**
 * The source text of `run.pending_interactions[i].arguments` for each i, found by one scan of the
 * response text (no recursion, any depth). Empty when the text is not what was parsed.
 */
export function findArgumentTexts(text: string): (string | undefined)[] {
  const found: (string | undefined)[] = [];
  /** Each open container: an object (its current key) or an array (its current index). */
  const stack: { array: boolean; key: string | undefined; index: number }[] = [];
  let capture: { start: number; depth: number; slot: number } | undefined;
  let expectKey = false;
  let index = 0;
  const pathMatches = () => {
    // [root object] run → [object] pending_interactions → [array] i → [object] arguments
    if (stack.length !== 4) return undefined;
    const [root, run, list, item] = stack as [
      (typeof stack)[number],
      (typeof stack)[number],
      (typeof stack)[number],
      (typeof stack)[number],
    ];
    if (root.array || root.key !== 'run') return undefined;
    if (run.array || run.key !== 'pending_interactions') return undefined;
    if (!list.array || item.array || item.key !== 'arguments') return undefined;
    return list.index;
  };
  const valueStarts = (start: number) => {
    if (capture !== undefined) return;
    const slot = pathMatches();
    if (slot !== undefined) capture = { start, depth: stack.length, slot };
  };
  const valueEnds = (end: number) => {
    if (capture !== undefined && stack.length === capture.depth) {
      found[capture.slot] = text.slice(capture.start, end);
      capture = undefined;
    }
  };
  while (index < text.length) {
    const char = text[index] as string;
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t' || char === ',') {
      if (char === ',') {
        const top = stack[stack.length - 1];
        if (top?.array === true) top.index += 1;
        else expectKey = true;
      }
      index += 1;
      continue;
    }
    if (char === ':') {
      index += 1;
      continue;
    }
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const literal = text.slice(index, end + 1);
      const top = stack[stack.length - 1];
      if (expectKey && top !== undefined && !top.array) {
        try {
          top.key = JSON.parse(literal) as string;
        } catch {
          return [];
        }
        expectKey = false;
      } else {
        valueStarts(index);
        valueEnds(end + 1);
      }
      index = end + 1;
      continue;
    }
    if (char === '{' || char === '[') {
      valueStarts(index);
      stack.push({ array: char === '[', key: undefined, index: 0 });
      expectKey = char === '{';
      index += 1;
      continue;
    }
    if (char === '}' || char === ']') {
      stack.pop();
      expectKey = false;
      valueEnds(index + 1);
      index += 1;
      continue;
    }
    // A number, true, false or null.
    let end = index;
    while (end < text.length && !/[\s,:\]}]/.test(text[end] as string)) end += 1;
    valueStarts(index);
    valueEnds(end);
    index = end;
  }
  return found;
}
