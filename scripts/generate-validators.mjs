#!/usr/bin/env node
// Writes the checks zod's own compiler (the code `z.compile` builds with `new Function` at run time,
// here its assert-only form, the one `z.validate` runs) makes of the library's schemas at build
// time, so they run compiled without `eval`, which strict CSPs refuse, and without zod on the page:
// - src/core/wire/message-payload-check.generated.ts, from `messageEventPayloadCheck` (the per-event check);
// - src/core/wire/wire-checks.generated.ts, the wire checks (the client's JSON answers, a problem detail,
//   a `run.failed` payload); a check inside another is called, not written again;
// - src/core/storage/conversation-message-check.generated.ts, a check per field of a saved conversation
//   message (src/core/storage/conversation-message-schema.ts), so a refusal names the field;
// - src/core/wire/agent-tools-check.generated.ts, the check of an agent's tools, loaded on demand.
// A check is written only when zod says its refusals are definite (the interpreter refuses too), so
// a sync caller may trust a refusal; an async caller loads zod's runtime to explain it.
// test/message-payload-check.node.test.ts, test/wire-checks.node.test.ts and
// test/conversation-message.node.test.ts fail when a file differs from what this script would
// write now (a changed schema or zod): run `npm run generate:validators`.
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { compileFn, INVALID, util } from 'zod/v4/core';

// The generated checks return zod's INVALID without importing zod: an import of zod, even of a
// constant, puts zod's modules on a page's up-front path in esbuild (docs/decisions/0014-bundle-size.md).
// zod's INVALID is a registered symbol, so the generated one is the same value.
const invalidKey = 'zod.compile.invalid';
if (INVALID !== Symbol.for(invalidKey)) {
  throw new Error(`generate-validators: zod's INVALID is no longer Symbol.for('${invalidKey}')`);
}
const invalidLines = [
  "/** zod's `INVALID` (the same registered symbol), without importing zod. */",
  `export const INVALID: unique symbol = Symbol.for('${invalidKey}');`,
];

const root = fileURLToPath(new URL('..', import.meta.url));
export const generatedPath = `${root}src/core/wire/message-payload-check.generated.ts`;
export const wireChecksPath = `${root}src/core/wire/wire-checks.generated.ts`;
export const conversationMessageCheckPath = `${root}src/core/storage/conversation-message-check.generated.ts`;
export const agentToolsCheckPath = `${root}src/core/wire/agent-tools-check.generated.ts`;

/**
 * The wire checks: the function each one becomes, and the schema of src/core/wire/schemas.ts it is
 * compiled from. src/core/wire/wire-explain.ts names the same schemas for the explanation of a refusal.
 */
export const wireChecks = [
  ['checkAgent', 'agentSchema'],
  ['checkPlatformAgentResponse', 'platformAgentResponseSchema'],
  ['checkAgentSearchResponse', 'agentSearchResponseSchema'],
  ['checkAgentSchemas', 'agentSchemasSchema'],
  ['checkToolServerAuthorization', 'toolServerAuthorizationSchema'],
  ['checkProblemDetail', 'problemDetailSchema'],
  ['checkRunFailedPayload', 'runFailedPayloadSchema'],
];

/**
 * The check of an agent's tools (`include_tools=true`), in a module of its own that the client
 * loads only when it asks for tools (src/core/wire/agent-tools-wire.ts explains a refusal).
 */
export const agentToolsChecks = [['checkAgentSchemasTools', 'agentSchemasToolsSchema']];

/**
 * zod's `highSurrogate` (util.js, not exported), which its `codePointLength` reads, as written there;
 * refused unless the two, written as text, count as zod's function does.
 */
function highSurrogateLine() {
  const utilSource = readFileSync(
    `${dirname(fileURLToPath(import.meta.resolve('zod/v4/core')))}/util.js`,
    'utf8',
  );
  const line = /^const highSurrogate = \/[^\n]+\/;$/m.exec(utilSource)?.[0];
  const written = line && new Function(`${line}\nreturn (${util.codePointLength.toString()});`)();
  const samples = ['', 'a', 'ab', '\u{1F600}', '\uD83D', 'a\uDE00', '\uD83D\u{1F600}x'];
  if (!written || samples.some((text) => written(text) !== util.codePointLength(text))) {
    throw new Error("generate-validators: zod's codePointLength cannot be written as text");
  }
  return line;
}

/**
 * The constants zod's compiler hoists, written as text and shared by every check of the module:
 * zod's plain-object test (its source: importing it by name from zod would bring zod's whole `util`
 * namespace), `propertyIsEnumerable`, and a loose object's set of known keys.
 */
