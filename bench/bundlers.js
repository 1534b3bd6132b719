// `npm run bench:bundlers` (and the end of `npm run bench`): what a page pays for agent-console-kit in
// each bundler an app may use: esbuild, Vite, webpack 5 (production mode) and Next.js's default
// bundler (Turbopack in `next build`). Each page imports the built package (dist/, through the
// package's exports, as an app does) and is built beside a baseline page that renders the same
// providers without the library, in the same build; a cell is the page's bytes loaded up front (the
// JS files and stylesheets of its entry, brotli, file by file) minus the baseline's. Both pages pin
// the peers whole (`import * as` react, react-dom and @tanstack/react-query, kept in a global), so
// the difference is the library and only the library, whatever part of the peers it uses. A page's
// budget is a size (hooks only ≤ 15 kB, the whole console ≤ 40 kB) or another page to stay below
// (one chat agent < the whole console); the table prints ✓ or ✗ per cell and, per row, `ok` or by
// how much each bundler is over, for the bundlers the budgets are judged in (Vite, webpack,
// Next.js): esbuild's cells are printed unjudged (`judgedBundlers` below).
//
//   node bench/bundlers.js [--no-build] [--bundlers=esbuild,vite] [--pages=hooks,console] [--files]
//
// It builds dist/ first (`vite build`) unless --no-build; --files also lists every file each page
// loads up front with its brotli bytes; --keep leaves the temp app and its builds to look into;
// --dist=<folder> measures another build of the package (inside this repository, so that its
// dependencies resolve), e.g. one laid out otherwise. About 4 minutes on a 2-core machine, most of it Next.js's
// three builds and webpack's terser.
import { build as esbuild } from 'esbuild';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliSize } from './sizes.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const requireFromRoot = createRequire(join(root, 'package.json'));

export const bundlerNames = ['esbuild', 'vite', 'webpack', 'next'];
// The budgets are judged where apps are built: Vite, webpack and Next.js. esbuild is measured and
// printed beside them, unjudged: its code splitting puts up front every module an entry reaches
// and an import() also loads (evanw/esbuild#16, #3704; docs/decisions/0014-bundle-size.md).
export const judgedBundlers = ['vite', 'webpack', 'next'];
const bundlerTitles = {
  esbuild: 'esbuild (reported)',
  vite: 'Vite',
  webpack: 'webpack',
  next: 'Next.js',
};

const providers = `
const agentClient = createAgentClient({
  baseUrl: 'https://agents.example.com',
  api: 'platform',
  token: () => 'token',
});
function Providers({ children }) {
  return h(QueryClientProvider, { client: queryClient }, h(AgentClientProvider, { client: agentClient }, children));
}`;

/**
 * The pages, as an app writes them (plain `createElement`, so that no bundler needs a JSX
 * transform): `imports` and `body` follow the peers' pin and the query client every page shares.
 */
