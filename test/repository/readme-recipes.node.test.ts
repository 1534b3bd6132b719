import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The recipes of the READMEs are the example apps' files (test/examples/ builds and runs them): a
// block announced as `examples/<path>`: must be that file, whole and unchanged.
const root = fileURLToPath(new URL('../../', import.meta.url));
const recipe = /^`(examples\/[^`]+)`:\n\n```[a-z]*\n([\s\S]*?)\n```$/gm;

function recipes(readme: string) {
  return [...readFileSync(`${root}${readme}`, 'utf8').matchAll(recipe)].map((match) => ({
    path: match[1] ?? '',
    code: match[2] ?? '',
  }));
}

describe.each(['README.md', 'docs/deployment.md', 'examples/README.md'])(
  'given the recipes of %s',
  (readme) => {
    it('copies each example file whole', () => {
      for (const { path, code } of recipes(readme)) {
        expect(existsSync(`${root}${path}`), path).toBe(true);
        expect(code, path).toBe(readFileSync(`${root}${path}`, 'utf8').trimEnd());
      }
    });
  },
);

describe('given examples/README.md', () => {
  it('gives every file a user writes, the route handler and the provider first among them', () => {
    const paths = recipes('examples/README.md').map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'examples/next-app/app/api/agent-service/[...path]/route.ts',
        'examples/next-app/app/providers.tsx',
        'examples/next-app/app/agents/[agentId]/page.tsx',
        'examples/next-app/app/agents/[agentId]/loading.tsx',
        'examples/vite-app/server.mjs',
        'examples/vite-app/src/main.tsx',
        'examples/node-script/run.mjs',
      ]),
    );
  });

  it('keeps a directive the first line of its block', () => {
    for (const { path, code } of recipes('examples/README.md')) {
      const source = readFileSync(`${root}${path}`, 'utf8');
      if (source.startsWith("'use client'"))
        expect(code.split('\n')[0], path).toBe("'use client';");
    }
  });
  it('shows every file of the examples, but the lockfiles and the icon it names as not shown', () => {
    const shown = new Set(recipes('examples/README.md').map((entry) => entry.path));
    // What a clone has in examples/ (not what `npm ci`, a build or `npm pack` add there).
    const made =
      /(^|\/)(node_modules|dist|\.next|next-env\.d\.ts|agent-console-kit[^/]*\.tgz)(\/|$)/;
    const files = readdirSync(`${root}examples`, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `${entry.parentPath}/${entry.name}`.slice(root.length).replaceAll('\\', '/'))
      .filter((path) => !made.test(path) && path !== 'examples/README.md')
      .sort();
    expect(files.filter((path) => !shown.has(path))).toEqual([
      'examples/next-app/app/icon.svg',
      'examples/next-app/package-lock.json',
      'examples/node-script/package-lock.json',
      'examples/vite-app/package-lock.json',
    ]);
    const readme = readFileSync(`${root}examples/README.md`, 'utf8');
    expect(readme).toContain('Not shown: `package-lock.json` and `app/icon.svg`.');
    expect(readme.split('Not shown: `package-lock.json`.').length).toBe(3);
  });

  it('pins no hash of the packed package in a lockfile: `npm pack` makes a new one each time', () => {
    for (const name of ['next-app', 'vite-app', 'node-script']) {
      const lock = JSON.parse(
        readFileSync(`${root}examples/${name}/package-lock.json`, 'utf8'),
      ) as {
        packages: Record<string, Record<string, unknown>>;
      };
      expect(lock.packages['node_modules/agent-console-kit'], name).toMatchObject({
        resolved: 'file:../agent-console-kit.tgz',
      });
      expect(lock.packages['node_modules/agent-console-kit'], name).not.toHaveProperty('integrity');
    }
  });
});
