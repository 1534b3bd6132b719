#!/usr/bin/env node
// `npm run generate:docs`: writes the option tables of the guides in docs/ from the JSDoc of the
// public option interfaces, so a table cannot drift from the code. A guide asks for a table with
//
//   <!-- options:RunStreamOptions:start -->
//   <!-- options:RunStreamOptions:end -->
//
// and the script fills the space between with one row per member the interface declares (option,
// type, `@default`, description). Any interface or object type alias exported by a public entry
// can be named, and the props of a compound's part (`AgentThreadRootProps`, declared beside the
// component an entry exports); a new option is a new row on the next run.
// test/option-docs.node.test.ts fails while a guide's table differs from what this writes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import ts from 'typescript';
import { createProgram, publicEntries } from './api-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const markerPattern = /<!-- options:([A-Za-z0-9_$]+):start -->[\s\S]*?<!-- options:\1:end -->/g;

/** The markdown files that may hold option tables: docs/ and its folders. */
export function guidePaths(projectRoot = root) {
  const found = [];
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(relative(projectRoot, path));
    }
  };
  walk(join(projectRoot, 'docs'));
  return found.sort();
}

/** The interface or type alias a symbol (or the symbol it re-exports) declares. */
function typeDeclarationOf(symbol, checker) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return target.declarations?.find(
    (node) => ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node),
  );
}

/**
 * Every interface and type alias the public entries export, by name; then, where no entry names
 * it, one exported by a module an entry exports a component from: the props of a compound's part
 * (`AgentThreadRootProps` of `AgentThread.Root`), which users reach as
 * `ComponentProps<typeof AgentThread.Root>` rather than by a name of its own.
 */
function publicTypeDeclarations(program, projectRoot) {
  const checker = program.getTypeChecker();
  const declarations = new Map();
  const componentModules = new Set();
  for (const { source } of publicEntries(projectRoot)) {
    const sourceFile = program.getSourceFile(join(projectRoot, source));
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const declaration = typeDeclarationOf(exported, checker);
      if (declaration) declarations.set(exported.getName(), declaration);
      const target =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const home = target.valueDeclaration?.getSourceFile();
      if (home && /^[A-Z]/.test(exported.getName())) componentModules.add(home);
    }
  }
  for (const home of componentModules) {
    const moduleSymbol = checker.getSymbolAtLocation(home);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const name = exported.getName();
      const declaration = typeDeclarationOf(exported, checker);
      if (declaration && name.endsWith('Props') && !declarations.has(name)) {
        declarations.set(name, declaration);
      }
    }
  }
  return declarations;
}

