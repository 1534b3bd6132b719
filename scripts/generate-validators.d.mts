/** Where the generated check is written. */
export const generatedPath: string;
/** The module's text for `schema` (throws when the schema needs constants other than INVALID). */
export function checkModuleSource(schema: unknown): string;
/** Where the generated wire checks are written. */
export const wireChecksPath: string;
/** Each wire check: the function's name and the name of its schema in src/core/wire/schemas.ts. */
export const wireChecks: readonly (readonly [functionName: string, schemaName: string])[];
/** The wire checks' module text, from src/core/wire/schemas.ts's exports (throws when a check's refusals are not definite or a constant cannot be written); `checks` another list, e.g. {@link agentToolsChecks}. */
export function wireChecksModuleSource(
  schemas: Record<string, unknown>,
  checks?: readonly (readonly [functionName: string, schemaName: string])[],
): string;
/** Where the generated check of an agent's tools (loaded on demand) is written. */
export const agentToolsCheckPath: string;
/** The check of an agent's tools: the function's name and the name of its schema. */
export const agentToolsChecks: readonly (readonly [functionName: string, schemaName: string])[];
/** Where the generated checks of a saved conversation message are written. */
export const conversationMessageCheckPath: string;
/** A saved conversation message's module text: a check per field of `schema` (throws when a field cannot be checked alone, or its refusals are not definite). */
export function conversationMessageModuleSource(schema: unknown): string;
