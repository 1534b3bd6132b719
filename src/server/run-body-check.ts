/**
 * The check of a legacy run body under `allowAgents`: the one agent it names, read from the text
 * itself so that the body is forwarded byte for byte (a number `JSON.parse` would round, `1e400`,
 * `-0`, spacing and escapes stay as the browser sent them). What parsers could read differently
 * is refused: a duplicate `agent_id` (`JSON.parse` keeps the last, others the first), a key that
 * differs only in case (Go's decoder matches those), bytes that are not UTF-8, nesting deeper
 * than Go's decoder accepts.
 */
import { isSafeId } from './proxy-routes.js';

/** How deep a checked body may nest: Go's `encoding/json` refuses deeper. */
export const maxRunBodyDepth = 10_000;

/** The agent a body names, or why it is refused (`400` either way). */
export type RunBodyCheck = { agentId: string } | { refused: string };

export function checkRunBody(body: Uint8Array): RunBodyCheck {
  const noAgent = { refused: 'The body names no single valid agent_id.' };
  let text: string;
  let parsed: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    parsed = JSON.parse(text);
  } catch {
    return noAgent;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return noAgent;
  const outline = outlineOf(text);
  if (outline.depth > maxRunBodyDepth) {
    return { refused: `The body nests deeper than ${maxRunBodyDepth} levels.` };
  }
  const agentKeys = outline.keys.filter((key) => key.toLowerCase() === 'agent_id');
  const agentId: unknown = (parsed as Record<string, unknown>)['agent_id'];
  if (agentKeys.length !== 1 || typeof agentId !== 'string' || !isSafeId(agentId)) return noAgent;
  return { agentId };
}

/**
 * The keys of the top-level object of valid JSON text, decoded and in order (duplicates kept),
 * and how deep it nests; one pass, no recursion.
 */
export function outlineOf(text: string): { keys: string[]; depth: number } {
  const keys: string[] = [];
  let depth = 0;
  let deepest = 0;
  // The last character outside a string that is not white space.
  let previous = '';
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      let end = index + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (depth === 1 && (previous === '{' || previous === ',')) {
        keys.push(JSON.parse(text.slice(index, end + 1)) as string);
      }
      index = end;
      previous = '"';
    } else if (character === '{' || character === '[') {
      depth += 1;
      deepest = Math.max(deepest, depth);
      previous = character;
    } else if (character === '}' || character === ']') {
      depth -= 1;
      previous = character;
    } else if (
      character !== ' ' &&
      character !== '\t' &&
      character !== '\n' &&
      character !== '\r'
    ) {
      previous = character ?? '';
    }
  }
  return { keys, depth: deepest };
}
