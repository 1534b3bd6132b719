/** Redaction of secrets, apart from errors.ts so that the server entry loads it without zod. */

/** Replaces each secret (a token) in `text`; the library's errors never carry one. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  }
  return result;
}
