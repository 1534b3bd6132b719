/**
 * The proxy's table of HTML named references (src/server/html-references.generated.ts) is what
 * scripts/generate-html-references.mjs writes from the WHATWG list now.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { htmlReferencesSource } from '../../scripts/generate-html-references.mjs';

describe('the named references the proxy looks for', () => {
  it('are those the generator writes now (run node scripts/generate-html-references.mjs)', () => {
    const written = readFileSync(
      new URL('../../src/server/html-references.generated.ts', import.meta.url),
      'utf8',
    );

    expect(written).toBe(htmlReferencesSource());
  });
});
