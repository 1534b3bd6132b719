/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import dts from 'vite-plugin-dts';
import { transform } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import packageJson from './package.json' with { type: 'json' };

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

import { chromiumLaunchOptions } from './scripts/find-chromium.mjs';

// CHROMIUM_PATH, the system's Chromium or Playwright's own (`npm test` installs one first where
// none exists: scripts/find-chromium.mjs).
const chromium = playwright({ launchOptions: chromiumLaunchOptions() });
// A fresh object per project: vitest writes the instance name into it.
const browser = () => ({
  enabled: true,
  headless: true,
  provider: chromium,
  instances: [{ browser: 'chromium' as const }],
});

const external = [
  ...Object.keys(packageJson.peerDependencies),
  ...Object.keys(packageJson.dependencies),
];

// `agent-console-kit/styles.css`: the stylesheet minified, as esbuild, Vite and Next.js minify it in
// an app (a plain webpack app, css-loader and mini-css-extract-plugin, ships it as it is). Its one
// `/*! … */` comment is kept: it points to docs/styling.md, which documents the --ack-* properties.
// The components never import it.
const stylesheet: Plugin = {
  name: 'agent-console-kit:styles',
  apply: 'build',
  async generateBundle() {
    const source = readFileSync(fromRoot('./src/styles.css'), 'utf8');
    const { code } = await transform(source, {
      loader: 'css',
      minify: true,
      legalComments: 'inline',
    });
    this.emitFile({ type: 'asset', fileName: 'styles.css', source: code });
    // Its types: `import 'agent-console-kit/styles.css'` type-checks outside Vite too.
    this.emitFile({
      type: 'asset',
      fileName: 'styles.css.d.ts',
      source: '// The stylesheet: imported for its side effect only.\nexport {};\n',
    });
  },
};

