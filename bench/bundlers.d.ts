// Types of bench/bundlers.js, for the test that keeps it from rotting.
export type BundlerName = 'esbuild' | 'vite' | 'webpack' | 'next';
export type PageName = 'hooks' | 'conversation' | 'console' | 'chat' | 'threads' | 'inbox' | 'runs';
export interface PageDefinition {
  title: string;
  /** Brotli bytes; none for the pages measured without a budget. */
  budget?: number;
  /** A relative budget: the page pays less than this one, in every bundler. */
  below?: PageName;
  source: string;
}
export interface BundlerResult {
  seconds: number;
  /** The baseline page's brotli bytes loaded up front. */
  baseline: number;
  /** Per page (and `baseline`), the files it loads up front with their brotli bytes. */
  files: Record<string, { path: string; brotli: number }[]>;
  /** Per page, its brotli bytes loaded up front minus the baseline's. */
  pages: Partial<Record<PageName, number>>;
}
export const bundlerNames: BundlerName[];
export const pageNames: PageName[];
export const pages: Record<PageName, PageDefinition>;
export function measureBundlers(options?: {
  bundlers?: BundlerName[];
  pages?: PageName[];
  onStep?: (bundler: BundlerName) => void;
  /** Leaves the temp app and its builds in place (its folder is written to stderr). */
  keep?: boolean;
  /** Another build of the package to measure instead of dist/ (inside the repository). */
  dist?: string;
}): Promise<Partial<Record<BundlerName, BundlerResult>>>;
/** Whether the page meets its budget in this result (`undefined`: none, or not measured). */
export function withinBudget(result: BundlerResult, name: PageName): boolean | undefined;
export function formatBundlerTable(results: Partial<Record<BundlerName, BundlerResult>>): string;
