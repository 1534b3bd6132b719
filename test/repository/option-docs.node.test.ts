import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateOptionDocs, requestedTables } from '../../scripts/generate-option-docs.mjs';

const howToFix =
  'An option table in docs/ differs from the JSDoc it is written from: edit the JSDoc (not the ' +
  'table), run `npm run generate:docs` and commit the guides it changed.';

/** The public option interfaces a user reads first: each must have its table in a guide. */
const required = [
  'AgentClientOptions',
  'RunStreamOptions',
  'RunStreamReconnectOptions',
  'UseAgentRunStreamOptions',
  'AgentConversationOptions',
  'UseAgentConversationOptions',
  'AgentConsoleProps',
];

describe('given the option tables of the guides in docs/', async () => {
  const generated = await generateOptionDocs();

  it.each([...generated.keys()])('match the JSDoc of today: %s', (guide) => {
    const committed = readFileSync(new URL(`../../${guide}`, import.meta.url), 'utf8');
    expect(committed, howToFix).toBe(generated.get(guide));
  });

  it('have a table for every main option interface', () => {
    const tables = [...requestedTables().values()].flat();
    expect(tables).toEqual(expect.arrayContaining(required));
  });

  it('describe every option they list', () => {
    const undocumented = [...generated.values()].flatMap((text) =>
      text.split('\n').filter((line) => /^\| `[^`]+` \|.*\| {2}\|$/.test(line)),
    );
    expect(undocumented, 'options without a JSDoc description').toEqual([]);
  });
});
