/** The text of src/server/html-references.generated.ts, as the WHATWG list makes it now. */
export function htmlReferencesSource(): string;
