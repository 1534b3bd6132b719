import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import {
  generateApiReports,
  publicEntries,
  readCommittedReport,
} from '../../scripts/api-report.mjs';

const howToFix =
  'The public API changed: run `npm run api:report` and review the diff of api/ (every line is a ' +
  'name, kind or type that users of the package see).';

describe('given the API report committed in api/', () => {
  const reports = generateApiReports();

  it('has a report for every public entry of package.json that has code', () => {
    const codeEntries = Object.keys(packageJson.exports).filter(
      (entry) => entry !== './package.json' && entry !== './styles.css',
    );
    expect(publicEntries().map(({ entry }) => entry)).toEqual(expect.arrayContaining(codeEntries));
    expect(publicEntries().length).toBeGreaterThanOrEqual(codeEntries.length);
  });

  it.each([...reports.keys()])('matches what the source exports today: %s', (reportPath) => {
    const committed = readCommittedReport(reportPath);
    if (committed === undefined) {
      expect.fail(`${reportPath} is missing. ${howToFix}`);
    }
    expect(committed, howToFix).toBe(reports.get(reportPath));
  });

  it('keeps no report of an entry that is gone', () => {
    const committed = readdirSync(new URL('../../api/', import.meta.url)).map(
      (file) => `api/${file}`,
    );
    expect(committed.sort(), howToFix).toEqual([...reports.keys()].sort());
  });

  it('writes no absolute path into a report', () => {
    for (const text of reports.values()) {
      expect(text).not.toContain(process.cwd());
      expect(text).not.toMatch(/import\("\//);
    }
  });
});
