import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const coreFolder = fileURLToPath(new URL('../../src/core/', import.meta.url));

// Every relative specifier: `import … from`, `import type … from`, `export … from`, a bare
// `import '../x.js'` and a dynamic `import('../x.js')`. A circle closed by a type-only import is
// still a circle: the type lives in the wrong file.
const relativeSpecifier = /\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Each source file of src/core (a path under it) and the files of src/core it imports. */
function readCoreGraph(): Map<string, string[]> {
  const sources = readdirSync(coreFolder, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => /\.tsx?$/.test(file));
  const graph = new Map<string, string[]>();
  for (const file of sources) {
    const text = readFileSync(`${coreFolder}${file}`, 'utf8');
    const imports = new Set<string>();
    for (const [, specifier] of text.matchAll(relativeSpecifier)) {
      const target = posix
        .normalize(posix.join(posix.dirname(file), specifier ?? ''))
        .replace(/\.js$/, '.ts');
      if (!target.startsWith('../')) imports.add(target);
    }
    graph.set(file, [...imports].sort());
  }
  return graph;
}

/** The strongly connected parts of more than one file (or a file that imports itself): Tarjan. */
function circlesOf(graph: Map<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    lowest.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file) ?? 0, lowest.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const part: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      part.push(member);
      if (member === file) break;
    }
    if (part.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(part.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.sort((left, right) => (left[0] ?? '').localeCompare(right[0] ?? ''));
}

describe('given the source files of src/core', () => {
  it('reads their imports (type-only and dynamic ones included)', () => {
    const graph = readCoreGraph();

    expect(graph.size).toBeGreaterThan(10);
    expect(graph.get('stream/run-stream.ts')).toContain('stream/run-types.ts');
    expect(graph.get('wire/client-wire.ts')).toContain('wire/wire-explain.ts');
  });

  it('finds a circle when there is one (the check is live)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);

    expect(circlesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('has no import circle: every file imports only files below it', () => {
    expect(circlesOf(readCoreGraph())).toEqual([]);
  });
});

// The wings of src/core, lowest first (docs/architecture.md): a wing imports only the wings before
// it in this list, and itself. index.ts, the barrel, sits above them all.
const wings = ['base', 'wire', 'stream', 'storage', 'durable', 'conversation', 'console'];

/** Each import that points up the wings: `from → to`. */
function importsAgainstTheWings(graph: Map<string, readonly string[]>): string[] {
  const wingOf = (file: string) => wings.indexOf(file.split('/')[0] ?? '');
  return [...graph]
    .filter(([file]) => file.includes('/'))
    .flatMap(([file, targets]) =>
      targets
        .filter((target) => wingOf(target) > wingOf(file))
        .map((target) => `${file} → ${target}`),
    );
}

describe('given the wings of src/core', () => {
  it('puts every source file but the barrel in a known wing', () => {
    const outside = [...readCoreGraph().keys()].filter(
      (file) => file !== 'index.ts' && !wings.includes(file.split('/')[0] ?? ''),
    );

    expect(outside).toEqual([]);
  });

  it('finds an import against the wings when there is one (the check is live)', () => {
    const graph = new Map([
      ['wire/a.ts', ['console/b.ts']],
      ['console/b.ts', ['wire/a.ts']],
    ]);

    expect(importsAgainstTheWings(graph)).toEqual(['wire/a.ts → console/b.ts']);
  });

  it('has every import point down the wings (or within one)', () => {
    expect(importsAgainstTheWings(readCoreGraph())).toEqual([]);
  });
});

// A module another loads by `import()` is not on the page: no static import of a client entry
// reaches it, so a bundler puts it in a chunk of its own, loaded on its first use. What it imports
// that the page has already is the page's module, loaded once (docs/decisions/0017-no-lazy-copies.md).
const sourceFolder = fileURLToPath(new URL('../../src/', import.meta.url));
const valueSpecifier = /^(?:import|export)\s+(?!type\b)[^;]*?from\s*['"]([^'"]+)['"]/gm;

/** The source file (under src/) that `specifier` in `file` names. */
function sourceOf(file: string, specifier: string): string {
  const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '');
  return existsSync(`${sourceFolder}${target}.tsx`) ? `${target}.tsx` : `${target}.ts`;
}

function relativeValueImportsOf(file: string): string[] {
  const text = readFileSync(`${sourceFolder}${file}`, 'utf8');
  return [...text.matchAll(valueSpecifier)]
    .map(([, specifier]) => specifier ?? '')
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => sourceOf(file, specifier));
}

/** The files of src/ a page reaches by static value imports from the client entries. */
function pageFiles(): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const target of relativeValueImportsOf(file)) visit(target);
  };
  visit('index.ts');
  visit('console.ts');
  return reached;
}

/** Each module of src/core that another loads by `import()`. */
function loadedOnDemand(): string[] {
  const coreFiles = readdirSync(`${sourceFolder}core`, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split('\\').join('/'))
    .filter((name) => name.endsWith('.ts'));
  return coreFiles.flatMap((name) =>
    [
      ...readFileSync(`${sourceFolder}core/${name}`, 'utf8').matchAll(
        /import\(\s*'(\.[^']+)'\s*\)/g,
      ),
    ].map(([, specifier = '']) => sourceOf(`core/${name}`, specifier)),
  );
}

describe('given the modules of src/core loaded on demand', () => {
  it("finds them all: the durable wire and turn, the explanation of a refusal, the check of tools, the version tree and the check of its stored form, a durable console's thread store", () => {
    expect(new Set(loadedOnDemand())).toEqual(
      new Set([
        'core/wire/durable-run-wire.ts',
        'core/conversation/conversation-durable-turn.ts',
        'core/console/console-thread-store.ts',
        'core/wire/wire-explain.ts',
        'core/wire/agent-tools-wire.ts',
        'core/conversation/message-versions.ts',
        'core/storage/thread-versions.ts',
      ]),
    );
  });

  it.each(loadedOnDemand())('keeps %s off the page, which its loader is on', (file) => {
    const page = pageFiles();

    expect(page.has('core/wire/agent-client.ts')).toBe(true);
    expect(page.has(file)).toBe(false);
  });
});
