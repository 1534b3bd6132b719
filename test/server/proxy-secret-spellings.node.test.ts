/**
 * The spellings of a secret the proxy finds and replaces (src/server/secret-spellings.ts), one by
 * one: each is what a browser or a page's script decodes back into the secret.
 */
import { describe, expect, it } from 'vitest';
import { secretSpellings } from '../../src/server/secret-spellings.js';

const secret = 'jürgen+ops@acme.example/7';
const spellings = secretSpellings([secret, 'abc'])!;

const spelled: [string, string][] = [
  ['as written', secret],
  ['JSON \\u escapes, upper-case hex', 'j\\u00FCrgen\\u002Bops@acme.example\\/7'],
  ['URL encoding of UTF-8', 'j%C3%BCrgen%2Bops%40acme.example%2F7'],
  ['URL encoding, lower-case hex', 'j%c3%bcrgen%2bops%40acme%2eexample/7'],
  ['decimal references, leading zeros', 'j&#252;rgen&#0043;ops&#64;acme.example/7'],
  ['hexadecimal references', 'j&#xfc;rgen&#X2B;ops&#x40;acme.example&#x2f;7'],
  ['named references', 'j&uuml;rgen&plus;ops&commat;acme&period;example&sol;7'],
  ['a legacy name without ;', 'j&uumlrgen+ops@acme.example/7'],
  ['mixed, character by character', 'j\\u00fc%72&#x67;en&plus;ops%40acme.example\\/7'],
];

describe('given a secret spelled as a browser decodes it back', () => {
  it.each(spelled)('finds and replaces it %s', (_label, text) => {
    const around = `before ${text} after`;

    expect(spellings.spells(around)).toBe(true);
    expect(spellings.redact(around)).toBe('before [redacted] after');
  });

  it('sees a nested spelling (a reference in a JSON escape) without replacing it in place', () => {
    const nested = 'j\\u0026uuml;rgen+ops@acme.example/7';

    expect(spellings.spells(nested)).toBe(true);
    expect(spellings.spells(spellings.redact(nested))).toBe(true);
  });

  it('leaves a text without the secret as it is, a secret under 4 characters included', () => {
    const text = 'jürgen ops at acme.example, abc, &amp; %41 \\u0041';

    expect(spellings.spells(text)).toBe(false);
    expect(spellings.redact(text)).toBe(text);
  });

  it('finds nothing to look for without a secret of 4 characters or more', () => {
    expect(secretSpellings(['abc', ''])).toBeUndefined();
  });
});
