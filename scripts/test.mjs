#!/usr/bin/env node
// `npm test`: the checks in order, stopping at the first that fails (like a chain of &&). Each
// step's outcome goes to .checks-report.json, so CI's closing line counts the checks that are not
// vitest tests (.ci/summary.mjs); vitest's own tests come from .vitest-report.json.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const steps = [
  'setup:chromium',
  'typecheck',
  'lint',
  'build',
  'check:package',
  'test:vitest',
  'build-storybook',
  'check:storybook-docs -- --no-build',
];
// test:vitest reports its tests itself; the others count as one check each.
const counted = steps.filter((step) => step !== 'test:vitest');
const report = { passed: [], failed: [] };
const write = () => writeFileSync('.checks-report.json', `${JSON.stringify(report, null, 2)}\n`);

let status = 0;
for (const step of steps) {
  const result = spawnSync('npm', ['run', ...step.split(' ')], { stdio: 'inherit' });
  const ok = result.status === 0;
  if (counted.includes(step)) report[ok ? 'passed' : 'failed'].push(step);
  write();
  if (!ok) {
    console.error(`npm test: ${step} failed.`);
    status = result.status ?? 1;
    break;
  }
}
process.exit(status);
