/**
 * Packs the built package once (`npm pack`) and lays out consumer folders that install it from
 * the tarball: `plain` (the runtime dependencies only: no React, no msw), `react` (plus React and
 * TanStack Query), `types-19` / `types-18` (plus TypeScript's view of React 19 or 18 types, msw).
 * Dependencies are symlinked from this repository's node_modules, so no network is needed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { packPackage } from '../support/pack-package.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const runtime = ['zod'];
const react = [
  'react',
  'react-dom',
  'scheduler',
  '@tanstack/react-query',
  '@tanstack/query-core',
  // The optional peer of agent-console-kit/markdown (its own dependencies resolve from here).
  'react-markdown',
];

declare module 'vitest' {
  export interface ProvidedContext {
    consumers: { plain: string; react: string; types19: string; types18: string };
  }
}

export default function setup(project: TestProject) {
  const { base, tarball } = packPackage('ack-consumers-');

  const consumer = (name: string, links: Record<string, string>) => {
    const folder = join(base, name);
    const installed = join(folder, 'node_modules/agent-console-kit');
    mkdirSync(installed, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }),
    );
    execFileSync('tar', ['-xzf', join(base, tarball), '-C', installed, '--strip-components=1']);
    for (const [as, from] of Object.entries(links)) {
      const target = join(folder, 'node_modules', as);
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(join(root, 'node_modules', from), target, 'dir');
    }
    return folder;
  };
  const same = (names: string[]) => Object.fromEntries(names.map((name) => [name, name]));
  const types = ['msw', '@types/node'];

  project.provide('consumers', {
    plain: consumer('plain', same(runtime)),
    react: consumer('react', same([...runtime, ...react])),
    types19: consumer('types-19', {
      ...same([...runtime, ...react, ...types]),
      '@types/react': '@types/react',
    }),
    types18: consumer('types-18', {
      ...same([...runtime, ...react, ...types]),
      '@types/react': '@types/react-18',
    }),
  });
  return () => rmSync(base, { recursive: true, force: true });
}
