/**
 * The spellings of a secret that a browser, or a page's script, decodes back into it: as written,
 * JSON string escapes (`\u0073`, `\/`), URL encoding (`%73`, `+` for a space) and HTML character
 * references (`&#115;`, `&#x73;`, `&period;`), mixed character by character. A nested spelling
 * (a reference inside a JSON escape) is seen, for a refusal, but not replaced in place.
 */
import { minimumSecretLength } from '../core/wire/secrets.js';
import { legacyReferenceNames, namedReferences } from './html-references.generated.js';

/** What replaces a secret in an answer. */
export const redactedText = '[redacted]';

/** The secrets of one request, found and replaced in any of their spellings. */
export interface SecretSpellings {
  /** `text` with every spelling of a secret that this module replaces in place replaced. */
  redact(text: string): string;
  /** Whether `text` still spells a secret, nested spellings included. */
  spells(text: string): boolean;
}

const namesOf = new Map(namedReferences.map(([character, names]) => [character, names.split(' ')]));

/** The spellings of the secrets of one request, or undefined when none is long enough to redact. */
export function secretSpellings(secrets: readonly string[]): SecretSpellings | undefined {
  const patterns = [...new Set(secrets)]
    .filter((secret) => secret.length >= minimumSecretLength)
    .sort((left, right) => right.length - left.length)
    .map((secret) => [...secret].map(characterPattern).join(''));
  if (patterns.length === 0) return undefined;
  const source = patterns.map((pattern) => `(?:${pattern})`).join('|');
  const everywhere = new RegExp(source, 'g');
  const anywhere = new RegExp(source);
  return {
    redact: (text) => text.replace(everywhere, redactedText),
    spells: (text) =>
      anywhere.test(text) || (text.includes('\\') && anywhere.test(unescapeJsonText(text))),
  };
}

/** Every spelling of one character, as a regular expression (a non-capturing group). */
function characterPattern(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const spellings = [escapeRegExp(character)];
  // JSON: a \u escape (a surrogate pair above U+FFFF) and the short escapes.
  const units =
    code > 0xffff ? [character.charCodeAt(0), character.charCodeAt(1)] : [character.charCodeAt(0)];
  spellings.push(units.map((unit) => `\\\\u${hexAnyCase(unit, 4)}`).join(''));
  const short = shortEscapes.get(character);
  if (short !== undefined) spellings.push(escapeRegExp(short));
  // URL: each UTF-8 byte percent-encoded; a space also as `+` (a form's encoding).
  spellings.push(
    [...new TextEncoder().encode(character)].map((byte) => `%${hexAnyCase(byte, 2)}`).join(''),
  );
  if (character === ' ') spellings.push('\\+');
  // HTML: decimal and hexadecimal references (leading zeros, `;` optional), and the names.
  spellings.push(`&#0*${code};?`, `&#[xX]0*${hexAnyCase(code, 1)};?`);
  for (const name of namesOf.get(character) ?? []) {
    spellings.push(`&${name}${legacyReferenceNames.has(name) ? ';?' : ';'}`);
  }
  return `(?:${spellings.join('|')})`;
}

const shortEscapes = new Map([
  ['"', '\\"'],
  ['\\', '\\\\'],
  ['/', '\\/'],
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

/** `value` in hexadecimal, each letter matching either case, at least `width` digits. */
function hexAnyCase(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

const shortValues = new Map([...shortEscapes].map(([character, escape]) => [escape[1], character]));

/** JSON text with its string escapes decoded, wherever they are (a lenient view, not a parse). */
function unescapeJsonText(text: string): string {
  return text.replace(
    /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g,
    (match, hex?: string, short?: string) =>
      hex !== undefined
        ? String.fromCharCode(Number.parseInt(hex, 16))
        : (shortValues.get(short ?? '') ?? match),
  );
}
