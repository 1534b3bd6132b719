/**
 * Packs the built package once (`npm pack`) as `agent-console-kit.tgz` in a temporary folder, where
 * each example is then copied beside it (their package.json names `file:../agent-console-kit.tgz`,
 * as in examples/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const root = fileURLToPath(new URL('../../', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    examplesBase: string;
  }
}

export default function setup(project: TestProject) {
  if (!existsSync(join(root, 'dist/index.js'))) {
    // The library build (its .d.ts plugin is off while VITEST is set).
    const env = { ...process.env };
    delete env['VITEST'];
    execFileSync(join(root, 'node_modules/.bin/vite'), ['build'], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
  }
  const base = mkdtempSync(join(tmpdir(), 'ack-examples-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', base], {
    cwd: root,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1);
  if (tarball === undefined) throw new Error('npm pack named no tarball');
  renameSync(join(base, tarball), join(base, 'agent-console-kit.tgz'));
  project.provide('examplesBase', base);
  return () => rmSync(base, { recursive: true, force: true });
}