export const pages = {
  hooks: {
    title: 'hooks only (`useAgent`, `useAgentRunStream`)',
    budget: 15_000,
    source: `import { AgentClientProvider, createAgentClient, useAgent, useAgentRunStream } from 'agent-console-kit';
${providers}
function Run() {
  const agent = useAgent('x');
  const run = useAgentRunStream();
  return h('section', null,
    h('h1', null, agent.data?.name ?? ''),
    h('button', { onClick: () => run.start({ agentId: 'x', messages: [] }) }, 'Run'),
    h('button', { onClick: run.abort }, 'Stop'),
    h('output', null, run.status, ' ', run.text));
}
export function Page() {
  return h(Providers, null, h(Run));
}`,
  },
  conversation: {
    title: 'conversation (`useAgentConversation`, `AgentThread`, `AgentThreadComposer`)',
    source: `import { AgentClientProvider, AgentThread, AgentThreadComposer, createAgentClient, useAgentConversation } from 'agent-console-kit';
${providers}
function Chat() {
  const chat = useAgentConversation({ agentId: 'x' });
  return h('section', null,
    h(AgentThread, { messages: chat.messages, status: chat.status, onRetry: chat.retry }),
    h(AgentThreadComposer, { status: chat.status, onSend: (text) => void chat.send(text), onStop: chat.stop }));
}
export function Page() {
  return h(Providers, null, h(Chat));
}`,
  },
  console: {
    title: 'whole console (`<AgentConsole>` + styles.css)',
    budget: 40_000,
    source: `import { AgentClientProvider, createAgentClient } from 'agent-console-kit';
import { AgentConsole } from 'agent-console-kit/console';
import 'agent-console-kit/styles.css';
${providers}
export function Page() {
  return h(Providers, null, h(AgentConsole));
}`,
  },
  chat: {
    title: 'one chat agent (`useAgentConsole` + its parts + styles.css)',
    // The console's layout for one chat agent without what it does not render (the picker, the
    // form, the run history, the event log), as the components guide composes it.
    below: 'console',
    source: `import { AgentClientProvider, AgentDetails, AgentErrorMessage, AgentRunStatus, AgentThread, AgentThreadComposer, createAgentClient, useAgentConsole } from 'agent-console-kit';
import 'agent-console-kit/styles.css';
${providers}
function Chat() {
  const chat = useAgentConsole('x');
  const conversation = chat.conversation;
  if (chat.agent === undefined || conversation === undefined) return h('p', { role: 'status' }, 'Loading the agent…');
  return h('section', { className: 'ack-root ack-console' },
    h(AgentDetails, { agent: chat.agent }),
    h(AgentRunStatus, { status: chat.run.status }),
    chat.run.error ? h(AgentErrorMessage, { error: chat.run.error, agentId: 'x', onAuthorizeTool: chat.authorizeTool, toolStates: chat.toolStates }) : null,
    h(AgentThread, { messages: conversation.messages, status: conversation.status, onRetry: chat.retry, onEdit: chat.edit }),
    h(AgentThreadComposer, { status: conversation.status, onSend: chat.send, onStop: chat.stop }));
}
export function Page() {
  return h(Providers, null, h(Chat));
}`,
  },
  threads: {
    title: 'server thread list (`createServerThreadStore` + `useAgentThreads`)',
    // Threads that follow the user (docs/threads-across-devices.md): reported, no budget of its own.
    source: `import { AgentClientProvider, createAgentClient, createServerThreadStore, useAgentThreads } from 'agent-console-kit';
${providers}
const threadStore = createServerThreadStore({ baseUrl: '/api/agent-service' });
function Threads() {
  const list = useAgentThreads({ threadStore });
  return h('ul', null, list.threads.map((thread) => h('li', { key: thread.id }, thread.title)));
}
export function Page() {
  return h(Providers, null, h(Threads));
}`,
  },
  inbox: {
    title: 'approvals inbox (`useAgentInbox` + `<AgentInbox>` + styles.css)',
    source: `import { AgentClientProvider, AgentInbox, createAgentClient, useAgentInbox } from 'agent-console-kit';
import 'agent-console-kit/styles.css';
${providers}
function Inbox() {
  return h(AgentInbox, { inbox: useAgentInbox() });
}
export function Page() {
  return h(Providers, null, h(Inbox));
}`,
  },
  runs: {
    title: 'runs of every device (`useDurableRuns` + `createServerRunList`)',
    // useDurableRuns across devices (docs/threads-across-devices.md): reported, no budget.
    source: `import { AgentClientProvider, createAgentClient, createServerRunList, useDurableRuns } from 'agent-console-kit';
${providers}
const server = createServerRunList({ baseUrl: '/api/agent-service' });
function Runs() {
  const { runs } = useDurableRuns({ server });
  return h('ul', null, runs.map((run) => h('li', { key: run.localId }, run.request.preview, ': ', run.status)));
}
export function Page() {
  return h(Providers, null, h(Runs));
}`,
  },
};
export const pageNames = Object.keys(pages);

