/**
 * JSON text without recursion: `JSON.stringify` overflows the call stack on a value a few
 * thousand levels deep, which `JSON.parse` makes without complaint from a hostile stream. Internal:
 * not in any barrel.
 */

/** Options of {@link stringifyJson}. */
export interface StringifyJsonOptions {
  /**
   * Spaces per level, as `JSON.stringify`'s third argument; 0 writes everything on one line.
   * @default 0
   */
  indent?: number;
  /**
   * The deepest level that still gets line breaks and indentation: deeper levels are written on
   * one line, so the text of an n-deep value stays O(n) long rather than O(n²).
   * @default Infinity
   */
  maxIndentDepth?: number;
  /** Applied to every string, keys included, before it is quoted (redaction). */
  mapString?: (text: string) => string;
}

/** What {@link stringifyJson} wrote, and how deep the value went (0 for a primitive). */
export interface JsonText {
  text: string;
  depth: number;
}

interface Frame {
  container: object;
  /** The keys of an object; undefined for an array. */
  keys: string[] | undefined;
  index: number;
  depth: number;
  wrote: boolean;
}

/**
 * What `JSON.stringify(value, null, indent)` writes, for any depth, with no recursion: `toJSON`
 * is called, `undefined`, functions and symbols are left out of objects and written `null` in
 * arrays, a non-finite number is `null`. A cycle or a bigint throws a `TypeError`, as there.
 * Undefined when `value` itself has no JSON form (undefined, a function, a symbol).
 */
export function stringifyJson(
  value: unknown,
  options: StringifyJsonOptions = {},
): JsonText | undefined {
  const indent = Math.max(0, Math.min(10, Math.floor(options.indent ?? 0)));
  const maxIndentDepth = options.maxIndentDepth ?? Infinity;
  const mapString = options.mapString;
  const parts: string[] = [];
  const stack: Frame[] = [];
  const ancestors = new Set<object>();
  let deepest = 0;

  const quote = (text: string) => JSON.stringify(mapString === undefined ? text : mapString(text));
  const lineBreak = (depth: number) =>
    indent === 0 || depth > maxIndentDepth
      ? ''
      : `\n${' '.repeat(indent * Math.min(depth, maxIndentDepth))}`;

  /** Writes a primitive, or opens a container and returns its frame. */
  const open = (item: unknown, depth: number): Frame | undefined => {
    if (item === null) {
      parts.push('null');
      return undefined;
    }
    switch (typeof item) {
      case 'string':
        parts.push(quote(item));
        return undefined;
      case 'number':
        parts.push(Number.isFinite(item) ? String(item) : 'null');
        return undefined;
      case 'boolean':
        parts.push(item ? 'true' : 'false');
        return undefined;
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
      case 'object':
        break;
      default:
        parts.push('null');
        return undefined;
    }
    const container = item as object;
    if (ancestors.has(container)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(container);
    if (depth > deepest) deepest = depth;
    if (Array.isArray(container)) {
      parts.push('[');
      return { container, keys: undefined, index: 0, depth, wrote: false };
    }
    parts.push('{');
    return { container, keys: Object.keys(container), index: 0, depth, wrote: false };
  };

  const root = toJsonValue(value, '');
  if (!hasJsonForm(root)) return undefined;
  const first = open(root, 1);
  if (first !== undefined) stack.push(first);

  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    let key: string | undefined;
    let item: unknown;
    let found = false;
    if (frame.keys === undefined) {
      const array = frame.container as unknown[];
      if (frame.index < array.length) {
        item = toJsonValue(array[frame.index], String(frame.index));
        frame.index += 1;
        found = true;
      }
    } else {
      const record = frame.container as Record<string, unknown>;
      while (frame.index < frame.keys.length) {
        const candidate = frame.keys[frame.index] as string;
        frame.index += 1;
        const candidateValue = toJsonValue(record[candidate], candidate);
        if (hasJsonForm(candidateValue)) {
          key = candidate;
          item = candidateValue;
          found = true;
          break;
        }
      }
    }
    if (!found) {
      stack.pop();
      ancestors.delete(frame.container);
      if (frame.wrote && frame.depth <= maxIndentDepth) parts.push(lineBreak(frame.depth - 1));
      parts.push(frame.keys === undefined ? ']' : '}');
      continue;
    }
    if (frame.wrote) parts.push(',');
    frame.wrote = true;
    parts.push(lineBreak(frame.depth));
    if (key !== undefined) {
      parts.push(quote(key), indent === 0 || frame.depth > maxIndentDepth ? ':' : ': ');
    }
    const child = open(item, frame.depth + 1);
    if (child !== undefined) stack.push(child);
  }
  return { text: parts.join(''), depth: deepest };
}

/** The value `JSON.stringify` would write for `value`: its `toJSON()` when it has one. */
function toJsonValue(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as (key: string) => unknown).call(value, key);
  }
  return value;
}

function hasJsonForm(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