class ModuleConstants {
  lines = [];
  #names = new Map();

  nameOf(value, schemaName) {
    const text = this.#sourceOf(value, schemaName);
    let name = this.#names.get(text);
    if (name === undefined) {
      name = `k${this.#names.size}`;
      this.#names.set(text, name);
      this.lines.push(`const ${name} = ${text};`);
    }
    return name;
  }

  #sourceOf(value, schemaName) {
    if (value === util.isPlainObject) {
      // zod's test calls its `isObject`, written beside it once.
      if (!this.#names.has('isObject')) {
        this.#names.set('isObject', 'isObject');
        this.lines.push(util.isObject.toString());
      }
      return `(${util.isPlainObject.toString()})`;
    }
    if (value === Object.prototype.propertyIsEnumerable) {
      return 'Object.prototype.propertyIsEnumerable';
    }
    if (value === util.codePointLength) {
      // zod's code-point count (a string's length check) reads a regular expression beside it.
      if (!this.#names.has('highSurrogate')) {
        this.#names.set('highSurrogate', 'highSurrogate');
        this.lines.push(highSurrogateLine());
      }
      return `(${util.codePointLength.toString()})`;
    }
    if (value instanceof Set && [...value].every((key) => typeof key === 'string')) {
      return `new Set(${JSON.stringify([...value])})`;
    }
    throw new Error(
      `generate-validators: ${schemaName} needs a constant that cannot be written as text`,
    );
  }
}

/**
 * zod's compiler's assert-only form of `schema`: its code, the values of the constants it hoists
 * (by name), whether its refusals are definite, and the compiled check itself.
 */
function compileAssertOnly(schema) {
  // compileFn's hoisted constants (c0, c1…) are only in its closure: caught at the `Function` it calls.
  const OriginalFunction = globalThis.Function;
  let values = [];
  globalThis.Function = function CaptureFunction(...args) {
    const made = new OriginalFunction(...args);
    return (...constants) => {
      values = constants;
      return made(...constants);
    };
  };
  try {
    const compiled = compileFn(schema, { debug: true, assertOnly: true });
    const [header, ...body] = compiled.code.split('\n');
    const names = header.replace('// Constants: ', '').split(', ');
    return {
      body,
      constants: new Map(names.map((name, index) => [name, values[index]])),
      definite: compiled.definite === true,
      check: compiled,
    };
  } finally {
    globalThis.Function = OriginalFunction;
  }
}

/** A schema type zod's compiler does not know: it runs such a child as a runtime island. */
const sharedCheckType = 'agent-console-kit:shared-check';

/**
 * `schema` compiled with each schema of `shared` (a Map to the function that checks it) inside it
 * called rather than written again: zod's compiler runs a child whose type it does not know as a
 * runtime island (`cN(schema, value)`, the schema's parse), so each shared schema's type is hidden
 * for the compile and its island becomes a call of its compiled check. `undefined` when a shared
 * schema sits where zod islands more than it (e.g. under `z.optional`, compiled inline): the caller
 * then writes it inline.
 */