/** A JSDoc comment (a string, or text with `{@link}` parts) as markdown on one line. */
function commentText(comment) {
  if (comment === undefined) return '';
  if (typeof comment === 'string') return comment;
  return comment
    .map((part) => {
      if (ts.isJSDocLink(part) || ts.isJSDocLinkCode(part) || ts.isJSDocLinkPlain(part)) {
        const target = part.name ? part.name.getText() : '';
        return `\`${part.text.trim() || target}\``;
      }
      return part.text;
    })
    .join('');
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();
/** A type as one line, without the spaces a formatter leaves inside brackets that it broke. */
const oneLineType = (text) =>
  oneLine(text)
    .replace(/([<(]) /g, '$1')
    .replace(/,? ([>)])/g, '$1');
const cell = (text) => text.replace(/\|/g, '\\|');

/** `@default` text as markdown: a value in code, a remark after it (in parentheses) as words. */
function defaultText(value) {
  const text = oneLine(value);
  if (text === '') return '';
  const remark = /^(.*?)\s+(\(.*\))$/.exec(text);
  const head = remark ? remark[1] : text;
  const tail = remark ? ` ${remark[2]}` : '';
  if (head.includes('`')) return text;
  const looksLikeCode =
    /^[{['"]/.test(head) || /^-?[\d_.]+$/.test(head) || /^[A-Za-z_$][\w$.]*$/.test(head);
  if (!looksLikeCode || /^(a|an|the|one|off|on|none)$/i.test(head)) return text;
  return `\`${head}\`${tail}`;
}

/** The members an interface or an object type alias declares itself, and what it extends. */
function ownMembers(declaration) {
  const source = declaration.getSourceFile();
  if (ts.isInterfaceDeclaration(declaration)) {
    const heritage = (declaration.heritageClauses ?? []).flatMap((clause) =>
      clause.types.map((type) => oneLine(type.getText(source))),
    );
    return { members: [...declaration.members], heritage };
  }
  const parts = ts.isIntersectionTypeNode(declaration.type)
    ? declaration.type.types
    : [declaration.type];
  const members = [];
  const heritage = [];
  for (const part of parts) {
    if (ts.isTypeLiteralNode(part)) members.push(...part.members);
    else heritage.push(oneLine(part.getText(source)));
  }
  return { members, heritage };
}

/** The type of a member as written, without the `| undefined` an optional member implies. */
function memberType(member, source) {
  let text;
  if (ts.isMethodSignature(member)) {
    const parameters = member.parameters.map((parameter) => parameter.getText(source)).join(', ');
    text = `(${parameters}) => ${member.type ? member.type.getText(source) : 'void'}`;
  } else {
    text = member.type ? member.type.getText(source) : 'unknown';
  }
  text = oneLine(text);
  if (member.questionToken) text = text.replace(/^\((.*)\) \| undefined$/, '$1');
  if (member.questionToken) text = text.replace(/ \| undefined$/, '');
  return text;
}

/** The markdown table of one interface's own members. */
function optionTable(name, declaration) {
  const source = declaration.getSourceFile();
  const { members, heritage } = ownMembers(declaration);
  const rows = [];
  for (const member of members) {
    if (!member.name || !(ts.isPropertySignature(member) || ts.isMethodSignature(member))) continue;
    const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
    const doc = docs.at(-1);
    const tags = doc?.tags ?? [];
    const defaultTag = tags.find((tag) => tag.tagName.text === 'default');
    const deprecated = tags.find((tag) => tag.tagName.text === 'deprecated');
    let description = oneLine(commentText(doc?.comment));
    if (deprecated) {
      const why = oneLine(commentText(deprecated.comment));
      description = `**Deprecated**${why ? `: ${why}` : ''}. ${description}`.trim();
    }
    const defaultValue = defaultTag
      ? defaultText(commentText(defaultTag.comment))
      : member.questionToken
        ? '—'
        : 'required';
    const optionName = member.name.getText(source);
    rows.push(
      `| \`${optionName}\` | \`${cell(memberType(member, source))}\` | ${cell(defaultValue)} | ${cell(description)} |`,
    );
  }
  const lines = [
    `<!-- options:${name}:start -->`,
    '',
    `<!-- Written by \`npm run generate:docs\` from the JSDoc of \`${name}\`: edit the JSDoc, not this table. -->`,
    '',
    // Unpadded rows: a new option changes one line, not every row's padding (merges stay clean).
    '<!-- prettier-ignore -->',
    '| option | type | default | description |',
    '| --- | --- | --- | --- |',
    ...rows,
  ];
  if (heritage.length > 0) {
    lines.push(
      '',
      `Also every member of ${heritage.map((type) => `\`${oneLineType(type)}\``).join(', ')}.`,
    );
  }
  lines.push('', `<!-- options:${name}:end -->`);
  return lines.join('\n');
}

/**
 * Every guide with option markers, its text with the tables written in and formatted as Prettier
 * formats it, by path relative to the project root. Throws when a marker names no public type.
 */
export async function generateOptionDocs(projectRoot = root) {
  const guides = guidePaths(projectRoot)
    .map((path) => ({ path, text: readFileSync(join(projectRoot, path), 'utf8') }))
    .filter(({ text }) => text.includes('<!-- options:'));
  const program = createProgram(
    publicEntries(projectRoot).map(({ source }) => source),
    projectRoot,
  );
  const declarations = publicTypeDeclarations(program, projectRoot);
  const written = new Map();
  for (const { path, text } of guides) {
    const missing = [];
    const filled = text.replace(markerPattern, (_whole, name) => {
      const declaration = declarations.get(name);
      if (!declaration) {
        missing.push(name);
        return _whole;
      }
      return optionTable(name, declaration);
    });
    if (missing.length > 0) {
      throw new Error(
        `generate-option-docs: ${path} asks for the options of ${missing.join(', ')}, which no ` +
          'public entry exports as an interface or type (renamed? update the marker).',
      );
    }
    const filePath = join(projectRoot, path);
    const options = (await prettier.resolveConfig(filePath)) ?? {};
    written.set(path, await prettier.format(filled, { ...options, filepath: filePath }));
  }
  return written;
}

/** The names of every table the guides ask for, by guide. */
export function requestedTables(projectRoot = root) {
  const requested = new Map();
  for (const path of guidePaths(projectRoot)) {
    const text = readFileSync(join(projectRoot, path), 'utf8');
    const names = [...text.matchAll(markerPattern)].map((match) => match[1]);
    if (names.length > 0) requested.set(path, names);
  }
  return requested;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, text] of await generateOptionDocs()) {
    const before = readFileSync(join(root, path), 'utf8');
    if (before === text) continue;
    writeFileSync(join(root, path), text);
    console.log(`generate-option-docs: wrote ${path}`);
  }
}