// Every page, the baseline included, starts with this: the peers kept whole.
const pagePrelude = `import * as Query from '@tanstack/react-query';
import * as React from 'react';
import * as ReactDom from 'react-dom';
import * as JsxRuntime from 'react/jsx-runtime';
const { createElement: h } = React;
const { QueryClient, QueryClientProvider } = Query;
globalThis.__peers = [Query, React, ReactDom, JsxRuntime];
const queryClient = new QueryClient();
`;
const baselineSource = `export function Page() {
  return h(QueryClientProvider, { client: queryClient }, h('main', null, 'baseline'));
}`;

/**
 * A throwaway app in a temp dir: shared/<page>.js (the page), entries/<page>.js (its mount, for the
 * bundlers that start from a script). node_modules links the peers and `agent-console-kit` (the
 * repository: its package.json exports point at dist/).
 */
function createApp(names, dist) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-console-kit-bundlers-'));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@tanstack'), { recursive: true });
  const link = (name, target) => symlinkSync(target, join(modules, name), 'dir');
  if (dist === undefined) link('agent-console-kit', root);
  else {
    // Another build of the package (its dependencies resolve from where it lies).
    const packageDir = join(modules, 'agent-console-kit');
    mkdirSync(packageDir);
    writeFileSync(join(packageDir, 'package.json'), readFileSync(join(root, 'package.json')));
    symlinkSync(resolve(dist), join(packageDir, 'dist'), 'dir');
  }
  for (const name of ['react', 'react-dom', 'next']) {
    link(name, dirname(requireFromRoot.resolve(`${name}/package.json`)));
  }
  for (const name of ['react-query', 'query-core']) {
    link(`@tanstack/${name}`, join(root, 'node_modules', '@tanstack', name));
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench-app', private: true, type: 'module' }),
  );
  mkdirSync(join(dir, 'shared'));
  mkdirSync(join(dir, 'entries'));
  for (const name of ['baseline', ...names]) {
    const source = name === 'baseline' ? baselineSource : pages[name].source;
    writeFileSync(join(dir, 'shared', `${name}.js`), `${pagePrelude}${source}\n`);
    writeFileSync(
      join(dir, 'entries', `${name}.js`),
      `import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Page } from '../shared/${name}.js';
createRoot(document.getElementById('root')).render(createElement(Page));
`,
    );
  }
  return dir;
}

/** The brotli bytes of files under `outdir` (paths relative to it). */
function filesOf(outdir, paths) {
  return [...new Set(paths)].map((path) => ({
    path,
    brotli: brotliSize(readFileSync(join(outdir, path))),
  }));
}

async function buildWithEsbuild(dir, names, outdir) {
  const entryPoints = Object.fromEntries(
    names.map((name) => [name, join(dir, 'entries', `${name}.js`)]),
  );
  const result = await esbuild({
    entryPoints,
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir,
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const pageFiles = {};
  for (const name of names) {
    const entry = Object.keys(outputs).find(
      (path) => outputs[path].entryPoint === relative(dir, entryPoints[name]).split(sep).join('/'),
    );
    const initial = new Set();
    const visit = (path) => {
      if (initial.has(path)) return;
      initial.add(path);
      const { imports, cssBundle } = outputs[path];
      if (cssBundle !== undefined) initial.add(cssBundle);
      for (const imported of imports) {
        if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
      }
    };
    visit(entry);
    pageFiles[name] = filesOf(dir, [...initial]);
  }
  return pageFiles;
}

async function buildWithVite(dir, names, outdir) {
  const { build } = await import('vite');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'error',
    mode: 'production',
    build: {
      outDir: outdir,
      manifest: true,
      emptyOutDir: true,
      rolldownOptions: {
        input: Object.fromEntries(names.map((name) => [name, join(dir, 'entries', `${name}.js`)])),
      },
    },
  });
  const manifest = JSON.parse(readFileSync(join(outdir, '.vite', 'manifest.json'), 'utf8'));
  const pageFiles = {};
  for (const name of names) {
    const files = [];
    const seen = new Set();
    const visit = (key) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      files.push(chunk.file, ...(chunk.css ?? []));
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(`entries/${name}.js`);
    pageFiles[name] = filesOf(outdir, files);
  }
  return pageFiles;
}

