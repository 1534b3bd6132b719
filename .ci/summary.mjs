// Prints the closing line CI reads, `N passed, M failed`: vitest's tests from its JSON report,
// plus each non-vitest check of `npm test` (typecheck, lint, build, package checks, Storybook
// build, Chromium setup) from .checks-report.json (scripts/test.mjs). A failure that neither
// report names counts as one.
import { existsSync, readFileSync } from 'node:fs';

const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
if (existsSync('.vitest-report.json')) {
  const report = JSON.parse(readFileSync('.vitest-report.json', 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
}
if (existsSync('.checks-report.json')) {
  const checks = JSON.parse(readFileSync('.checks-report.json', 'utf8'));
  passed += checks.passed?.length ?? 0;
  failed += checks.failed?.length ?? 0;
}
if (exitStatus !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
