/** The markdown files under docs/ that may hold option tables, relative to the project root. */
export function guidePaths(projectRoot?: string): string[];
/**
 * Every guide with option markers, its text with the tables written from the JSDoc and formatted
 * as Prettier formats it, by path relative to the project root.
 */
export function generateOptionDocs(projectRoot?: string): Promise<Map<string, string>>;
/** The names of the tables each guide asks for, by guide. */
export function requestedTables(projectRoot?: string): Map<string, string[]>;
