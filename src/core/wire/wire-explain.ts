/**
 * zod's runtime for the wire's JSON answers, loaded only when a compiled check (wire-checks.generated.ts)
 * refuses one: zod, the definition, explains the refusal as an {@link AgentValidationError} naming
 * the paths (docs/decisions/0014-bundle-size.md). Internal: not in any barrel.
 */
import {
  agentSchema,
  agentSchemasSchema,
  agentSchemasToolsSchema,
  agentSearchResponseSchema,
  platformAgentResponseSchema,
  toolServerAuthorizationSchema,
} from './schemas.js';
import { parseWith } from './zod-issues.js';

/** Each JSON answer's schema, by the name the client gives (client-wire.ts has its check). */
export const wireAnswerSchemas = {
  agent: agentSchema,
  platformAgentResponse: platformAgentResponseSchema,
  agentSearchResponse: agentSearchResponseSchema,
  agentSchemas: agentSchemasSchema,
  toolServerAuthorization: toolServerAuthorizationSchema,
};

/** The answers a compiled check guards, by the name the client gives. */
export type WireAnswerName = keyof typeof wireAnswerSchemas;

/**
 * zod's account of `body`, which a compiled check refused: an {@link AgentValidationError} naming
 * the paths, or (should zod's runtime accept it, which it does not when the check is what zod
 * compiles) the value.
 */
export function explainWireRefusal(name: WireAnswerName, body: unknown, what: string): unknown {
  return parseWith(wireAnswerSchemas[name], body, what);
}

/**
 * zod's account of the `tools` of a schemas answer, which their compiled check
 * (agent-tools-check.generated.ts) refused: an {@link AgentValidationError} naming the paths.
 */
export function explainToolsRefusal(body: unknown, what: string): unknown {
  return parseWith(agentSchemasToolsSchema, body, what);
}
