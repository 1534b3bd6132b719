import { describe, expect, it } from 'vitest';
import * as entry from 'agent-console-kit';

// One compound idiom: `X` is the assembled component, `X.Root` its bare root, and every part is
// reached both as `X.Part` and as the named export `XPart` (server components cannot dot into a
// client module), the same component either way.
const compounds = [
  'AgentInputForm',
  'AgentThread',
  'AgentApprovalCard',
  'AgentThreadList',
  'AgentTools',
] as const;

describe.each(compounds)('%s', (name) => {
  const assembled = entry[name] as unknown as Record<string, unknown>;
  const parts = Object.keys(assembled).filter((key) => /^[A-Z]/.test(key));

  it('has a Root that is not the assembled component', () => {
    expect(parts).toContain('Root');
    expect(assembled.Root).not.toBe(assembled);
  });

  it.each(parts)('exports .%s as its long name too', (part) => {
    const named = (entry as Record<string, unknown>)[`${name}${part}`];
    expect(named).toBeDefined();
    expect(assembled[part]).toBe(named);
  });
});

it('exports no part of a compound that its assembled component lacks', () => {
  for (const name of compounds) {
    const assembled = entry[name] as unknown as Record<string, unknown>;
    const longerCompounds = compounds.filter((other) => other !== name && other.startsWith(name));
    const longNames = Object.keys(entry).filter(
      (key) =>
        key.startsWith(name) &&
        key !== name &&
        !key.startsWith(`${name}Composer`) &&
        !longerCompounds.some((other) => key.startsWith(other)),
    );
    for (const longName of longNames) {
      expect(assembled[longName.slice(name.length)], longName).toBe(
        (entry as Record<string, unknown>)[longName],
      );
    }
  }
});
