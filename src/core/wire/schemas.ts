import * as z from 'zod/mini';

/**
 * zod/mini keeps the validators tree-shakable: the bundle pays only for the checks used here.
 * Every object is loose: fields the service adds later pass through and are kept.
 */

const jsonObject = z.record(z.string(), z.unknown());

export const agentCapabilitiesSchema = z.looseObject({
  'ap.io.messages': z.optional(z.boolean()),
  'ap.io.streaming': z.optional(z.boolean()),
});

export const agentSchema = z.looseObject({
  agent_id: z.string(),
  name: z.string(),
  description: z.optional(z.nullable(z.string())),
  metadata: z.optional(z.nullable(jsonObject)),
  capabilities: z.optional(agentCapabilitiesSchema),
  request_id: z.optional(z.string()),
});

export const platformAgentResponseSchema = z.looseObject({
  agent: agentSchema,
  request_id: z.optional(z.string()),
});

/**
 * The answer of `POST …/agents/search` (the platform adds `request_id`). The legacy contract
 * requires no field: `{}` is a valid answer and means no agents.
 */
export const agentSearchResponseSchema = z.looseObject({
  agents: z.optional(z.array(agentSchema)),
  request_id: z.optional(z.string()),
});

/**
 * One of an agent's tools (`ActionSummary`, sent with `include_tools=true`). Every enum is open: a
 * value the service adds later is kept as the string it sent (the typed {@link AgentTool} names
 * the values known today).
 */
export const actionSummarySchema = z.looseObject({
  tool_id: z.string(),
  display_name: z.string(),
  type: z.optional(z.nullable(z.string())),
  auth_type: z.optional(z.nullable(z.string())),
  write_action_type: z.optional(z.nullable(z.string())),
  is_setup_finished: z.optional(z.nullable(z.boolean())),
  data_source: z.optional(z.nullable(z.string())),
});

/**
 * The schemas answer. Its `tools` (asked for with `include_tools=true`) are checked apart, by
 * {@link agentSchemasToolsSchema}, only when asked for: a page that never shows tools does not
 * carry their check.
 */
export const agentSchemasSchema = z.looseObject({
  agent_id: z.optional(z.string()),
  name: z.optional(z.string()),
  input_schema: jsonObject,
  output_schema: z.optional(z.nullable(jsonObject)),
  tools: z.optional(z.nullable(z.array(z.unknown()))),
  request_id: z.optional(z.string()),
});

/** The `tools` of a schemas answer asked for with `include_tools=true`: each an `ActionSummary`. */
export const agentSchemasToolsSchema = z.looseObject({
  tools: z.optional(z.nullable(z.array(actionSummarySchema))),
});

export const problemDetailSchema = z.looseObject({
  type: z.optional(z.string()),
  title: z.optional(z.string()),
  status: z.optional(z.number()),
  detail: z.optional(z.string()),
  code: z.optional(z.string()),
  request_id: z.optional(z.string()),
  documentation_url: z.optional(z.string()),
  errors: z.optional(
    z.array(
      z.looseObject({
        pointer: z.optional(z.string()),
        detail: z.optional(z.string()),
        code: z.optional(z.string()),
      }),
    ),
  ),
});

/** What the tool's action will do (a legacy 422 entry's `actionPreview`). */
export const toolActionPreviewSchema = z.looseObject({
  markdown: z.optional(z.string()),
  description: z.optional(z.string()),
});

/** One tool to authorize, as the library keeps it (either generation's 422, normalized). */
export const toolAuthorizationSuggestionSchema = z.looseObject({
  toolName: z.optional(z.string()),
  toolDisplayName: z.optional(z.string()),
  serverId: z.optional(z.string()),
  /** The verb for the tool's button ("Create", "Send"), legacy only. */
  toolCta: z.optional(z.string()),
  /** What the action will do, legacy only: markdown (never rendered as HTML) or a description. */
  actionPreview: z.optional(toolActionPreviewSchema),
});

export const toolAuthorizationSchema = z.looseObject({
  message: z.string(),
  authenticationSuggestions: z.array(toolAuthorizationSuggestionSchema),
});

/** The answer of `POST …/tool-servers/{serverId}/auth`. */
export const toolServerAuthorizationSchema = z.looseObject({
  authorizationUrl: z.string(),
});

const messageContentShape = {
  type: z.string(),
  text: z.optional(z.string()),
};

export const messageContentSchema = z.looseObject(messageContentShape);

export const agentMessageSchema = z.looseObject({
  role: z.string(),
  content: z.array(messageContentSchema),
});

/** The payload of a `message` event: the new text fragment of one or more messages. */
export const messageEventPayloadSchema = z.looseObject({
  messages: z.array(agentMessageSchema),
});

