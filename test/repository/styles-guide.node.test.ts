import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tokenDeclarations } from '../support/stylesheet.js';

// The stylesheet ships minified: docs/styling.md is where its tokens are documented.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const guide = read('docs/styling.md');
const tokens = tokenDeclarations(read('src/styles.css'));

describe('docs/styling.md, the documentation of agent-console-kit/styles.css', () => {
  it('has a row for every --ack-* token, with its default value', () => {
    expect(tokens.length).toBeGreaterThanOrEqual(40);
    for (const { name, value } of tokens) {
      const row = guide.split('\n').find((line) => line.startsWith(`| \`${name}\` `));
      expect(row, name).toBeDefined();
      // A colour's light and dark values, a length or number as written; a font stack or the
      // shadow is described in words.
      const lightDark = /^light-dark\((#[0-9a-f]{6}), (#[0-9a-f]{6})\)$/.exec(value);
      if (lightDark) expect(row, name).toContain(`| \`${lightDark[1]}\` | \`${lightDark[2]}\` |`);
      else if (/^[\d.]+(rem|px)?$/.test(value)) expect(row, name).toContain(`| \`${value}\` `);
    }
  });

  it('is where the shipped stylesheet’s one kept comment points', () => {
    expect(read('src/styles.css')).toMatch(/^\/\*! .*\/docs\/styling\.md \*\/\n/);
  });
});
