// The size rows of `npm run bench`: the built dist/ bundled as an app would (esbuild: minified, code splitting,
// ESM, browser, react, react-dom and @tanstack/react-query external), then brotli (Node's zlib).
// `node bench/sizes.js --analyze` also prints where the bytes go (esbuild's metafile).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { basename, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const peers = ['react', 'react-dom', 'react/jsx-runtime', '@tanstack/react-query'];

/** The names an entry of the sources exports (bundled for Node and imported, React external). */
async function exportedNames(entryPoints) {
  const result = await build({
    entryPoints,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    external: [...peers, 'react/*', '@tanstack/*', 'zod', 'zod/*', '@microsoft/*', 'msw', 'msw/*'],
    logLevel: 'silent',
    metafile: true,
    outdir: 'names',
  });
  return Object.entries(result.metafile.outputs)
    .filter(([path]) => path.endsWith('.js'))
    .flatMap(([, output]) => output.exports);
}

/** Brotli at its highest quality, as a server precompresses static files. */
export function brotliSize(code) {
  return brotliCompressSync(code, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: code.length,
    },
  }).length;
}

/**
 * Bundled with code splitting, as an app's bundler does: `minified` and `brotli` count what a page
 * loads up front (the entry and the chunks it imports statically); what only a dynamic `import()`
 * reaches (the durable runs' wire, the explanation of a refusal) is `lazy`, loaded where it is used.
 */
async function measure(entryContents, analyze) {
  const result = await build({
    stdin: { contents: entryContents, resolveDir: root, loader: 'js', sourcefile: 'app.js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: `${root}bench/.sizes`,
    external: peers,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const files = new Map(
    result.outputFiles.map((file) => [
      relative(root, file.path).split(sep).join('/'),
      file.contents,
    ]),
  );
  // The page itself: a dynamic import's chunk has an entryPoint too.
  const entry = Object.keys(outputs).find(
    (path) => basename(outputs[path].entryPoint ?? '') === 'app.js',
  );
  const initial = new Set();
  const visit = (path) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of outputs[path].imports) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(entry);
  const sizeOf = (paths) => {
    const codes = [...paths].map((path) => files.get(path));
    const code = Buffer.concat(codes);
    return {
      minified: code.length,
      brotli: codes.reduce((sum, part) => sum + brotliSize(part), 0),
    };
  };
  const lazyPaths = Object.keys(outputs).filter(
    (path) => path.endsWith('.js') && !initial.has(path),
  );
  if (analyze) {
    for (const path of Object.keys(outputs).filter((output) => output.endsWith('.js'))) {
      console.log(`${initial.has(path) ? 'initial' : 'lazy'} chunk ${path}:`);
      const byInput = Object.entries(outputs[path].inputs)
        .map(([input, { bytesInOutput }]) => ({ input, bytes: bytesInOutput }))
        .sort((left, right) => right.bytes - left.bytes);
      for (const { input, bytes } of byInput.slice(0, 40)) {
        console.log(`${String(bytes).padStart(8)}  ${input}`);
      }
    }
  }
  return { ...sizeOf(initial), lazy: sizeOf(lazyPaths) };
}

/**
 * `core`: everything the React-free core exports (dist/core/index.js, the `agent-console-kit/core` entry, else those
 * names from dist/index.js) plus the hooks; `all`: everything the main entry exports, and
 * `AgentConsole` (dist/console.js, the `agent-console-kit/console` entry, when it exists).
 */
export async function measureSizes({ analyze = false, dist = `${root}dist` } = {}) {
  const index = `${dist}/index.js`;
  if (!existsSync(index)) throw new Error('bench: no dist/index.js (run npm run build)');
  const hookNames = await exportedNames([
    `${root}src/react/use-agent.ts`,
    `${root}src/react/use-agent-run-stream.ts`,
    `${root}src/react/agent-client-provider.tsx`,
  ]);
  const coreEntry = `${dist}/core/index.js`;
  const indexNames = new Set(await exportedNames([index]));
  let coreAndHooks;
  if (existsSync(coreEntry)) {
    const hooks = hookNames.filter((name) => indexNames.has(name));
    coreAndHooks = `export * from ${JSON.stringify(coreEntry)};\nexport { ${hooks.join(', ')} } from ${JSON.stringify(index)};`;
  } else {
    const coreNames = (await exportedNames([`${root}src/core/index.ts`])).filter((name) =>
      indexNames.has(name),
    );
    const names = [...new Set([...coreNames, ...hookNames])].filter((name) => indexNames.has(name));
    coreAndHooks = `export { ${names.join(', ')} } from ${JSON.stringify(index)};`;
  }
  if (analyze) console.log('core + hooks:');
  const core = await measure(coreAndHooks, analyze);
  if (analyze) console.log('everything in the main entry and the console:');
  const consoleEntry = `${dist}/console.js`;
  const everything = existsSync(consoleEntry)
    ? `export * from ${JSON.stringify(index)};\nexport * from ${JSON.stringify(consoleEntry)};`
    : `export * from ${JSON.stringify(index)};`;
  const all = await measure(everything, analyze);
  return { core, all };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = process.argv.find((argument) => argument.startsWith('--dist='))?.slice(7);
  const sizes = await measureSizes({
    analyze: process.argv.includes('--analyze'),
    ...(dist === undefined ? {} : { dist }),
  });
  console.log(JSON.stringify(sizes));
}