/**
 * {@link messageEventPayloadSchema}'s checks with plain objects: the per-event check. The engine runs
 * the form zod's compiler writes from it at build time (message-payload-check.generated.ts, `npm run
 * generate:validators`) and this schema itself for what that refuses. Only whether a payload matches
 * is asked (the payload kept is `JSON.parse`'s), and to that a plain object and a loose one answer
 * the same (neither refuses a key it does not know); the plain one skips the loose one's copy of
 * every unknown key.
 */
export const messageEventPayloadCheck = z.object({
  messages: z.array(
    z.object({
      role: z.string(),
      content: z.array(z.object(messageContentShape)),
    }),
  ),
});

/** The payload of a `run.failed` event (replacement API). */
export const runFailedPayloadSchema = z.looseObject({
  error: problemDetailSchema,
});

/** An agent record, as both API generations describe it (the platform's `request_id` kept). */
export type Agent = z.infer<typeof agentSchema>;
/** The keys of `capabilities` known today; other keys are kept. */
export type AgentCapabilities = z.infer<typeof agentCapabilitiesSchema>;
/**
 * An open enum: the values known today, or another string the service sent (kept as sent).
 * (`string & Record<never, never>` keeps the known values offered by editors.)
 */
export type OpenEnum<Known extends string> = Known | (string & Record<never, never>);
/** What a tool does: `RETRIEVAL` reads only, `ACTION` may change data. */
export type AgentToolType = OpenEnum<'RETRIEVAL' | 'ACTION'>;
/**
 * What a tool needs to be allowed: `OAUTH_USER` the person's own sign-in, `OAUTH_ADMIN` an
 * admin's, `API_KEY`, `BASIC_AUTH`, `DWD` (domain-wide delegation), `NONE`.
 */
export type AgentToolAuthType = OpenEnum<
  'OAUTH_USER' | 'OAUTH_ADMIN' | 'API_KEY' | 'BASIC_AUTH' | 'DWD' | 'NONE'
>;
/** How a write action acts: `REDIRECT` opens the service's page, `EXECUTION` calls out itself. */
export type AgentToolWriteActionType = OpenEnum<'REDIRECT' | 'EXECUTION'>;

/**
 * One of an agent's tools, as the schemas answer lists it with `include_tools=true` (the service's
 * `ActionSummary`); unknown fields are kept.
 */
export interface AgentTool {
  tool_id: string;
  display_name: string;
  /** `RETRIEVAL` (reads only) or `ACTION` (may change data); another value is kept. */
  type?: AgentToolType | null | undefined;
  /** What the tool needs to be allowed; another value is kept. */
  auth_type?: AgentToolAuthType | null | undefined;
  /** A write action's kind: `REDIRECT` or `EXECUTION`; another value is kept. */
  write_action_type?: AgentToolWriteActionType | null | undefined;
  /** Whether it is configured and validated (sent even when false). */
  is_setup_finished?: boolean | null | undefined;
  /** The kind of knowledge it reads or changes (free text: company, world, neutral). */
  data_source?: string | null | undefined;
  [key: string]: unknown;
}

/**
 * The input and output JSON Schemas of an agent, and its tools when asked for
 * (`includeTools`); unknown fields are kept.
 */
export interface AgentSchemas {
  agent_id?: string | undefined;
  name?: string | undefined;
  input_schema: Record<string, unknown>;
  output_schema?: Record<string, unknown> | null | undefined;
  /** The agent's tools: present only when asked for (`include_tools=true`). */
  tools?: AgentTool[] | null | undefined;
  request_id?: string | undefined;
  [key: string]: unknown;
}

/** An RFC 9457 problem detail, as the replacement API sends it. */
export type ProblemDetail = z.infer<typeof problemDetailSchema>;
/** The 422 body of the legacy API: the agent needs tools authorized. */
export type ToolAuthorizationBody = z.infer<typeof toolAuthorizationSchema>;
export type ToolAuthorizationSuggestion = z.infer<typeof toolAuthorizationSuggestionSchema>;
/** A legacy 422 entry's `actionPreview`: `{ markdown?, description? }`. */
export type ToolActionPreview = z.infer<typeof toolActionPreviewSchema>;
export type ToolServerAuthorization = z.infer<typeof toolServerAuthorizationSchema>;
/** A message on the wire: `{ role, content: [{ type: 'text', text }] }`. */
export type AgentMessage = z.infer<typeof agentMessageSchema>;
/** The payload of a `message` event. */
export type MessageEventPayload = z.infer<typeof messageEventPayloadSchema>;
/** The payload of a `run.failed` event: `{ error: ProblemDetail }`. */
export type RunFailedPayload = z.infer<typeof runFailedPayloadSchema>;
