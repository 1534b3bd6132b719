#!/usr/bin/env node
// `npm run api:report`: writes api/<entry>.api.md, every name each public entry exports with its
// kind and its type signature, so a change to the public surface shows in review as a change to
// those files. test/api-report.node.test.ts fails while a committed report differs from this.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The public entries (package.json `exports`) and their sources; `./server` once it exists. */
const candidateEntries = [
  { entry: '.', source: 'src/index.ts', report: 'api/index.api.md' },
  { entry: './console', source: 'src/console.ts', report: 'api/console.api.md' },
  { entry: './core', source: 'src/core/index.ts', report: 'api/core.api.md' },
  { entry: './testing', source: 'src/testing/index.ts', report: 'api/testing.api.md' },
  { entry: './testing/msw', source: 'src/testing/msw.ts', report: 'api/testing-msw.api.md' },
  { entry: './markdown', source: 'src/markdown/index.ts', report: 'api/markdown.api.md' },
  { entry: './server', source: 'src/server/index.ts', report: 'api/server.api.md' },
];

/** The entries whose source exists, in the order above. */
export function publicEntries(projectRoot = root) {
  return candidateEntries.filter(({ source }) => existsSync(join(projectRoot, source)));
}

const typeFormat =
  ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** A program over the given entry sources, with the project's compiler options. */
export function createProgram(sources, projectRoot = root) {
  const configPath = join(projectRoot, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error)
    throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, projectRoot);
  return ts.createProgram({
    rootNames: sources.map((source) => join(projectRoot, source)),
    options: { ...parsed.options, noEmit: true },
  });
}

/** Absolute paths never reach a report: `import("/abs/src/x")` becomes `import("src/x")`. */
function withoutAbsolutePaths(text, projectRoot) {
  return text.replace(/import\("([^"]+)"\)/g, (_match, path) => {
    const relativePath = path.startsWith('/') ? relative(projectRoot, path) : path;
    const portable = relativePath.split(sep).join('/');
    const fromNodeModules = portable.lastIndexOf('node_modules/');
    return `import("${fromNodeModules >= 0 ? portable.slice(fromNodeModules + 13) : portable}")`;
  });
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

function isPrivateMember(member) {
  if (member.name && ts.isPrivateIdentifier(member.name)) return true;
  const flags = ts.getCombinedModifierFlags(member);
  return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
}

function modifiersText(member) {
  const flags = ts.getCombinedModifierFlags(member);
  return `${flags & ts.ModifierFlags.Static ? 'static ' : ''}${
    flags & ts.ModifierFlags.Readonly ? 'readonly ' : ''
  }`;
}

