/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from '../scripts/find-chromium.mjs';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The Chromium rows of `npm run bench` (bench/run.js reads what the files write). The
// project's Chromium (scripts/find-chromium.mjs); React's production build as users ship it, with
// profiling on (react-dom/profiling) so <Profiler> reports the commits that follow a step.
export default defineConfig({
  mode: 'production',
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'react-dom/profiling' },
      { find: /^agent-console-kit$/, replacement: fromRoot('../src/index.ts') },
      { find: /^agent-console-kit\/testing$/, replacement: fromRoot('../src/testing/index.ts') },
      { find: /^agent-console-kit\/styles\.css$/, replacement: fromRoot('../src/styles.css') },
    ],
  },
  test: {
    name: 'bench-browser',
    root: fromRoot('..'),
    include: ['bench/event-log.bench-browser.tsx', 'bench/thread-frames.bench-browser.tsx'],
    testTimeout: 600_000,
    fileParallelism: false,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: chromiumLaunchOptions() }),
      instances: [{ browser: 'chromium', viewport: { width: 1024, height: 768 } }],
    },
  },
});
