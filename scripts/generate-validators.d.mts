/** Where the generated check is written. */
export const generatedPath: string;
/** The module's text for `schema` (throws when the schema needs constants other than INVALID). */
export function checkModuleSource(schema: unknown): string;
