import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { tokenDeclarations, withoutComments } from '../support/stylesheet.js';

// agent-console-kit/styles.css as the packed tarball ships it, against src/styles.css.
const consumers = inject('consumers');
const shipped = readFileSync(
  join(consumers.plain, 'node_modules/agent-console-kit/dist/styles.css'),
  'utf8',
);
const source = readFileSync(new URL('../../src/styles.css', import.meta.url), 'utf8');

const comments = (css: string) => [...css.matchAll(/\/\*[\s\S]*?\*\//g)].map((match) => match[0]);

/** Splits a selector list at its top-level commas (not those inside `:where(…)`, `:not(…)` …). */
function selectorsOf(list: string): string[] {
  const selectors: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < list.length; index += 1) {
    const character = list[index];
    if (character === '(') depth += 1;
    else if (character === ')') depth -= 1;
    else if (character === ',' && depth === 0) {
      selectors.push(list.slice(start, index));
      start = index + 1;
    }
  }
  return [...selectors, list.slice(start)];
}

/**
 * Every selector, at-rule and keyframe step of a stylesheet, written one way whatever the minifier
 * chose: no quotes in attribute selectors, `:before` for `::before`, no spaces around `>` `~` `+`
 * `,` or inside parentheses (a descendant space is kept), `0%` and `100%` for `from` and `to`.
 */
function preludesOf(css: string): Set<string> {
  const text = withoutComments(css);
  const preludes = new Set<string>();
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '{') {
      const prelude = text.slice(start, index).trim();
      if (prelude.startsWith('@')) preludes.add(prelude.replace(/\s+/g, ''));
      else {
        for (const selector of selectorsOf(prelude)) {
          const written = selector
            .replace(/['"]/g, '')
            .replace(/::(before|after)/g, ':$1')
            .replace(/\s*([>~+,])\s*/g, '$1')
            .replace(/\(\s+/g, '(')
            .replace(/\s+\)/g, ')')
            .replace(/\s+/g, ' ')
            .trim();
          preludes.add(written === 'from' ? '0%' : written === 'to' ? '100%' : written);
        }
      }
      start = index + 1;
    } else if (character === '}' || character === ';') start = index + 1;
  }
  return preludes;
}

const tokensOf = (css: string) => new Set(tokenDeclarations(css).map((token) => token.name));
const classesOf = (css: string) =>
  new Set([...withoutComments(css).matchAll(/\.ack-[a-z0-9_-]+/g)].map((match) => match[0]));

describe('agent-console-kit/styles.css in the packed package', () => {
  it('is minified: one line, its only comment the /*! pointer to the styling guide', () => {
    expect(shipped.trimEnd().split('\n')).toHaveLength(1);
    expect(comments(shipped)).toEqual([
      expect.stringMatching(/^\/\*! agent-console-kit\/styles\.css: .*\/docs\/styling\.md \*\/$/),
    ]);
    // 44.8 kB as written, 32.6 kB minified: the limit leaves room for rules to come, not for spaces.
    expect(Buffer.byteLength(shipped)).toBeLessThan(0.8 * Buffer.byteLength(source));
  });

  it('defines every --ack-* token that src/styles.css defines', () => {
    const tokens = tokensOf(source);
    expect(tokens.size).toBeGreaterThanOrEqual(40);
    expect(tokensOf(shipped)).toEqual(tokens);
  });

  it('has every .ack- class, selector, at-rule and keyframe step of src/styles.css', () => {
    const classes = classesOf(source);
    expect(classes.size).toBeGreaterThanOrEqual(140);
    expect(classesOf(shipped)).toEqual(classes);
    expect(preludesOf(shipped)).toEqual(preludesOf(source));
  });
});
