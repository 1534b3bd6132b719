import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatBundlerTable, measureBundlers, withinBudget } from '../../bench/bundlers.js';

const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

// The size matrix of `npm run bench` (bench/bundlers.js) on its quickest cell: esbuild, the whole
// console, so that a change to the package's layout or to esbuild cannot leave the script printing
// nothing or nonsense. No budget is asserted here (the bench prints ✓ or ✗ where it judges one).
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
      'esbuild (reported)',
      'verdict',
    ]);
    expect(lines[1]).toMatch(/^\|(-+\|){4}$/);
    const [title, budget, cell, verdict] = cells(lines[2] ?? '');
    expect(title).toContain('whole console');
    expect(budget).toBe('≤ 40 kB');
    // esbuild is measured and reported beside the bundlers the budgets are judged in.
    expect(cell).toBe(`${(bytes / 1000).toFixed(1)} kB`);
    expect(verdict).toBe('–');
    expect(cells(lines[3] ?? '')[0]).toContain('baseline');
  });

  it('prints each budget and, per row, ok or by how much each judged bundler is over (esbuild unjudged)', () => {
    const result = (pages: Record<string, number>) => ({
      seconds: 1,
      baseline: 70_000,
      files: {},
      pages,
    });
    const results = {
      esbuild: result({ hooks: 16_250, console: 39_000, chat: 39_000 }),
      vite: result({ hooks: 14_000, console: 41_000, chat: 30_000 }),
    };
    // The one chat agent's page pays less than the whole console in the same bundler.
    expect(withinBudget(results.esbuild, 'chat')).toBe(false);
    expect(withinBudget(results.vite, 'chat')).toBe(true);
    expect(withinBudget(result({ chat: 30_000 }), 'chat')).toBeUndefined();
    expect(withinBudget(results.vite, 'hooks')).toBe(true);

    const rows = formatBundlerTable(results)
      .split('\n')
      .slice(5)
      .map((line) =>
        line
          .split('|')
          .slice(2, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows).toEqual([
      ['≤ 15 kB', '16.3 kB', '14.0 kB ✓', 'ok'],
      ['≤ 40 kB', '39.0 kB', '41.0 kB ✗', 'over: Vite +1.0 kB'],
      ['< whole console', '39.0 kB', '30.0 kB ✓', 'ok'],
      ['–', '70.0 kB', '70.0 kB', '–'],
    ]);
  });
});
