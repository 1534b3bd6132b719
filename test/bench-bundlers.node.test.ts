import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatBundlerTable, measureBundlers } from '../bench/bundlers.js';

const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));

// The size matrix of `npm run bench` (bench/bundlers.js) on its quickest cell: esbuild, the whole
// console, so that a change to the package's layout or to esbuild cannot leave the script printing
// nothing or nonsense. No budget is asserted here (the bench prints ✓ or ✗).
describe('bench/bundlers.js', () => {
  it('builds the console page with esbuild from dist/ and prints its size against the budget', async () => {
    expect(existsSync(dist), 'dist/ is built first (npm run build)').toBe(true);
    const results = await measureBundlers({ bundlers: ['esbuild'], pages: ['console'] });
    const esbuild = results.esbuild;
    expect(esbuild).toBeDefined();
    if (esbuild === undefined) return;
    const bytes = esbuild.pages.console ?? 0;
    // The page carries the library on top of the peers the baseline carries whole.
    expect(esbuild.baseline).toBeGreaterThan(20_000);
    expect(bytes).toBeGreaterThan(5_000);
    // The stylesheet is counted with the JS it loads up front.
    const files = esbuild.files.console ?? [];
    expect(files.some((file) => file.path.endsWith('.css') && file.brotli > 0)).toBe(true);
    expect(files.some((file) => file.path.endsWith('.js'))).toBe(true);

    const [caption, , blank, ...lines] = formatBundlerTable(results).split('\n');
    expect(caption).toMatch(/^Size per bundler: brotli/);
    expect(blank).toBe('');
    expect(lines).toHaveLength(4);
    const cells = (line: string) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
    expect(cells(lines[0] ?? '')).toEqual([
      'page (brotli, loaded up front, minus the baseline)',
      'budget',
      'esbuild',
    ]);
    expect(lines[1]).toMatch(/^\|(-+\|){3}$/);
    const [title, budget, cell] = cells(lines[2] ?? '');
    expect(title).toContain('whole console');
    expect(budget).toBe('≤ 40 kB');
    expect(cell).toBe(`${(bytes / 1000).toFixed(1)} kB ${bytes <= 40_000 ? '✓' : '✗'}`);
    expect(cells(lines[3] ?? '')[0]).toContain('baseline');
  });
});
