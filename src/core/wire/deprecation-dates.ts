/**
 * The dates of the `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers a legacy response
 * carries, as `Date`s. A header that holds no date (`Deprecation: true` of the older draft, an
 * unreadable value) gives `undefined`; the raw value stays on the notice.
 */

/** `@<epoch seconds>` (RFC 9745), or an HTTP-date as the draft before it sent. */
export function deprecationDateOf(header: string | undefined): Date | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const seconds = /^@(-?\d{1,15})$/.exec(value)?.[1];
  if (seconds !== undefined) return new Date(Number(seconds) * 1000);
  return httpDateOf(value);
}

/** An HTTP-date (RFC 8594), e.g. `Thu, 15 Apr 2027 00:00:00 GMT`. */
export function sunsetDateOf(header: string | undefined): Date | undefined {
  return header === undefined ? undefined : httpDateOf(header.trim());
}

function httpDateOf(value: string): Date | undefined {
  // Only a date with a weekday or month name: Date.parse reads '1' or 'true1' as dates too.
  if (!/[A-Za-z]{3}/.test(value) || !/\d/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time);
}
