import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const guides = readdirSync(new URL('../../docs/', import.meta.url)).filter((name) =>
  name.endsWith('.md'),
);

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe.each(guides)('docs/%s', (name) => {
  const text = read(`docs/${name}`);
  const sections = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1] ?? '');

  it('opens with a table of contents that links every section', () => {
    const firstSection = text.indexOf('\n## ');
    const head = firstSection === -1 ? text : text.slice(0, firstSection);
    for (const section of sections) {
      expect(head, section).toContain(`(#${anchorOf(section)})`);
    }
  });

  it('is linked from the README and from Storybook’s getting-started page', () => {
    expect(read('README.md')).toContain(`(docs/${name})`);
    expect(read('stories/getting-started.mdx')).toContain(`/docs/${name})`);
  });
});

describe('the README', () => {
  const readme = read('README.md');

  it('is a way in: about 200 lines, an install line, the console, a run hook and a conversation', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toMatch(/^npm install agent-console-kit/m);
    for (const example of ['<AgentConsole', 'useAgentRunStream(', 'useAgentConversation(']) {
      expect(readme).toContain(example);
    }
  });

  it('keeps its changelog to renames and removals and links the whole one', () => {
    expect(readme).toContain('(CHANGELOG.md)');
    expect(read('CHANGELOG.md')).toMatch(/^# Changelog/);
  });
});

describe('Storybook’s getting-started page', () => {
  const page = read('stories/getting-started.mdx');
  const stories = read('stories/agent-console.stories.tsx');
  /** A story's export as Storybook names it in the sidebar ("With event log": WithEventLog). */
  const exportOf = (name: string) =>
    name
      .split(' ')
      .map((word) => `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`)
      .join('');
  /** The args of a story of stories/agent-console.stories.tsx: its text up to the next story. */
  const storyText = (name: string) => {
    const start = stories.indexOf(`export const ${exportOf(name)}: `);
    if (start === -1) return undefined;
    const next = stories.indexOf('\nexport const ', start + 1);
    return stories.slice(start, next === -1 ? undefined : next);
  };
  const steps = (page.split('## Open this first')[1] ?? '')
    .split('\n## ')[0]
    ?.split(/\n(?=\d+\. )/)
    .filter((step) => /^\d+\. /.test(step));

  it('opens the AgentConsole stories it names, and shows the event log where it says so', () => {
    expect(steps?.length).toBeGreaterThanOrEqual(4);
    for (const step of steps ?? []) {
      const named = [...step.matchAll(/\*\*Console \/ AgentConsole \/ ([^*]+)\*\*/g)].map(
        (match) => match[1] ?? '',
      );
      for (const name of named) expect(storyText(name), name).toBeDefined();
      // A step that speaks of the log names only stories that show it (`showEventLog: true`).
      if (/\blog\b/.test(step) && named.length > 0) {
        for (const name of named) expect(storyText(name), name).toContain('showEventLog: true');
      }
    }
  });
});
