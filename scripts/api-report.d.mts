/** A public entry of the package, its source and the report written for it. */
export interface PublicEntry {
  entry: string;
  source: string;
  report: string;
}
/** The entries whose source exists (`./server` once `src/server/index.ts` does). */
export function publicEntries(projectRoot?: string): PublicEntry[];
/** Every report's text, by its path relative to the project root (`api/core.api.md` …). */
export function generateApiReports(projectRoot?: string): Map<string, string>;
/** The committed text of a report, or undefined when there is none. */
export function readCommittedReport(reportPath: string, projectRoot?: string): string | undefined;
