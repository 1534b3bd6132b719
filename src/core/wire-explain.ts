/**
 * zod's runtime for the wire's JSON answers, loaded only when a compiled check (wire-checks.generated.ts)
 * refuses one: zod, the definition, explains the refusal; the client makes it an
 * {@link AgentValidationError} naming the paths (docs/decisions/0014-bundle-size.md). It imports
 * nothing a page has: esbuild would split that into a chunk of its own, loaded up front. Internal:
 * not in any barrel.
 */
import type { AgentValidationIssue } from './errors.js';
import {
  agentSchema,
  agentSchemasSchema,
  agentSearchResponseSchema,
  platformAgentResponseSchema,
  toolServerAuthorizationSchema,
} from './schemas.js';
import { validationIssuesOf } from './zod-issues.js';

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
 * zod's account of `body`, which a compiled check refused: its issues, or (should zod's runtime
 * accept it, which it does not when the check is what zod compiles) its value.
 */
export function explainWireRefusal(
  name: WireAnswerName,
  body: unknown,
): { success: true; data: unknown } | { success: false; issues: AgentValidationIssue[] } {
  const result = wireAnswerSchemas[name].safeParse(body);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, issues: validationIssuesOf(result.error.issues) };
}
