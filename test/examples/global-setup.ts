/**
 * Packs the built package once (`npm pack`) as `agent-console-kit.tgz` in a temporary folder, where
 * each example is then copied beside it (their package.json names `file:../agent-console-kit.tgz`,
 * as in examples/).
 */
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packPackage } from '../support/pack-package.js';

declare module 'vitest' {
  export interface ProvidedContext {
    examplesBase: string;
  }
}

export default function setup(project: TestProject) {
  const { base, tarball } = packPackage('ack-examples-');
  renameSync(join(base, tarball), join(base, 'agent-console-kit.tgz'));
  project.provide('examplesBase', base);
  return () => rmSync(base, { recursive: true, force: true });
}
