/** What the tests of the stylesheet read of it. */

/** `css` without its comments. */
export const withoutComments = (css: string): string => css.replace(/\/\*[\s\S]*?\*\//g, '');

/** Each `--ack-*` custom property `css` declares, with its value, in order (comments skipped). */
export function tokenDeclarations(css: string): { name: string; value: string }[] {
  return [...withoutComments(css).matchAll(/(--ack-[a-z0-9-]+)\s*:\s*([^;}]+)[;}]/g)].map(
    (match) => ({ name: match[1] ?? '', value: (match[2] ?? '').trim() }),
  );
}