async function buildWithWebpack(dir, names, outdir) {
  const { default: webpack } = await import('webpack');
  const { default: MiniCssExtractPlugin } = await import('mini-css-extract-plugin');
  const compiler = webpack({
    mode: 'production',
    context: dir,
    devtool: false,
    entry: Object.fromEntries(names.map((name) => [name, `./entries/${name}.js`])),
    output: { path: outdir, filename: '[name].js', chunkFilename: '[name].[contenthash].js' },
    module: {
      rules: [{ test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] }],
    },
    plugins: [new MiniCssExtractPlugin()],
    resolveLoader: { modules: [join(root, 'node_modules')] },
    performance: { hints: false },
    infrastructureLogging: { level: 'error' },
    // The builds of one run share it: the baseline is minified once, not once per build.
    cache: { type: 'filesystem', cacheDirectory: join(dir, '.webpack-cache') },
  });
  const stats = await new Promise((resolve, reject) => {
    compiler.run((error, result) => {
      compiler.close((closeError) => {
        if (error ?? closeError) reject(error ?? closeError);
        else if (result.hasErrors()) reject(new Error(result.toString('errors-only')));
        else resolve(result.toJson({ all: false, entrypoints: true }));
      });
    });
  });
  const pageFiles = {};
  for (const name of names) {
    pageFiles[name] = filesOf(
      outdir,
      stats.entrypoints[name].assets.map((asset) => asset.name),
    );
  }
  return pageFiles;
}

/** The deepest folder holding every path (Turbopack reads no file outside its root). */
function commonFolder(paths) {
  const parts = paths.map((path) => realpathSync(path).split(sep));
  const shared = [];
  for (let index = 0; parts.every((part) => part[index] === parts[0][index]); index++) {
    if (index >= parts[0].length) break;
    shared.push(parts[0][index]);
  }
  return shared.join(sep) || parse(root).root;
}

/** app/<page>/page.js for each page, its route (a client component), under one root layout. */
function writeNextApp(dir, names) {
  rmSync(join(dir, 'app'), { recursive: true, force: true });
  // `next build` empties .next itself but for .next/cache, which the run's builds share.
  mkdirSync(join(dir, 'app'));
  writeFileSync(
    join(dir, 'app', 'layout.js'),
    `import { createElement as h } from 'react';
export default function Layout({ children }) {
  return h('html', { lang: 'en' }, h('body', null, children));
}
`,
  );
  for (const name of names) {
    mkdirSync(join(dir, 'app', name));
    writeFileSync(
      join(dir, 'app', name, 'page.js'),
      `'use client';
import { createElement } from 'react';
import { Page } from '../../shared/${name}.js';
export default function Route() {
  return createElement(Page);
}
`,
    );
  }
}