/** A class as a declaration: its heritage, constructor and public members with their types. */
function classText(name, declaration, checker) {
  const source = declaration.getSourceFile();
  const typeParameters = declaration.typeParameters
    ? `<${declaration.typeParameters.map((parameter) => parameter.getText(source)).join(', ')}>`
    : '';
  const heritage = (declaration.heritageClauses ?? [])
    .map((clause) => ` ${clause.getText(source)}`)
    .join('');
  const lines = [`class ${name}${typeParameters}${heritage} {`];
  for (const member of declaration.members) {
    if (isPrivateMember(member) || ts.isClassStaticBlockDeclaration(member)) continue;
    if (ts.isSemicolonClassElement(member) || ts.isIndexSignatureDeclaration(member)) continue;
    const memberName = member.name ? member.name.getText(source) : '';
    const prefix = modifiersText(member);
    if (ts.isConstructorDeclaration(member)) {
      const signature = checker.getSignatureFromDeclaration(member);
      const parameters = signature.parameters
        .map((parameter) => {
          const parameterDeclaration = parameter.valueDeclaration;
          const optional =
            parameterDeclaration &&
            ts.isParameter(parameterDeclaration) &&
            (parameterDeclaration.questionToken || parameterDeclaration.initializer)
              ? '?'
              : '';
          const type = checker.getTypeOfSymbolAtLocation(parameter, member);
          return `${parameter.name}${optional}: ${checker.typeToString(type, member, typeFormat)}`;
        })
        .join(', ');
      lines.push(`  constructor(${parameters});`);
    } else if (ts.isMethodDeclaration(member)) {
      const signature = checker.getSignatureFromDeclaration(member);
      lines.push(
        `  ${prefix}${memberName}${checker.signatureToString(signature, member, typeFormat)};`,
      );
    } else if (ts.isGetAccessorDeclaration(member)) {
      const type = checker.getTypeAtLocation(member);
      const readonly = declaration.members.some(
        (other) => ts.isSetAccessorDeclaration(other) && other.name.getText(source) === memberName,
      )
        ? ''
        : 'readonly ';
      lines.push(
        `  ${prefix}${readonly}${memberName}: ${checker.typeToString(type, member, typeFormat)};`,
      );
    } else if (ts.isSetAccessorDeclaration(member)) {
      continue;
    } else if (ts.isPropertyDeclaration(member)) {
      const type = checker.getTypeAtLocation(member);
      const optional = member.questionToken ? '?' : '';
      lines.push(
        `  ${prefix}${memberName}${optional}: ${checker.typeToString(type, member, typeFormat)};`,
      );
    }
  }
  lines.push('}');
  return lines.join('\n');
}

/**
 * A type alias as declared and, when that reads differently (`z.infer<typeof schema>`, a mapped
 * type), as it resolves: a change to a schema behind an alias then shows in the report too.
 */
function typeAliasText(symbol, declaration, checker) {
  const printed = printer.printNode(
    ts.EmitHint.Unspecified,
    declaration,
    declaration.getSourceFile(),
  );
  if (spelledOut(declaration.type)) return printed;
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  const flags = typeFormat | ts.TypeFormatFlags.InTypeAlias;
  // A union's members print in the checker's creation order, which moves with unrelated code.
  const resolved = type.isUnion()
    ? type.types
        .map((member) => {
          const text = checker.typeToString(member, declaration, flags);
          const isFunction =
            member.getCallSignatures().length > 0 && member.getProperties().length === 0;
          return isFunction ? `(${text})` : text;
        })
        .sort()
        .join(' | ')
    : checker.typeToString(type, declaration, flags);
  return `${printed}\n// resolves to: ${resolved}`;
}

const utilityTypes = new Set([
  'Awaited',
  'Exclude',
  'Extract',
  'InstanceType',
  'NonNullable',
  'Omit',
  'Parameters',
  'Partial',
  'Pick',
  'Readonly',
  'Required',
  'ReturnType',
  'infer',
]);

/**
 * A type that reads as what it is where it is declared: nothing in it is computed (`typeof`, an
 * indexed access, a conditional or mapped type, `keyof`, a utility such as `Pick` or `z.infer`).
 */
