/**
 * A service answer read whole (everything but an event stream), with the proxy's secrets removed
 * in every spelling a browser decodes back (see secret-spellings.ts): read in the charset it
 * declares (a BOM first, as a browser does), redacted as JSON when it is JSON, line by line when
 * it is NDJSON or text, and refused when it cannot be read or a secret stays in it.
 */
import { concatBytes } from '../core/base/bytes.js';
import { stringifyJson } from '../core/base/json-text.js';
import { redactedText, type SecretSpellings } from './secret-spellings.js';

/** A body read whole, or why it was not. */
export type WholeBody = Uint8Array<ArrayBuffer> | 'too-large';

/** Reads a body whole, at most `limit` bytes: past it, the rest is cancelled, not read. */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<WholeBody> {
  if (body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/** A whole answer as the browser gets it, or the reason it is refused. */
export type RedactedAnswer =
  { body: Uint8Array<ArrayBuffer>; contentType: string | null } | { refused: string };

/**
 * The answer with every secret removed. Unchanged (the same bytes) when it holds none and is
 * UTF-8; text in another charset is answered in UTF-8 (`charset=utf-8`), so that what the
 * browser decodes is what was checked.
 */
export function redactWholeAnswer(
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string | null,
  spellings: SecretSpellings,
): RedactedAnswer {
  if (bytes.length === 0) return { body: bytes, contentType };
  if (!isTextType(contentType)) {
    return { refused: 'The agent service answered with a body the proxy cannot read.' };
  }
  const decoded = decodeText(bytes, contentType);
  if (decoded === undefined) {
    return { refused: 'The agent service answered in a charset the proxy cannot read.' };
  }
  const redacted = redactJsonOrText(decoded.text, spellings);
  if (redacted === undefined) {
    return { refused: 'The agent service answered with a secret the proxy cannot remove.' };
  }
  if (redacted === decoded.text && !decoded.transcoded) return { body: bytes, contentType };
  return {
    body: new TextEncoder().encode(redacted),
    contentType: decoded.transcoded ? withUtf8Charset(contentType) : contentType,
  };
}

/**
 * Text with every secret removed: one JSON value (its strings redacted, written anew only when an
 * escape hides a secret), else line by line (an NDJSON line as JSON, any other as text).
 * Undefined when a secret is still spelled in it (nested spellings).
 */
export function redactJsonOrText(text: string, spellings: SecretSpellings): string | undefined {
  if (!spellings.spells(text)) return text;
  const whole = redactJson(text, spellings);
  if (whole !== undefined && !spellings.spells(whole)) return whole;
  const parts = text.split(/(\r\n|\r|\n)/);
  const redacted = parts
    .map((part, index) =>
      index % 2 === 1 || !spellings.spells(part)
        ? part
        : (redactJson(part, spellings) ?? spellings.redact(part)),
    )
    .join('');
  return spellings.spells(redacted) ? undefined : redacted;
}

/**
 * JSON text with its strings (keys included) redacted: in place when that leaves it JSON with no
 * string spelling a secret (numbers and spacing unchanged), else parsed and written anew, a string
 * that still spells one replaced whole. Undefined when the text is not JSON.
 */
function redactJson(text: string, spellings: SecretSpellings): string | undefined {
  const inPlace = spellings.redact(text);
  const checked = parseJson(inPlace);
  if (checked.ok && !stringsSpell(checked.value, spellings)) return inPlace;
  const parsed = parseJson(text);
  if (!parsed.ok) return undefined;
  return stringifyJson(parsed.value, {
    mapString: (each) => {
      const redacted = spellings.redact(each);
      return spellings.spells(redacted) ? redactedText : redacted;
    },
  })?.text;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Whether a string of a parsed JSON value (keys included) spells a secret; no recursion. */
function stringsSpell(value: unknown, spellings: SecretSpellings): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (spellings.spells(item)) return true;
    } else if (Array.isArray(item)) {
      for (const entry of item) pending.push(entry);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, entry] of Object.entries(item)) pending.push(key, entry);
    }
  }
  return false;
}

/**
 * The types the proxy reads as text: text, JSON, NDJSON, XML, form data and JavaScript; an answer
 * without a type is read as text too (a browser sniffs it).
 */
function isTextType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return (
    type === '' ||
    type.startsWith('text/') ||
    /^application\/(?:json|x-ndjson|ndjson|jsonl|x-jsonlines|json-seq|xml|javascript|ecmascript|x-www-form-urlencoded)$/.test(
      type,
    ) ||
    /^application\/[\w.-]+\+(?:json|xml)$/.test(type)
  );
}

/** The text a browser decodes: a BOM's encoding, else the declared charset, else UTF-8. */
function decodeText(
  bytes: Uint8Array,
  contentType: string | null,
): { text: string; transcoded: boolean } | undefined {
  const bom =
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
      ? 'utf-8'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : bytes[0] === 0xff && bytes[1] === 0xfe
          ? 'utf-16le'
          : undefined;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(bom ?? charset ?? 'utf-8');
  } catch {
    return undefined;
  }
  return { text: decoder.decode(bytes), transcoded: decoder.encoding !== 'utf-8' };
}

function withUtf8Charset(contentType: string | null): string {
  if (contentType === null || contentType.trim() === '') return 'text/plain; charset=utf-8';
  return `${contentType.replace(/;\s*charset\s*=\s*("[^"]*"|[^;]*)/gi, '')}; charset=utf-8`;
}
