/**
 * A page of the tests in real Chromium (test/durable-chromium/, test/follow-chromium/): its script,
 * bundled by esbuild from the library's source, and the HTML that loads it from `/page.js`.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const fromRoot = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/**
 * `entry` (a path from the repository's root) and the library's source as one script, React in
 * development mode (StrictMode).
 */
export async function bundleTestPage(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [fromRoot(entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    alias: { 'agent-console-kit': fromRoot('src/index.ts') },
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'error',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no page script');
  return output.text;
}

/** The page's HTML: `title`, a `#root` and the bundled script at `/page.js`. */
export const testPageHtml = (title: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>${title}</title></head>
  <body><div id="root"></div><script type="module" src="/page.js"></script></body>
</html>`;
