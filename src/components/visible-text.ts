/**
 * Untrusted text made safe to read: characters that hide or reorder what a person sees (control,
 * bidi and zero-width characters) become visible `\uXXXX` markers, and JSON is indented without
 * being parsed, so its numbers stay as sent. Internal: not in any barrel.
 */

/** A run of plain text, or one hidden character shown as a marker. */
export type VisibleSegment =
  { kind: 'text'; text: string } | { kind: 'marker'; text: string; title: string };

const characterNames: Readonly<Record<number, string>> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0xad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

/** The name of a character that must be shown as a marker, or undefined for an ordinary one. */
function hiddenCharacterName(code: number): string | undefined {
  const named = characterNames[code];
  if (named !== undefined) return named;
  if (code < 0x20 || (code >= 0x80 && code < 0xa0)) return 'CONTROL CHARACTER';
  if (code >= 0x2061 && code <= 0x2064) return 'INVISIBLE OPERATOR';
  if (code >= 0xd800 && code <= 0xdfff) return 'LONE SURROGATE';
  return undefined;
}

function markerOf(code: number, name: string): VisibleSegment {
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return { kind: 'marker', text: `\\u${hex}`, title: `${name} (U+${hex})` };
}

/** Appends `text` to the segments, merging it into a text segment before it. */
function pushText(segments: VisibleSegment[], text: string) {
  if (text === '') return;
  const last = segments[segments.length - 1];
  if (last?.kind === 'text') last.text += text;
  else segments.push({ kind: 'text', text });
}

/** Whether index holds the high half of a valid surrogate pair. */
function isPairAt(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  const low = text.charCodeAt(index + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/**
 * `text` as segments: every control, bidi and zero-width character (and a lone surrogate) becomes
 * a marker; line breaks and tabs stay when `keepLineBreaks` (plain text), else they are markers too.
 */
export function visibleSegments(
  text: string,
  options: { keepLineBreaks?: boolean } = {},
  segments: VisibleSegment[] = [],
): VisibleSegment[] {
  const keepLineBreaks = options.keepLineBreaks ?? true;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (isPairAt(text, index)) {
      index += 1;
      continue;
    }
    const code = text.charCodeAt(index);
    if (keepLineBreaks && (code === 0x0a || code === 0x09)) continue;
    const name = hiddenCharacterName(code);
    if (name === undefined) continue;
    pushText(segments, text.slice(start, index));
    segments.push(markerOf(code, name));
    start = index + 1;
  }
  pushText(segments, text.slice(start));
  return segments;
}

/** `visibleSegments` flattened to a string (for an announcement or a label). */
export function visibleString(text: string): string {
  return visibleSegments(text)
    .map((segment) => segment.text)
    .join('');
}

const shortEscapes: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** A JSON string's value written back as a quoted JSON string, hidden characters as markers. */
function pushJsonString(segments: VisibleSegment[], value: string) {
  pushText(segments, '"');
  let start = 0;
  for (let index = 0; index < value.length; index += 1) {
    if (isPairAt(value, index)) {
      index += 1;
      continue;
    }
    const char = value[index] as string;
    const escape = shortEscapes[char];
    const name = escape === undefined ? hiddenCharacterName(char.charCodeAt(0)) : undefined;
    if (escape === undefined && name === undefined) continue;
    pushText(segments, value.slice(start, index));
    if (escape !== undefined) pushText(segments, escape);
    else segments.push(markerOf(char.charCodeAt(0), name as string));
    start = index + 1;
  }
  pushText(segments, value.slice(start));
  pushText(segments, '"');
}

const literalPattern = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/;

/**
 * JSON text indented by two spaces per level, as segments, without `JSON.parse` of the whole: a
 * number is copied as written (an integer above 2^53 keeps every digit), a string is decoded and
 * written back with hidden characters as markers. No recursion, so any depth. Text that is not
 * JSON is shown as it is, hidden characters as markers.
 */
export function prettyJsonSegments(text: string): VisibleSegment[] {
  const segments: VisibleSegment[] = [];
  const closers: string[] = [];
  let index = 0;
  let expectValue = true;
  let finished = false;
  const newline = () => pushText(segments, `\n${'  '.repeat(closers.length)}`);
  const skipSpace = () => {
    while (index < text.length && /[ \t\n\r]/.test(text[index] as string)) index += 1;
  };
  const fallback = () => visibleSegments(text);

  while (true) {
    skipSpace();
    if (index >= text.length) break;
    if (finished) return fallback();
    const char = text[index] as string;
    if (char === '{' || char === '[') {
      if (!expectValue) return fallback();
      const closer = char === '{' ? '}' : ']';
      index += 1;
      skipSpace();
      if (text[index] === closer) {
        index += 1;
        pushText(segments, char + closer);
        expectValue = false;
        finished = closers.length === 0;
        continue;
      }
      pushText(segments, char);
      closers.push(closer);
      newline();
      expectValue = true;
      continue;
    }
    if (char === '}' || char === ']') {
      if (expectValue || closers.pop() !== char) return fallback();
      index += 1;
      newline();
      pushText(segments, char);
      finished = closers.length === 0;
      continue;
    }
    if (char === ',') {
      if (expectValue || closers.length === 0) return fallback();
      index += 1;
      pushText(segments, ',');
      newline();
      expectValue = true;
      continue;
    }
    if (char === ':') {
      if (expectValue || closers.at(-1) !== '}') return fallback();
      index += 1;
      pushText(segments, ': ');
      expectValue = true;
      continue;
    }
    if (!expectValue) return fallback();
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) return fallback();
      let value: unknown;
      try {
        value = JSON.parse(text.slice(index, end + 1));
      } catch {
        return fallback();
      }
      pushJsonString(segments, value as string);
      index = end + 1;
    } else {
      const literal = literalPattern.exec(text.slice(index, index + 1000))?.[0];
      if (literal === undefined) return fallback();
      pushText(segments, literal);
      index += literal.length;
    }
    expectValue = false;
    finished = closers.length === 0;
  }
  if (closers.length > 0 || !finished) return fallback();
  return segments;
}
