/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// `npm run bench:thread`: AgentThread with 1,000 messages in real Chromium (layout matters, so not
// jsdom). Prints its figures; asserts nothing.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^agent-console-kit$/, replacement: fromRoot('../src/index.ts') },
      { find: /^agent-console-kit\/styles\.css$/, replacement: fromRoot('../src/styles.css') },
    ],
  },
  test: {
    name: 'bench-thread',
    root: fromRoot('..'),
    include: ['bench/agent-thread.bench-browser.tsx'],
    testTimeout: 600_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
      instances: [{ browser: 'chromium' }],
    },
  },
});
