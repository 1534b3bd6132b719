// Shared by the screenshot script and the docs-page check: build Storybook, serve it on
// 127.0.0.1:6106, and open the project's Chromium (scripts/find-chromium.mjs).
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright';
import { chromiumLaunchOptions } from './find-chromium.mjs';

export const staticDir = 'storybook-static';
export const port = Number(process.env.STORYBOOK_PORT ?? 6106);

export function buildStorybook() {
  const result = spawnSync(
    'node_modules/.bin/storybook',
    ['build', '--quiet', '--output-dir', staticDir],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`storybook build failed (${result.status})`);
}

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  // PGlite (the Two devices story's store): WebAssembly compiles only from this type.
  '.wasm': 'application/wasm',
};

/** A static file server for the built Storybook; resolves with the server and its origin. */
export function serveStorybook() {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file = normalize(join(staticDir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(staticDir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'service-worker-allowed': '/',
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${port}` })),
  );
}

export function launchChromium() {
  return chromium.launch(chromiumLaunchOptions());
}

/** Waits until the story in the page has rendered and its play function (if any) has ended. */
export async function waitForStory(page, timeout = 25_000) {
  await page.waitForFunction(
    () => {
      const phase = globalThis.__STORYBOOK_PREVIEW__?.currentRender?.phase;
      return ['completed', 'finished', 'played', 'errored', 'aborted'].includes(phase);
    },
    undefined,
    { timeout },
  );
}