export default defineConfig({
  plugins: [
    react(),
    stylesheet,
    // Library build only: Storybook (STORYBOOK=true) and Vitest (VITEST) load this file too.
    !process.env.STORYBOOK &&
      !process.env.VITEST &&
      dts({ tsconfigPath: './tsconfig.build.json', entryRoot: 'src' }),
  ],
  resolve: {
    alias: [
      { find: /^agent-console-kit$/, replacement: fromRoot('./src/index.ts') },
      { find: /^agent-console-kit\/core$/, replacement: fromRoot('./src/core/index.ts') },
      { find: /^agent-console-kit\/console$/, replacement: fromRoot('./src/console.ts') },
      { find: /^agent-console-kit\/testing$/, replacement: fromRoot('./src/testing/index.ts') },
      { find: /^agent-console-kit\/testing\/msw$/, replacement: fromRoot('./src/testing/msw.ts') },
      { find: /^agent-console-kit\/markdown$/, replacement: fromRoot('./src/markdown/index.ts') },
      { find: /^agent-console-kit\/server$/, replacement: fromRoot('./src/server/index.ts') },
      { find: /^agent-console-kit\/styles\.css$/, replacement: fromRoot('./src/styles.css') },
    ],
  },
  build: {
    lib: {
      // Each entry beside its .d.ts (dist/core/index.js + dist/core/index.d.ts); code used by
      // several entries goes to shared chunks, so the main entry does not carry a copy of core.
      entry: {
        index: fromRoot('./src/index.ts'),
        console: fromRoot('./src/console.ts'),
        'core/index': fromRoot('./src/core/index.ts'),
        'testing/index': fromRoot('./src/testing/index.ts'),
        'testing/msw': fromRoot('./src/testing/msw.ts'),
        'markdown/index': fromRoot('./src/markdown/index.ts'),
        'server/index': fromRoot('./src/server/index.ts'),
        // The `agent-console-kit` command (package.json `bin`).
        'bin/agent-console-kit': fromRoot('./src/bin/agent-console-kit.ts'),
      },
      formats: ['es'],
      fileName: (_format, entryName) => `${entryName}.js`,
    },
    sourcemap: true,
    copyPublicDir: false,
    rolldownOptions: {
      external: (id) =>
        id.startsWith('node:') || external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: {
        // One file per source module (dist/ mirrors src/): a bundler that shakes whole modules
        // only (Turbopack in `next build`) then drops the parts a page does not import, as it
        // cannot inside one large chunk (docs/decisions/0014-bundle-size.md).
        preserveModules: true,
        preserveModulesRoot: fromRoot('./src'),
        // Bundled dependencies (the virtualizer) beside the sources, not in a node_modules folder.
        entryFileNames: (chunk) =>
          chunk.name.includes('node_modules/')
            ? `vendor/${chunk.name.slice(chunk.name.lastIndexOf('node_modules/') + 13)}.js`
            : '[name].js',
        // Only the main entry and the console's are client modules (hooks and components). Any
        // other module must not say 'use client': core and testing import them in server code.
        banner: (chunk) => {
          if (!chunk.isEntry) return '';
          if (chunk.name === 'index' || chunk.name === 'console') return "'use client';";
          return chunk.name === 'bin/agent-console-kit' ? '#!/usr/bin/env node' : '';
        },
      },
    },
  },
  test: {
    // CI is a noisy 2-core machine: a cold module graph or a slow run can take seconds, and some
    // waits inside tests allow 10-20 s. No test measures speed (benchmarks do), so the limit only
    // has to catch hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.element / expect.poll (every project): up to 15 s rather than 1 s, same reason. A
    // poll returns as soon as its condition holds; only a failing one waits this long. (vi.waitFor
    // cannot be configured: its 1 s default failed under load, so tests poll with expect.poll.)
    expect: { poll: { timeout: 15_000 } },
    // Chromium's first test session waits for Vite to bundle the dependencies of a cold cache (a
    // fresh clone in CI): over vitest's 60 s on a loaded machine (seen: a story run that ran no test).
    browser: { connectTimeout: 180_000 },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [
            'test/**/*.browser.test.{ts,tsx}',
            'test/**/*.node.test.{ts,tsx}',
            'test/**/*.package.test.{ts,tsx}',
            'test/**/*.examples.test.ts',
          ],
          setupFiles: ['./test/support/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // The RunStream tests run here too: in plain Node they go through the fetch transport
          // (in the unit project, jsdom, through fetch-event-source).
          include: ['test/**/*.node.test.{ts,tsx}', 'test/core/stream/run-stream*.test.ts'],
        },
      },
      {
        // The packed tarball in consumer folders: entries in plain Node, types under strict tsc.
        extends: true,
        test: {
          name: 'package',
          environment: 'node',
          include: ['test/**/*.package.test.ts'],
          globalSetup: ['./test/package/global-setup.ts'],
        },
      },
      {
        // examples/: each installed from the packed tarball, built, run behind the proxy against
        // the mock service, and opened in Chromium (test/examples/).
        extends: true,
        test: {
          name: 'examples',
          environment: 'node',
          include: ['test/examples/**/*.examples.test.ts'],
          globalSetup: ['./test/examples/global-setup.ts'],
          // An install and a build per example: minutes on a 2-core machine, one file at a time.
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/**/*.browser.test.{ts,tsx}'],
          setupFiles: ['./test/support/setup.ts'],
          globalSetup: ['./test/support/mock-server.global-setup.ts'],
          browser: browser(),
        },
      },
      {
        extends: true,
        plugins: [storybookTest({ configDir: fromRoot('./.storybook') })],
        test: {
          name: 'storybook',
          // A story's play waits up to 15 s a step (.storybook/vitest.setup.ts), the 10,000-event
          // console run up to 50 s: the limit still only catches hangs.
          testTimeout: 60_000,
          setupFiles: ['./.storybook/vitest.setup.ts'],
          browser: browser(),
        },
      },
    ],
  },
});
