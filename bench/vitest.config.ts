/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The benchmark runs in jsdom (fetch-event-source needs `window`; React needs a document), the
// environment the unit tests use. `npm run bench` (bench/run.js) runs it and prints the figures.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^agent-console-kit$/, replacement: fromRoot('../src/index.ts') },
      { find: /^agent-console-kit\/testing$/, replacement: fromRoot('../src/testing/index.ts') },
    ],
  },
  test: {
    name: 'bench',
    root: fromRoot('..'),
    include: ['bench/**/*.bench-run.tsx'],
    environment: 'jsdom',
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