function compileSharing(schema, shared) {
  const hidden = [...shared.keys()].filter((child) => child !== schema);
  if (hidden.length === 0) return undefined;
  const defs = hidden.map((child) => child._zod.def);
  hidden.forEach((child, index) => {
    child._zod.def = Object.create(defs[index], { type: { value: sharedCheckType } });
  });
  let compiled;
  try {
    compiled = compileAssertOnly(schema);
  } catch {
    return undefined;
  } finally {
    hidden.forEach((child, index) => {
      child._zod.def = defs[index];
    });
  }
  let calls = 0;
  const body = compiled.body.map((line) =>
    line.replace(/\b(c\d+)\((c\d+), /g, (island, run, child) => {
      const functionName = shared.get(compiled.constants.get(child));
      if (functionName === undefined) return island;
      calls += 1;
      return `${functionName}(`;
    }),
  );
  if (calls === 0) return undefined;
  // Every other island (a child zod could not compile) is not definite: write the schema inline.
  const islands = [...compiled.constants.values()].filter((value) => value?._zod !== undefined);
  if (islands.some((child) => !shared.has(child))) return undefined;
  return { ...compiled, body };
}

/**
 * The body of the assert-only check of `schema` (its lines, indented, and the closing brace),
 * refused unless every refusal is definite (zod's interpreter refuses too: no refinement or
 * runtime island) and its constants are text. A schema of `shared` inside it is a call of its own
 * check (definite too: it is one of them).
 */
function assertOnlyBody(schema, name, constants, shared = new Map()) {
  // Definite as a whole, inline: what it is with shared calls too (each answers as zod's runtime).
  const inline = compileAssertOnly(schema);
  if (!inline.definite) {
    throw new Error(`generate-validators: ${name}'s compiled refusals are not definite`);
  }
  const compiled = compileSharing(schema, shared) ?? inline;
  const used = new Set(compiled.body.join('\n').match(/\bc\d+\b/g));
  const renamed = new Map(
    [...used].map((constant) => [
      constant,
      constants.nameOf(compiled.constants.get(constant), name),
    ]),
  );
  const body = compiled.body.map((line) =>
    line.replace(/\bc\d+\b/g, (constant) => renamed.get(constant) ?? constant),
  );
  // The last line returns what the root built, reached only when valid: a check answers `true`.
  const last = body.pop();
  if (!/^return [^;]+;$/.test(last ?? '')) {
    throw new Error(`generate-validators: ${name}'s compiled check does not end with a return`);
  }
  return [...body.map((line) => `  ${line}`), '  return true;', '}'];
}

/** The assert-only function `functionName` for `schema` (see {@link assertOnlyBody}). */
function assertOnlyFunction(schema, name, functionName, constants, shared) {
  return functionLines(name, functionName, assertOnlyBody(schema, name, constants, shared), true);
}

/** A check's function around `body` (from {@link assertOnlyBody}), exported or not. */
function functionLines(name, functionName, body, exported) {
  return [
    `/** \`true\` when \`input\` matches \`${name}\`; \`INVALID\` (a definite no) when it does not. */`,
    `${exported ? 'export ' : ''}function ${functionName}(input: unknown): true | typeof INVALID {`,
    ...body,
  ];
}

/**
 * The module's text for the wire checks, `schemas` being src/core/wire/schemas.ts's exports (`checks`:
 * the wire checks, or another list such as {@link agentToolsChecks}).
 */
export function wireChecksModuleSource(schemas, checks = wireChecks) {
  const constants = new ModuleConstants();
  // A check inside another (the agent in the agents' search answer) is called, not written again.
  const shared = new Map(
    checks.map(([functionName, schemaName]) => [schemas[schemaName], functionName]),
  );
  const functions = checks.flatMap(([functionName, schemaName]) => [
    '',
    ...assertOnlyFunction(schemas[schemaName], schemaName, functionName, constants, shared),
  ]);
  return [
    '// @ts-nocheck',
    '// Generated by scripts/generate-validators.mjs from the schemas of src/core/wire/schemas.ts',
    "// with zod's compiler: do not edit; run `npm run generate:validators`.",
    ...invalidLines,
    '',
    ...constants.lines,
    ...functions,
    '',
  ].join('\n');
}

/** `schema`'s shape when it is a loose object (a key it does not know is kept), else `undefined`. */
function looseShape(schema) {
  const def = schema._zod.def;
  const loose =
    def.type === 'object' && def.catchall?._zod.def.type === 'unknown' && !def.checks?.length;
  return loose ? def.shape : undefined;
}

/** What holds an object, an array or a map below it (z.optional and z.nullable looked through). */
function holdsContainer(schema) {
  const def = schema._zod.def;
  if (def.type === 'optional' || def.type === 'nullable') return holdsContainer(def.innerType);
  return !['string', 'number', 'boolean', 'enum', 'literal', 'null', 'undefined'].includes(
    def.type,
  );
}

/**
 * The module's text for a saved conversation message: `schema` (src/core/storage/conversation-message-schema.ts)
 * checked one field at a time, so that a refusal names the field. A loose object matches when it
 * is an object (not null, not an array) and each field's check accepts `input[key]`: zod's runtime
 * reads each key so, runs a field on `undefined` when the key is absent and ignores the result only
 * for an optional field, and keeps any other key. So each field is refused unless it is either
 * required and refuses `undefined`, or optional and accepts it; and unless it holds no object, or
 * is a loose object (optional or not) of fields that hold none, whose keys the module lists (the
 * copy of a message keeps what zod's parse keeps).
 */
export function conversationMessageModuleSource(schema) {
  const shape = looseShape(schema);
  if (shape === undefined) {
    throw new Error('generate-validators: conversationMessageSchema is not a loose object');
  }
  const constants = new ModuleConstants();
  const functions = [];
  const fields = [];
  // Fields zod compiles alike (the optional times) share one function.
  const functionsByBody = new Map();
  for (const [key, field] of Object.entries(shape)) {
    const name = `conversationMessageSchema.${key}`;
    const body = assertOnlyBody(field, name, constants);
    let functionName = functionsByBody.get(body.join('\n'));
    if (functionName === undefined) {
      functionName = `check${key[0]?.toUpperCase()}${key.slice(1)}`;
      functionsByBody.set(body.join('\n'), functionName);
      functions.push('', ...functionLines(name, functionName, body, false));
    }
    const { check } = compileAssertOnly(field);
    const optional = field._zod.optin === 'optional' && field._zod.optout === 'optional';
    const required = field._zod.optin === undefined;
    if (
      !(required && check(undefined) === INVALID) &&
      !(optional && check(undefined) !== INVALID)
    ) {
      throw new Error(`generate-validators: ${name} is neither required nor optional`);
    }
    const object = looseShape(optional ? field._zod.def.innerType : field);
    if (object === undefined ? holdsContainer(field) : Object.values(object).some(holdsContainer)) {
      throw new Error(`generate-validators: ${name} holds what a field check cannot copy`);
    }
    const keys = object === undefined ? '' : `, ${JSON.stringify(Object.keys(object))}`;
    fields.push(`  [${JSON.stringify(key)}, ${functionName}${keys}],`);
  }
  return [
    '// @ts-nocheck',
    '// Generated by scripts/generate-validators.mjs from `conversationMessageSchema`',
    "// (src/core/storage/conversation-message-schema.ts) with zod's compiler: do not edit; run",
    '// `npm run generate:validators`.',
    ...invalidLines,
    '',
    '/** A field of a saved message: its key, its check, and the keys it knows when it is an object. */',
    'export type ConversationMessageField = readonly [',
    '  key: string,',
    '  check: (input: unknown) => true | typeof INVALID,',
    '  keys?: readonly string[],',
    '];',
    ...(constants.lines.length > 0 ? ['', ...constants.lines] : []),
    ...functions,
    '',
    '/**',
    ' * The fields of `conversationMessageSchema`, in its order: a message matches it when it is an',
    ' * object (not null, not an array) and each check accepts its field (`undefined` when absent).',
    ' */',
    'export const conversationMessageFields: readonly ConversationMessageField[] = [',
    ...fields,
    '];',
    '',
  ].join('\n');
}

/** The module's text for `schema` (the `messageEventPayloadCheck` of src/core/wire/schemas.ts). */
export function checkModuleSource(schema) {
  const compiled = compileFn(schema, { debug: true, assertOnly: true });
  const [constants, ...body] = compiled.code.split('\n');
  // Other constants (a `z.literal` object, a refinement's function) cannot be written as text.
  if (constants !== '// Constants: INVALID') {
    throw new Error(
      `generate-validators: the schema needs ${constants}; only INVALID can be written`,
    );
  }
  // The engine answers with this check alone (no zod up front): its refusals must be definite.
  if (compiled.definite !== true) {
    throw new Error("generate-validators: the schema's compiled refusals are not definite");
  }
  return [
    '// @ts-nocheck',
    '// Generated by scripts/generate-validators.mjs from `messageEventPayloadCheck` (src/core/wire/schemas.ts)',
    "// with zod's compiler: do not edit; run `npm run generate:validators`.",
    ...invalidLines,
    '',
    '/**',
    ' * `true` when `input` matches `messageEventPayloadCheck`; `INVALID` (a definite no: zod’s runtime',
    ' * refuses it too) when it does not.',
    ' */',
    'export function checkMessageEventPayload(input: unknown): true | typeof INVALID {',
    ...body.map((line) => `  ${line}`),
    '}',
    '',
  ].join('\n');
}

/** A module's exports, from the sources (bundled by esbuild, as Node cannot load .ts). */
async function exportsOf(module) {
  const outfile = `${root}node_modules/.cache/generate-validators/${module}.mjs`;
  await build({
    entryPoints: [`${root}src/core/${module}.ts`],
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return import(pathToFileURL(outfile).href);
}

function write(path, source) {
  const unchanged = existsSync(path) && readFileSync(path, 'utf8') === source;
  if (!unchanged) writeFileSync(path, source);
  console.log(`${unchanged ? 'unchanged' : 'wrote'} ${path.slice(root.length)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const schemas = await exportsOf('wire/schemas');
  write(generatedPath, checkModuleSource(schemas.messageEventPayloadCheck));
  write(wireChecksPath, wireChecksModuleSource(schemas));
  write(agentToolsCheckPath, wireChecksModuleSource(schemas, agentToolsChecks));
  const { conversationMessageSchema } = await exportsOf('storage/conversation-message-schema');
  write(conversationMessageCheckPath, conversationMessageModuleSource(conversationMessageSchema));
}
