/**
 * The check of an agent's tools, loaded by the client only when it asks for them
 * (`includeTools`): the check zod's compiler wrote (agent-tools-check.generated.ts), and zod's
 * account of a refusal (docs/decisions/0014-bundle-size.md). Internal: not in any barrel.
 */
import { checkAgentSchemasTools } from './agent-tools-check.generated.js';
import { AgentValidationError } from './errors.js';
import type { AgentSchemas } from './schemas.js';
import type { explainToolsRefusal } from './wire-explain.js';

/**
 * `answer` when each of its `tools` is an `ActionSummary` (unknown values and fields kept); else
 * an {@link AgentValidationError} naming the paths (`tools.0.display_name`).
 */
export async function checkToolsOf(answer: AgentSchemas, what: string): Promise<AgentSchemas> {
  if (checkAgentSchemasTools(answer) === true) return answer;
  let explain: typeof explainToolsRefusal;
  try {
    ({ explainToolsRefusal: explain } = await import('./wire-explain.js'));
  } catch {
    // The refusal stands; only zod's account of it could not be loaded (a chunk the network lost).
    throw new AgentValidationError(
      what,
      [{ path: 'tools', message: 'refused (the explanation could not be loaded)' }],
      answer,
    );
  }
  explain(answer, what);
  return answer;
}
