import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Sizes a person can hold (issue 26, item 8, and the house rules): no hand-written source file
// over 600 lines, no class over 450, and AgentConsole's layout no longer than 300. Generated files
// (`*.generated.ts`) are written by scripts and read by none.
const maxFileLines = 600;
const maxClassLines = 450;
const maxConsoleLayoutLines = 300;
const consoleLayout = 'components/agent-console.tsx';

const srcFolder = fileURLToPath(new URL('../../src/', import.meta.url));

/** The hand-written TypeScript files of src/, as paths under it. */
function handWrittenSources(): string[] {
  return readdirSync(srcFolder, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !/\.generated\.tsx?$/.test(file))
    .sort();
}

/** Lines as `wc -l` and an editor count them: a final newline ends the last line. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Each class of a source (declared or an expression), its name and its lines, first to last. */
function classSpans(fileName: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    false,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const spans: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ name: node.name?.text ?? '(anonymous class)', lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

describe('the measures (the checks are live)', () => {
  it('counts lines as wc -l does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\n\nb\n')).toBe(3);
  });

  it('finds declared, exported, nested and expression classes with their lines', () => {
    const body = Array.from({ length: 500 }, (_, index) => `  field${index} = ${index};`);
    const text = [
      'export class Long {',
      ...body,
      '}',
      'const Short = class {',
      '  method() {',
      '    return class Inner {};',
      '  }',
      '};',
      'export default class {}',
    ].join('\n');

    expect(classSpans('x.ts', text)).toEqual([
      { name: 'Long', lines: 502 },
      { name: '(anonymous class)', lines: 5 },
      { name: 'Inner', lines: 1 },
      { name: '(anonymous class)', lines: 1 },
    ]);
  });

  it('reads TSX', () => {
    const text = 'class View {\n  render() {\n    return <div />;\n  }\n}\n';

    expect(classSpans('x.tsx', text)).toEqual([{ name: 'View', lines: 5 }]);
  });
});

describe('given the hand-written source files of src/', () => {
  const files = handWrittenSources();
  const texts = new Map(files.map((file) => [file, readFileSync(`${srcFolder}${file}`, 'utf8')]));
  // Parsed while the tests are collected, so a busy machine cannot time a test out.
  const classes = files.flatMap((file) =>
    classSpans(file, texts.get(file) ?? '').map((span) => ({ file, ...span })),
  );

  it('finds them (and leaves the generated ones out) and their classes', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(classes.map(({ name }) => name)).toContain('AgentError');
    expect(files).toContain('index.ts');
    expect(files).toContain(consoleLayout);
    expect(files.filter((file) => file.includes('.generated.'))).toEqual([]);
  });

  it(`has no file over ${maxFileLines} lines`, () => {
    const tooLong = files
      .map((file) => ({ file, lines: lineCount(texts.get(file) ?? '') }))
      .filter(({ lines }) => lines > maxFileLines)
      .map(({ file, lines }) => `src/${file}: ${lines} lines`);

    expect(tooLong, `split these by job (at most ${maxFileLines} lines each)`).toEqual([]);
  });

  it(`has no class over ${maxClassLines} lines`, () => {
    const tooLong = classes
      .filter(({ lines }) => lines > maxClassLines)
      .map(({ file, name, lines }) => `src/${file}: class ${name}, ${lines} lines`);

    expect(tooLong, `split these by job (at most ${maxClassLines} lines each)`).toEqual([]);
  });

  it(`keeps AgentConsole's layout (src/${consoleLayout}) within ${maxConsoleLayoutLines} lines`, () => {
    expect(lineCount(texts.get(consoleLayout) ?? '')).toBeLessThanOrEqual(maxConsoleLayoutLines);
  });
});
