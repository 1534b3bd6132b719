/**
 * zod's runtime for the wire's JSON answers, loaded only when a compiled check (wire-checks.generated.ts)
 * refuses one: zod, the definition, explains the refusal as an {@link AgentValidationError} naming
 * the paths (docs/decisions/0014-bundle-size.md). Internal: not in any barrel.
 */
import { parseWith } from './errors.js';
import {
  agentSchema,
  agentSchemasSchema,
  agentSearchResponseSchema,
  platformAgentResponseSchema,
  toolServerAuthorizationSchema,
} from './schemas.js';

const schemas = {
  agent: agentSchema,
  platformAgentResponse: platformAgentResponseSchema,
  agentSearchResponse: agentSearchResponseSchema,
  agentSchemas: agentSchemasSchema,
  toolServerAuthorization: toolServerAuthorizationSchema,
};

/** The answers a compiled check guards, by the name the client gives. */
export type WireAnswerName = keyof typeof schemas;

/**
 * Throws zod's {@link AgentValidationError} for `body`, which a compiled check refused. Should
 * zod's runtime accept it (it does not when the check is what zod compiles), its value is returned.
 */
export function explainWireRefusal(name: WireAnswerName, body: unknown, what: string): unknown {
  return parseWith(schemas[name], body, what);
}