function spelledOut(node) {
  let computed = false;
  const visit = (child) => {
    if (computed) return;
    if (
      ts.isTypeQueryNode(child) ||
      ts.isIndexedAccessTypeNode(child) ||
      ts.isConditionalTypeNode(child) ||
      ts.isMappedTypeNode(child) ||
      (ts.isTypeOperatorNode(child) && child.operator === ts.SyntaxKind.KeyOfKeyword) ||
      (ts.isTypeReferenceNode(child) &&
        utilityTypes.has(
          ts.isQualifiedName(child.typeName) ? child.typeName.right.text : child.typeName.text,
        ))
    ) {
      computed = true;
      return;
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return !computed;
}

/** The kind and the declaration text of one exported symbol. */
function describeExport(name, symbol, checker) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declarations = target.declarations ?? [];
  const parts = [];
  const kinds = [];
  for (const declaration of declarations) {
    const source = declaration.getSourceFile();
    if (ts.isClassDeclaration(declaration)) {
      kinds.push('class');
      parts.push(classText(name, declaration, checker));
    } else if (ts.isFunctionDeclaration(declaration)) {
      if (!kinds.includes('function')) kinds.push('function');
      // Overloads: one line per declared signature; the implementation's own is not public.
      if (
        declaration.body &&
        declarations.some((other) => other !== declaration && ts.isFunctionDeclaration(other))
      )
        continue;
      const signature = checker.getSignatureFromDeclaration(declaration);
      parts.push(
        `function ${name}${checker.signatureToString(signature, declaration, typeFormat)};`,
      );
    } else if (ts.isVariableDeclaration(declaration)) {
      const list = declaration.parent;
      const keyword = list.flags & ts.NodeFlags.Const ? 'const' : 'let';
      kinds.push(keyword);
      const type = checker.getTypeOfSymbolAtLocation(target, declaration);
      parts.push(`${keyword} ${name}: ${checker.typeToString(type, declaration, typeFormat)};`);
    } else if (ts.isInterfaceDeclaration(declaration)) {
      kinds.push('interface');
      parts.push(printer.printNode(ts.EmitHint.Unspecified, declaration, source));
    } else if (ts.isTypeAliasDeclaration(declaration)) {
      kinds.push('type');
      parts.push(typeAliasText(target, declaration, checker));
    } else if (ts.isEnumDeclaration(declaration)) {
      kinds.push('enum');
      parts.push(printer.printNode(ts.EmitHint.Unspecified, declaration, source));
    } else if (ts.isModuleDeclaration(declaration)) {
      kinds.push('namespace');
      parts.push(printer.printNode(ts.EmitHint.Unspecified, declaration, source));
    } else {
      kinds.push(ts.SyntaxKind[declaration.kind]);
      parts.push(printer.printNode(ts.EmitHint.Unspecified, declaration, source));
    }
  }
  const text = parts
    .map((part) => part.replace(/^export\s+(declare\s+)?(default\s+)?/gm, '').trimEnd())
    .join('\n');
  return { kind: kinds.join(' + ') || 'unknown', text };
}

/** The report of one entry: a heading per exported name, sorted, with its kind and declaration. */
function entryReport(entry, program, projectRoot) {
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(join(projectRoot, entry.source));
  if (!sourceFile) throw new Error(`api-report: ${entry.source} is not in the program.`);
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  const names = exports
    .map((symbol) => symbol.getName())
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const bySymbolName = new Map(exports.map((symbol) => [symbol.getName(), symbol]));
  const packageName =
    entry.entry === '.' ? 'agent-console-kit' : `agent-console-kit/${entry.entry.slice(2)}`;
  const lines = [
    `# API report: \`${packageName}\``,
    '',
    '<!-- Written by `npm run api:report` (scripts/api-report.mjs) from ' +
      `${entry.source}. Do not edit: a change here is a change to the public API. -->`,
    '',
    `${names.length} exported names.`,
    '',
  ];
  for (const name of names) {
    const symbol = bySymbolName.get(name);
    const { kind, text } = describeExport(name, symbol, checker);
    lines.push(
      `## \`${name}\` (${kind})`,
      '',
      '```ts',
      withoutAbsolutePaths(text, projectRoot),
      '```',
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Every report, by its path relative to the project root. */
export function generateApiReports(projectRoot = root) {
  const entries = publicEntries(projectRoot);
  const program = createProgram(
    entries.map(({ source }) => source),
    projectRoot,
  );
  return new Map(entries.map((entry) => [entry.report, entryReport(entry, program, projectRoot)]));
}

/** The committed report of `reportPath`, or undefined when there is none. */
export function readCommittedReport(reportPath, projectRoot = root) {
  const path = join(projectRoot, reportPath);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [reportPath, text] of generateApiReports()) {
    const path = join(root, reportPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.log(`api-report: wrote ${reportPath}`);
  }
}
