import { describe, expect, it } from 'vitest';
import * as entry from 'agent-console-kit';

// One compound idiom: `X` is the assembled component, `X.Root` its bare root, and every part is
// reached through `X` only (`X.Part`): the entry has no second name for a part
// (docs/decisions/0021-public-surface.md). A server component composes the parts in a client
// component of its own, since it cannot dot into a client module.
const compounds = [
  'AgentInputForm',
  'AgentThread',
  'AgentApprovalCard',
  'AgentThreadList',
  'AgentTools',
  'AgentEventLog',
] as const;

describe.each(compounds)('%s', (name) => {
  const assembled = entry[name] as unknown as Record<string, unknown>;
  const parts = Object.keys(assembled).filter((key) => /^[A-Z]/.test(key));

  it('has a Root that is not the assembled component', () => {
    expect(parts).toContain('Root');
    expect(assembled.Root).not.toBe(assembled);
  });

  it.each(parts)('reaches .%s through the compound only, with no long name of its own', (part) => {
    expect(assembled[part]).toBeDefined();
    expect(Object.keys(entry)).not.toContain(`${name}${part}`);
  });
});

it('exports no name that starts with a compound but its component, its props and other components', () => {
  const others = ['AgentThreadComposer', 'AgentThreadList', 'AgentThreadListProps'];
  for (const name of compounds) {
    const longNames = Object.keys(entry).filter(
      (key) =>
        key.startsWith(name) &&
        key !== name &&
        key !== `${name}Props` &&
        !others.some((other) => key.startsWith(other)),
    );
    expect(longNames, name).toEqual([]);
  }
});
