// Prints the closing line CI reads, `N passed, M failed`, from vitest's JSON report.
// A failing step outside vitest (typecheck, lint, build, package checks) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
if (existsSync('.vitest-report.json')) {
  const report = JSON.parse(readFileSync('.vitest-report.json', 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
}
if (exitStatus !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
