/**
 * The secrets of a request (the token and the values of secret headers) and their removal from
 * every text the library makes of what a server sent back. Internal: not in any barrel.
 */
import { stringifyJson } from '../base/json-text.js';

/**
 * The headers whose values are secrets whatever the app says (lower case): `Authorization`,
 * `Proxy-Authorization`, `Cookie` and `X-Glean-ActAs` (the person a token acts as).
 */
export const defaultSecretHeaders: readonly string[] = Object.freeze([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-glean-actas',
]);

/**
 * Secrets shorter than this are not redacted: replacing every `abc` of a text would garble it,
 * and a value that short protects nothing.
 */
export const minimumSecretLength = 4;

const replacement = '[redacted]';

/**
 * The secrets among `headers`: the whole value of each secret header, and its parts that a server
 * may echo alone (the credentials after an `Authorization` scheme, each value of a `Cookie`).
 */
export function secretsOfHeaders(
  headers: Readonly<Record<string, string>>,
  secretHeaderNames: ReadonlySet<string>,
): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!secretHeaderNames.has(lower)) continue;
    secrets.push(value);
    const space = value.indexOf(' ');
    if (lower.endsWith('authorization') && space !== -1)
      secrets.push(value.slice(space + 1).trim());
    if (lower === 'cookie') {
      for (const pair of value.split(';')) {
        const equals = pair.indexOf('=');
        if (equals !== -1) secrets.push(pair.slice(equals + 1).trim());
      }
    }
  }
  return secrets;
}

/**
 * The texts to look for: each secret long enough, as written and as a JSON string writes it (a
 * secret with a quote, a backslash or a control character is escaped there), longest first so
 * that a secret inside another one never leaves part of the longer one behind.
 */
function forms(secrets: readonly string[]): readonly string[] {
  const cached = formsCache.get(secrets);
  if (cached !== undefined) return cached;
  const result = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < minimumSecretLength) continue;
    result.add(secret);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) result.add(escaped);
  }
  const sorted = [...result].sort((left, right) => right.length - left.length);
  formsCache.set(secrets, sorted);
  return sorted;
}

/** A run asks for the forms of the same list on every event. */
const formsCache = new WeakMap<readonly string[], readonly string[]>();

/** The secrets long enough to be redacted, as written. */
function redactable(secrets: readonly string[]): string[] {
  return secrets.filter((secret) => secret.length >= minimumSecretLength);
}

/** `text` with every secret (as written, or escaped as in a JSON string) replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  let result = text;
  for (const form of forms(secrets)) {
    if (result.includes(form)) result = result.split(form).join(replacement);
  }
  return result;
}

/**
 * Whether JSON text may hold a secret that {@link redactText} cannot see: a `\u` or `\/` escape
 * can spell any character of it (a Go server writes `<` as `\u003c`, PHP `/` as `\/`).
 */
function mayHideSecret(text: string): boolean {
  return text.includes('\\u') || text.includes('\\/');
}

/** Whether any string of a parsed JSON value (keys included) holds a secret; no recursion. */
function holdsSecret(value: unknown, secretForms: readonly string[]): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (secretForms.some((form) => item.includes(form))) return true;
    } else if (Array.isArray(item)) {
      for (const entry of item) pending.push(entry);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, entry] of Object.entries(item)) {
        pending.push(key, entry);
      }
    }
  }
  return false;
}

/**
 * JSON text with every secret removed, its parsed form included: secrets as written are replaced
 * in the text; when an escape could spell one, the text is parsed and, when a string of it holds a
 * secret, written anew from the parsed value with the secret replaced. Text that is not JSON is
 * only replaced as written.
 */
export function redactJsonText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const replaced = redactText(text, secrets);
  if (!mayHideSecret(replaced)) return replaced;
  let parsed: unknown;
  try {
    parsed = JSON.parse(replaced);
  } catch {
    return replaced;
  }
  if (!holdsSecret(parsed, redactable(secrets))) return replaced;
  return (
    stringifyJson(parsed, { mapString: (each) => redactText(each, secrets) })?.text ?? replaced
  );
}

/** A parsed JSON value (or text) with every secret replaced; the same value when none is in it. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redactText(value, secrets);
  const raw = redactable(secrets);
  if (raw.length === 0 || !holdsSecret(value, raw)) return value;
  const text = stringifyJson(value, { mapString: (each) => redactText(each, secrets) })?.text;
  return text === undefined ? value : (JSON.parse(text) as unknown);
}

/**
 * An error (and its `cause` chain) as it may be shown: when a message or a stack holds a secret,
 * a copy of the same class whose texts are redacted (its `code` and `name` kept); else the error
 * itself. `fetch` names a header value it refuses in its message, for one.
 */
export function redactError(error: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0 || !(error instanceof Error)) return error;
  return redactErrorChain(error, secrets, new Set());
}

function redactErrorChain(error: Error, secrets: readonly string[], seen: Set<Error>): Error {
  if (seen.has(error)) return error;
  seen.add(error);
  const cause: unknown = error.cause;
  const redactedCause =
    cause instanceof Error
      ? redactErrorChain(cause, secrets, seen)
      : typeof cause === 'string'
        ? redactText(cause, secrets)
        : cause;
  const message = redactText(error.message, secrets);
  const stack = error.stack === undefined ? undefined : redactText(error.stack, secrets);
  if (message === error.message && stack === error.stack && redactedCause === cause) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  const code = (error as Error & { code?: unknown }).code;
  Object.defineProperties(copy, {
    name: { value: error.name, writable: true, configurable: true },
    message: { value: message, writable: true, configurable: true },
    stack: { value: stack, writable: true, configurable: true },
    ...(cause === undefined
      ? {}
      : { cause: { value: redactedCause, writable: true, configurable: true } }),
    ...(code === undefined
      ? {}
      : { code: { value: code, writable: true, configurable: true, enumerable: true } }),
  });
  return copy;
}

/**
 * A server-sent frame with every secret removed from its ids, its name and its data (see
 * {@link redactJsonText}); the same object when none is in it.
 */
export function redactFrame<
  Frame extends {
    id?: string | undefined;
    lastEventId?: string | undefined;
    event: string;
    data: string;
  },
>(frame: Frame, secrets: readonly string[]): Frame {
  if (secrets.length === 0) return frame;
  const data = redactJsonText(frame.data, secrets);
  const event = redactText(frame.event, secrets);
  const id = frame.id === undefined ? undefined : redactText(frame.id, secrets);
  const lastEventId =
    frame.lastEventId === undefined ? undefined : redactText(frame.lastEventId, secrets);
  if (
    data === frame.data &&
    event === frame.event &&
    id === frame.id &&
    lastEventId === frame.lastEventId
  ) {
    return frame;
  }
  return { ...frame, id, lastEventId, event, data };
}
