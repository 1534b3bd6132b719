/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { fileURLToPath } from 'node:url';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The Chromium rows of `npm run bench` (bench/run.js reads what the files write). Debian's
// Chromium with the flags of vite.config.ts; React's production build as users ship it, with
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
      provider: playwright({
        launchOptions: {
          executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      }),
      instances: [{ browser: 'chromium', viewport: { width: 1024, height: 768 } }],
    },
  },
});