async function buildWithNext(dir, names) {
  writeNextApp(dir, names);
  const turbopackRoot = commonFolder([dir, root, join(root, 'node_modules', 'next')]);
  writeFileSync(
    join(dir, 'next.config.mjs'),
    `export default ${JSON.stringify({
      turbopack: { root: turbopackRoot },
      outputFileTracingRoot: turbopackRoot,
      productionBrowserSourceMaps: false,
    })};\n`,
  );
  const result = spawnSync(
    process.execPath,
    [join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) {
    throw new Error(
      `bench: next build exited with ${result.status}\n${result.stdout}${result.stderr}`,
    );
  }
  const next = join(dir, '.next');
  const buildManifest = JSON.parse(readFileSync(join(next, 'build-manifest.json'), 'utf8'));
  const shared = [...buildManifest.rootMainFiles, ...(buildManifest.polyfillFiles ?? [])];
  const pageFiles = {};
  for (const name of names) {
    // The route's client reference manifest lists the JS and CSS its layout and page load.
    const manifestPath = join(next, 'server', 'app', name, 'page_client-reference-manifest.js');
    globalThis.__RSC_MANIFEST = {};
    new Function(readFileSync(manifestPath, 'utf8'))();
    const manifest = Object.values(globalThis.__RSC_MANIFEST)[0];
    delete globalThis.__RSC_MANIFEST;
    const files = [...shared];
    if (
      !Object.keys(manifest.entryJSFiles ?? {}).some((entry) => entry.endsWith(`app/${name}/page`))
    ) {
      // A manifest laid out otherwise would leave the page's own chunks out, and the cell at 0.
      throw new Error(`bench: no entryJSFiles for app/${name}/page in ${manifestPath}`);
    }
    for (const [entry, chunks] of Object.entries(manifest.entryJSFiles ?? {})) {
      if (entry.includes(`app/${name}/page`) || entry.endsWith('app/layout')) files.push(...chunks);
    }
    for (const [entry, sheets] of Object.entries(manifest.entryCSSFiles ?? {})) {
      if (entry.includes(`app/${name}/page`) || entry.endsWith('app/layout')) {
        files.push(...sheets.map((sheet) => (typeof sheet === 'string' ? sheet : sheet.path)));
      }
    }
    pageFiles[name] = filesOf(
      next,
      files.map((file) => file.replace(/^\/?_next\//, '')),
    );
  }
  return pageFiles;
}

// A build holds pages that import the same names: with several pages in one build, each of these
// bundlers keeps for a page some of what only another page uses (esbuild and Rolldown tree-shake
// for all entries together; Turbopack puts code several routes share in chunks each of them
// loads). esbuild and Vite, quick, build each page alone, the baseline too, as a one-page app would
// ship it; webpack's entries are separate bundles, and Next.js's shared files (framework, runtime,
// layout) are the same in every build of the run.
const buildGroups = {
  esbuild: [
    ['baseline'],
    ['hooks'],
    ['conversation'],
    ['console'],
    ['chat'],
    ['threads'],
    ['inbox'],
    ['runs'],
  ],
  vite: [
    ['baseline'],
    ['hooks'],
    ['conversation'],
    ['console'],
    ['chat'],
    ['threads'],
    ['inbox'],
    ['runs'],
  ],
  webpack: [
    ['baseline', 'hooks'],
    ['conversation'],
    ['console', 'chat'],
    ['threads', 'inbox', 'runs'],
  ],
  // The pages over the proxy's routes each alone: in one build, Turbopack's chunk shared by two
  // of them (the routes' request code) would count for each.
  next: [
    ['baseline', 'hooks'],
    ['conversation'],
    ['console', 'chat'],
    ['threads'],
    ['inbox'],
    ['runs'],
  ],
};

const builders = {
  esbuild: buildWithEsbuild,
  vite: buildWithVite,
  webpack: buildWithWebpack,
  next: buildWithNext,
};

/**
 * Builds every page and the baseline with each bundler (one build per bundler) and returns, per
 * bundler, each page's up-front brotli bytes minus the baseline's, with the files behind them.
 */
export async function measureBundlers({
  bundlers = bundlerNames,
  pages: names = pageNames,
  onStep = () => {},
  keep = false,
  dist,
} = {}) {
  if (!existsSync(join(dist ?? join(root, 'dist'), 'index.js'))) {
    throw new Error('bench: no dist/index.js (run npm run build)');
  }
  const dir = createApp(names, dist);
  const results = {};
  try {
    for (const bundler of bundlers) {
      onStep(bundler);
      const started = performance.now();
      const files = {};
      const groups = buildGroups[bundler]
        .map((group) => group.filter((name) => name === 'baseline' || names.includes(name)))
        .filter((group) => group.length > 0);
      for (const [index, group] of groups.entries()) {
        Object.assign(
          files,
          await builders[bundler](dir, group, join(dir, `out-${bundler}-${index}`)),
        );
      }
      const total = (name) => files[name].reduce((sum, file) => sum + file.brotli, 0);
      results[bundler] = {
        seconds: (performance.now() - started) / 1000,
        baseline: total('baseline'),
        files,
        pages: Object.fromEntries(names.map((name) => [name, total(name) - total('baseline')])),
      };
    }
  } finally {
    if (keep) process.stderr.write(`bench: the app and its builds are kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/**
 * Whether a page's cell meets its budget: `budget` (bytes), or `below` (less than another page's
 * cell in the same bundler). `undefined` when the page has neither, or the other page was not
 * measured (and, in the table, for a bundler that is reported, not judged).
 */
export function withinBudget(result, name) {
  const { budget, below } = pages[name];
  const bytes = result.pages[name];
  if (budget !== undefined) return bytes <= budget;
  const other = below === undefined ? undefined : result.pages[below];
  return other === undefined ? undefined : bytes < other;
}

/**
 * The table: a row per page, a column per bundler, each cell its bytes and ✓ or ✗ against the
 * page's budget, and a last column saying `ok` or by how much each bundler is over.
 */
export function formatBundlerTable(results) {
  const bundlers = Object.keys(results);
  const names = Object.keys(results[bundlers[0]].pages);
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  const header = [
    'page (brotli, loaded up front, minus the baseline)',
    'budget',
    ...bundlers.map((name) => bundlerTitles[name]),
    'verdict',
  ];
  const rows = names.map((name) => {
    const { budget, below } = pages[name];
    const met = bundlers.map((bundler) =>
      judgedBundlers.includes(bundler) ? withinBudget(results[bundler], name) : undefined,
    );
    const over = bundlers.flatMap((bundler, index) => {
      if (met[index] !== false) return [];
      const bytes = results[bundler].pages[name];
      const limit = budget ?? results[bundler].pages[below];
      return [`${bundlerTitles[bundler]} +${kB(bytes - limit)}`];
    });
    return [
      pages[name].title,
      budget !== undefined
        ? `≤ ${budget / 1000} kB`
        : below !== undefined
          ? `< ${pages[below].title.split(' (')[0]}`
          : '–',
      ...bundlers.map((bundler, index) => {
        const bytes = results[bundler].pages[name];
        return met[index] === undefined ? kB(bytes) : `${kB(bytes)} ${met[index] ? '✓' : '✗'}`;
      }),
      met.every((verdict) => verdict === undefined)
        ? '–'
        : over.length === 0
          ? 'ok'
          : `over: ${over.join(', ')}`,
    ];
  });
  rows.push([
    'baseline (react, react-dom, @tanstack/react-query)',
    '–',
    ...bundlers.map((bundler) => kB(results[bundler].baseline)),
    '–',
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column].length)),
  );
  const line = (row) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  const seconds = bundlers.map(
    (bundler) => `${bundlerTitles[bundler]} ${Math.round(results[bundler].seconds)} s`,
  );
  return [
    'Size per bundler: brotli of the JS and CSS files a page loads up front, minus those of a page with',
    'the same peers and no library, built by the same bundler in the same run' +
      ` (${seconds.join(', ')}):`,
    '',
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const option = (name) =>
    process.argv
      .find((argument) => argument.startsWith(`--${name}=`))
      ?.slice(name.length + 3)
      .split(',');
  if (!process.argv.includes('--no-build') && option('dist') === undefined) {
    process.stderr.write('bench: building dist/…\n');
    const built = spawnSync(
      join(root, 'node_modules', '.bin', 'vite'),
      ['build', '--logLevel', 'error'],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (built.status !== 0) throw new Error(`bench: vite build exited with ${built.status}`);
  }
  const results = await measureBundlers({
    bundlers: option('bundlers') ?? bundlerNames,
    pages: option('pages') ?? pageNames,
    onStep: (bundler) => process.stderr.write(`bench: bundlers: ${bundler}…\n`),
    keep: process.argv.includes('--keep'),
    dist: option('dist')?.[0],
  });
  console.log(formatBundlerTable(results));
  if (process.argv.includes('--files')) {
    for (const [bundler, result] of Object.entries(results)) {
      console.log(`\n${bundler} (${result.seconds.toFixed(1)} s):`);
      for (const [name, files] of Object.entries(result.files)) {
        console.log(`  ${name}:`);
        for (const file of files)
          console.log(`    ${String(file.brotli).padStart(7)}  ${file.path}`);
      }
    }
  }
}
