/**
 * Lays out a temporary folder as a clone of the repository is laid out for examples/README.md: the
 * packed package as `examples/agent-console-kit.tgz` (what the README's `npm pack` and `mv` make),
 * each example then copied to `examples/<name>` beside it (their package.json names
 * `file:../agent-console-kit.tgz`), and the repository's own package-lock.json at the top, where
 * Next.js looks for a workspace root.
 */
import { copyFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { packPackage } from '../support/pack-package.js';

declare module 'vitest' {
  export interface ProvidedContext {
    examplesBase: string;
  }
}

const root = fileURLToPath(new URL('../../', import.meta.url));

export default function setup(project: TestProject) {
  const { base, tarball } = packPackage('ack-examples-');
  mkdirSync(join(base, 'examples'));
  renameSync(join(base, tarball), join(base, 'examples/agent-console-kit.tgz'));
  copyFileSync(join(root, 'package-lock.json'), join(base, 'package-lock.json'));
  project.provide('examplesBase', base);
  return () => rmSync(base, { recursive: true, force: true });
}
