#!/usr/bin/env node
// Writes src/server/html-references.generated.ts: the HTML named character references that decode
// to one character up to U+00FF (every character an HTTP header value, hence a secret the proxy
// adds, can hold), each with the names a browser decodes to it, and which of those names a
// browser also decodes without the closing `;` (the legacy ones). From the WHATWG list as the
// `character-entities` and `character-entities-legacy` packages hold it.
// test/server/proxy-html-references.node.test.ts fails when the file differs from what this script would
// write now: run `node scripts/generate-html-references.mjs`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { characterEntities } from 'character-entities';
import { characterEntitiesLegacy } from 'character-entities-legacy';

export function htmlReferencesSource() {
  const byCharacter = new Map();
  for (const [name, value] of Object.entries(characterEntities).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    if (value.length !== 1 || value.charCodeAt(0) > 0xff) continue;
    byCharacter.set(value, [...(byCharacter.get(value) ?? []), name]);
  }
  const rows = [...byCharacter]
    .sort(([a], [b]) => a.charCodeAt(0) - b.charCodeAt(0))
    .map(
      ([character, names]) =>
        `  [${JSON.stringify(character).replace(/[\u0080-\u00ff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}, ${JSON.stringify(names.join(' '))}],`,
    );
  const legacy = [...characterEntitiesLegacy].sort();
  return [
    '// Written by scripts/generate-html-references.mjs: do not edit.',
    '',
    '/** Each character up to U+00FF that has named references, and their names (space-separated). */',
    'export const namedReferences: readonly (readonly [character: string, names: string])[] = [',
    ...rows,
    '];',
    '',
    '/** The names a browser also decodes without their closing `;`. */',
    `export const legacyReferenceNames: ReadonlySet<string> = new Set(${JSON.stringify(legacy.join(' '))}.split(' '));`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = new URL('../src/server/html-references.generated.ts', import.meta.url);
  writeFileSync(target, htmlReferencesSource());
}
