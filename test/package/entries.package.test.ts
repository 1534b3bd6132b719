import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

// Each entry imported from the packed tarball, in the runtime it is for (a plain `node` process,
// not vitest's module graph).
const run = promisify(execFile);
const consumers = inject('consumers');

async function node(folder: string, args: string[]) {
  try {
    const { stdout } = await run(process.execPath, args, { cwd: folder });
    return { ok: true, output: stdout.trim() };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

const script = (source: string) => ['--input-type=module', '-e', source];

/**
 * One page built by esbuild from the installed package (minified, split) as an app would: the code
 * loaded up front (the page's entry and what it imports statically) and the code loaded by a
 * dynamic import.
 */
async function splitPage(contents: string, external: string[] = []) {
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents, resolveDir: consumers.react, sourcefile: 'app.js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    splitting: true,
    outdir: join(consumers.react, 'bundle'),
    write: false,
    metafile: true,
    external,
  });
  const outputs = result.metafile.outputs;
  // The page itself: a dynamic import's chunk has an entryPoint too.
  const entry = Object.keys(outputs).find(
    (path) => basename(outputs[path]?.entryPoint ?? '') === 'app.js',
  );
  const loadedUpFront = new Set<string>();
  const visit = (path: string) => {
    if (loadedUpFront.has(path)) return;
    loadedUpFront.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement') visit(imported.path);
    }
  };
  visit(entry ?? '');
  const textOf = (paths: Iterable<string>) =>
    result.outputFiles
      .filter((file) => [...paths].some((path) => basename(file.path) === basename(path)))
      .map((file) => file.text)
      .join('\n');
  return {
    upFront: textOf(loadedUpFront),
    lazy: textOf(Object.keys(outputs).filter((path) => !loadedUpFront.has(path))),
    /** esbuild's outputs: each chunk's entry point (a dynamic import's too) and inputs. */
    outputs,
    /** The page's own output. */
    entry: outputs[entry ?? ''],
  };
}

/**
 * One page built by Vite (Rolldown) from the installed package, as an app would: the code its
 * entry loads up front (its chunk and those it imports statically) and the code loaded on demand.
 */
async function splitPageWithVite(contents: string, external: string[] = []) {
  const { build } = await import('vite');
  const root = mkdtempSync(join(consumers.react, 'vite-app-'));
  writeFileSync(join(root, 'app.js'), contents);
  const output = await build({
    root,
    configFile: false,
    logLevel: 'error',
    mode: 'production',
    build: {
      write: false,
      // The page's exports kept, as esbuild keeps them (an app's entry exports nothing).
      rolldownOptions: { input: join(root, 'app.js'), preserveEntrySignatures: 'strict', external },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((result) => ('output' in result ? result.output : []))
    .filter((chunk) => chunk.type === 'chunk');
  const upFront = new Set<string>();
  const visit = (fileName: string) => {
    if (upFront.has(fileName)) return;
    upFront.add(fileName);
    for (const imported of chunks.find((chunk) => chunk.fileName === fileName)?.imports ?? []) {
      visit(imported);
    }
  };
  // The page's own chunk (an import()'s chunk is an entry too, a dynamic one).
  for (const chunk of chunks) {
    if (chunk.isEntry && chunk.facadeModuleId?.endsWith('/app.js') === true) visit(chunk.fileName);
  }
  const textOf = (loaded: boolean) =>
    chunks
      .filter((chunk) => upFront.has(chunk.fileName) === loaded)
      .map((chunk) => chunk.code)
      .join('\n');
  return { upFront: textOf(true), lazy: textOf(false) };
}

/**
 * The built files a module loads through its static imports (itself included), and the packages
 * they import: what any page that imports it reaches.
 */
function staticImportsOf(file: string) {
  const loaded = new Set<string>();
  const imported = new Set<string>();
  const visit = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    const code = readFileSync(path, 'utf8');
    for (const [, specifier = ''] of code.matchAll(/(?:import|from)\s*["']([^"']+)["']/g)) {
      if (specifier.startsWith('.')) visit(join(dirname(path), specifier));
      else imported.add(specifier);
    }
  };
  visit(file);
  return { loaded: [...loaded], imported: [...imported] };
}

/** The peers, left to the app's own bundle. */
const peers = ['react', 'react-dom', 'react/jsx-runtime', '@tanstack/react-query'];

describe('given plain Node with neither React nor msw installed', () => {
  it('cannot resolve react or msw there (the check is live)', async () => {
    const result = await node(consumers.plain, script("await import('react')"));
    expect(result.ok).toBe(false);
    expect((await node(consumers.plain, script("await import('msw')"))).ok).toBe(false);
  });

  it('imports agent-console-kit/core, a deliberate surface without internals', async () => {
    const result = await node(
      consumers.plain,
      script(
        "const core = await import('agent-console-kit/core'); console.log(JSON.stringify(Object.keys(core).sort()));",
      ),
    );
    expect(result.output).toContain('createAgentClient');
    const names = JSON.parse(result.output) as string[];
    expect(names).toEqual(
      expect.arrayContaining([
        'createRunStream',
        'defaultSseTransport',
        'agentQueryOptions',
        'agentSearchQueryOptions',
        'createAgentConversation',
        'classifyEvent',
      ]),
    );
    for (const internal of [
      'redact',
      'createNotifyScheduler',
      'readErrorResponse',
      'toNetworkError',
      'sleep',
      'backoffDelay',
      'durableRunStatusOf',
      'fetchSseTransport',
      'fetchEventSourceTransport',
      'createRunStore',
      // Out with the API cut (docs/decisions/0021-public-surface.md).
      'terminalRunStatuses',
      'terminalDurableRunStates',
      'durableRunStates',
      'isDurableRunState',
      'defaultIdleTimeoutMs',
      'defaultDurablePollPolicy',
      'agentQueryRetry',
      'AgentToolAuthorizations',
      'openToolAuthorization',
      'humanizeKey',
      'createLocalStorageThreadStore',
    ]) {
      expect(names).not.toContain(internal);
    }
    for (const hook of ['useAgent', 'AgentConsole']) expect(names).not.toContain(hook);
  });

  it('runs an agent with core against the testing entry mock server (fetch transport)', async () => {
    const result = await node(
      consumers.plain,
      script(`
        const { createAgentClient, createRunStream } = await import('agent-console-kit/core');
        const { createMockAgentServer, textEvents } = await import('agent-console-kit/testing');
        const server = await createMockAgentServer({
          agents: [{ agent: { agent_id: 'a', name: 'A', capabilities: {} }, run: { events: textEvents('Hello from the tarball') } }],
        });
        const final = await createRunStream(createAgentClient({ baseUrl: server.url })).start({ agentId: 'a' });
        await server.close();
        console.log(final.status + ': ' + final.text);
      `),
    );
    expect(result.output).toBe('done: Hello from the tarball');
  });

  it('ends a run whose event is too large, read in plain Node by the one transport, with an error of the very class core exports', async () => {
    const result = await node(
      consumers.plain,
      script(`
        const core = await import('agent-console-kit/core');
        const { createMockAgentServer, textEvents } = await import('agent-console-kit/testing');
        const server = await createMockAgentServer({
          agents: [{ agent: { agent_id: 'a', name: 'A', capabilities: {} }, run: { events: textEvents('x'.repeat(4096)) } }],
        });
        const final = await core.createRunStream(core.createAgentClient({ baseUrl: server.url }), { maxEventSize: 1024 }).start({ agentId: 'a' });
        await server.close();
        console.log(JSON.stringify({
          status: final.status,
          name: final.error?.name,
          sameClass: final.error?.constructor === core.AgentEventTooLargeError,
          tooLarge: final.error instanceof core.AgentEventTooLargeError,
          validation: final.error instanceof core.AgentValidationError,
        }));
      `),
    );
    expect(result.ok, result.output).toBe(true);
    expect(JSON.parse(result.output)).toEqual({
      status: 'error',
      name: 'AgentEventTooLargeError',
      sameClass: true,
      tooLarge: true,
      validation: true,
    });
  });

  it('proxies with agent-console-kit/server, no React: the token added, other paths refused', async () => {
    const result = await node(
      consumers.plain,
      script(`
        const server = await import('agent-console-kit/server');
        const { createAgentProxy, toNodeHandler } = server;
        const { createMockAgentServer } = await import('agent-console-kit/testing');
        const { createServer } = await import('node:http');
        const service = await createMockAgentServer();
        const app = createServer(toNodeHandler(createAgentProxy({ baseUrl: service.url, token: 'tarball-token' })));
        await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
        const origin = 'http://127.0.0.1:' + app.address().port + '/api/agent-service';
        const agent = await fetch(origin + '/api/agents/chat-agent');
        const other = await fetch(origin + '/rest/api/v1/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        const seen = service.requests.map((record) => record.path + ' ' + record.tokenFingerprint);
        app.closeAllConnections();
        app.close();
        await service.close();
        console.log(JSON.stringify([Object.keys(server).sort(), agent.status, other.status, seen]));
      `),
    );
    expect(JSON.parse(result.output)).toEqual([
      [
        'AgentStoreConflictError',
        'AgentStorePackageError',
        'createAgentProxy',
        'createPgliteStore',
        'createPostgresStore',
        'runGroupOf',
        'toNodeHandler',
      ],
      200,
      404,
      ['/api/agents/chat-agent oken'],
    ]);
  });

  it('imports neither store peer with /server; a store asked for without its peer names it', async () => {
    const result = await node(
      consumers.plain,
      script(`
        const server = await import('agent-console-kit/server');
        const outcome = async (make) => make().then(() => 'opened', (error) => [error.name, error.packageName, error.message]);
        console.log(JSON.stringify([
          await outcome(() => server.createPgliteStore()),
          await outcome(() => server.createPostgresStore({ connectionString: 'postgres://127.0.0.1:1/none' })),
        ]));
      `),
    );
    expect(JSON.parse(result.output)).toEqual([
      [
        'AgentStorePackageError',
        '@electric-sql/pglite',
        expect.stringContaining('npm install @electric-sql/pglite'),
      ],
      ['AgentStorePackageError', 'pg', expect.stringContaining('npm install pg')],
    ]);
  });

  it("loads core with require() (the default condition, Node's require of ESM)", async () => {
    const result = await node(consumers.plain, [
      '-e',
      "const core = require('agent-console-kit/core'); console.log(typeof core.createAgentClient)",
    ]);
    expect(result).toEqual({ ok: true, output: 'function' });
  });

  it('throws from a part loaded on demand (the durable run wire) errors of the very classes the app imports', async () => {
    const result = await node(
      consumers.plain,
      script(`
        const core = await import('agent-console-kit/core');
        const { createMockAgentServer } = await import('agent-console-kit/testing');
        const server = await createMockAgentServer({ agents: [{ agent: { agent_id: 'a', name: 'A', capabilities: {} } }] });
        const client = core.createAgentClient({ baseUrl: server.url, api: 'platform' });
        const error = await client.getDurableRun('a', 'f'.repeat(32)).catch((caught) => caught);
        await server.close();
        console.log(JSON.stringify({
          name: error.name,
          sameClass: error.constructor === core.AgentRunNotFoundError,
          notFound: error instanceof core.AgentRunNotFoundError,
          http: error instanceof core.AgentHttpError,
          agent: error instanceof core.AgentError,
          validation: error instanceof core.AgentValidationError,
          conflict: error instanceof core.AgentApprovalConflictError,
        }));
      `),
    );
    expect(result.ok, result.output).toBe(true);
    expect(JSON.parse(result.output)).toEqual({
      name: 'AgentRunNotFoundError',
      // One class per error at run time: the durable run wire imports the module the entry exports.
      sameClass: true,
      notFound: true,
      http: true,
      agent: true,
      validation: false,
      conflict: false,
    });
  });

  it('says msw is missing only for agent-console-kit/testing/msw', async () => {
    const result = await node(
      consumers.plain,
      script("await import('agent-console-kit/testing/msw')"),
    );
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/msw/);
  });
});

describe('given React installed', () => {
  it('imports the main entry in Node (server rendering of client components)', async () => {
    const result = await node(
      consumers.react,
      script(
        "const kit = await import('agent-console-kit'); console.log(typeof kit.useAgent, typeof kit.createAgentClient)",
      ),
    );
    expect(result).toEqual({ ok: true, output: 'function function' });
  });

  it('imports from the main entry the hooks, the components and only the core names a React app writes', async () => {
    const result = await node(
      consumers.react,
      script(
        "const kit = await import('agent-console-kit'); const core = await import('agent-console-kit/core'); console.log(JSON.stringify([Object.keys(kit), Object.keys(core)]))",
      ),
    );
    expect(result.ok, result.output).toBe(true);
    const [main, core] = JSON.parse(result.output) as [string[], string[]];
    expect(main).toEqual(
      expect.arrayContaining(['createAgentClient', 'AgentError', 'useAgent', 'AgentThread']),
    );
    // An engine or a server store is imported from agent-console-kit/core.
    for (const coreOnly of ['createRunStream', 'createAgentConversation', 'createDurableRun']) {
      expect(core).toContain(coreOnly);
      expect(main).not.toContain(coreOnly);
    }
    // A part is reached through its compound only.
    for (const part of ['AgentThreadRoot', 'AgentInputFormField', 'AgentApprovalCardSubmit']) {
      expect(main).not.toContain(part);
    }
  });

  it('imports the console entry in Node, and AgentConsole from it only', async () => {
    const result = await node(
      consumers.react,
      script(
        "const kit = await import('agent-console-kit'); const entry = await import('agent-console-kit/console'); console.log(JSON.stringify([Object.keys(entry), typeof entry.AgentConsole, 'AgentConsole' in kit, typeof kit.useAgentConsole]))",
      ),
    );
    expect(result.ok, result.output).toBe(true);
    expect(JSON.parse(result.output)).toEqual([['AgentConsole'], 'object', false, 'function']);
  });

  it('renders Markdown with agent-console-kit/markdown (react-markdown, the optional peer), no raw HTML', async () => {
    const result = await node(
      consumers.react,
      script(`
        const { renderMarkdown } = await import('agent-console-kit/markdown');
        const { renderToStaticMarkup } = await import('react-dom/server');
        console.log(renderToStaticMarkup(renderMarkdown('**bold** <b>raw</b> [x](javascript:alert(1))')));
      `),
    );
    expect(result.ok).toBe(true);
    expect(result.output).toContain('<strong>bold</strong>');
    expect(result.output).not.toContain('<b>');
    expect(result.output).not.toContain('javascript:');
  });

  it('under the react-server condition: core loads, the client-only main entry does not', async () => {
    const core = await node(consumers.react, [
      '--conditions=react-server',
      ...script(
        "const core = await import('agent-console-kit/core'); console.log(typeof core.createAgentClient)",
      ),
    ]);
    expect(core).toEqual({ ok: true, output: 'function' });
    const server = await node(consumers.react, [
      '--conditions=react-server',
      ...script(
        "const server = await import('agent-console-kit/server'); console.log(typeof server.createAgentProxy)",
      ),
    ]);
    expect(server).toEqual({ ok: true, output: 'function' });

    const main = await node(consumers.react, [
      '--conditions=react-server',
      ...script("await import('agent-console-kit')"),
    ]);
    expect(main.ok).toBe(false);
  });
});

describe('given the packed files', () => {
  const installed = join(consumers.plain, 'node_modules/agent-console-kit');
  const files = readdirSync(installed, { recursive: true, encoding: 'utf8' });

  it("starts the client entries (main, console) with 'use client', and no module core or testing loads", () => {
    const clientEntries = [join('dist', 'index.js'), join('dist', 'console.js')];
    for (const entry of clientEntries) {
      expect(readFileSync(join(installed, entry), 'utf8'), entry).toMatch(/^['"]use client['"];/);
    }
    const serverModules = files.filter(
      (file) => file.endsWith('.js') && !clientEntries.includes(file),
    );
    expect(serverModules.length).toBeGreaterThan(3);
    for (const file of serverModules) {
      expect(readFileSync(join(installed, file), 'utf8'), file).not.toMatch(/['"]use client['"]/);
    }
  });

  it('lets a bundler drop every component an app does not import', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      stdin: {
        contents:
          "export { createAgentClient, useAgentRunStream, useAgentConversation } from 'agent-console-kit';",
        resolveDir: consumers.react,
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      write: false,
      external: ['react', 'react-dom', 'react/jsx-runtime', '@tanstack/react-query'],
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).toContain('useSyncExternalStore');
    for (const className of ['ack-console', 'ack-event-log', 'ack-thread', 'ack-input-form']) {
      expect(code.includes(className), `${className} is in the bundle`).toBe(false);
    }
  });

  it('reads the event stream with its own scanner: no SSE library on the page, up front or lazy', async () => {
    const { upFront, lazy } = await splitPage("export * from 'agent-console-kit/core';");
    // An error code only eventsource-parser's source spells, and an error of fetch-event-source's.
    for (const text of ['max-buffer-size-exceeded', 'Expected content-type to be']) {
      expect(upFront, text).not.toContain(text);
      expect(lazy, text).not.toContain(text);
    }
    expect(upFront).toContain('text/event-stream');
  });

  it('loads what a page may never show up front on demand: the console parts a mode or an option needs, the durable run wire', async () => {
    const consolePage = await splitPage(
      "export { AgentConsole } from 'agent-console-kit/console';",
      peers,
    );
    expect(consolePage.upFront).toContain('ack-console');
    expect(consolePage.upFront).toContain('ack-thread');
    // The form and the thread list too, although a server renders them (it waits for them).
    for (const className of [
      'ack-event-log',
      'ack-run-history',
      'ack-approval',
      'ack-input-form',
      'ack-thread-list',
      'ack-tools',
      // The confirm before a durable turn is cancelled: only a durable run asks it.
      'ack-cancel-confirm',
      // A form agent's output.
      'ack-run-output',
    ]) {
      expect(consolePage.upFront.includes(className), `${className} up front`).toBe(false);
      expect(consolePage.lazy, className).toContain(className);
    }
    // A console in stream mode (the default) does not carry the durable run (its error text): a
    // durable conversation loads it on its first turn.
    const durableRunText = 'before starting another';
    expect(consolePage.upFront.includes(durableRunText), 'the durable run up front').toBe(false);
    expect(consolePage.lazy).toContain(durableRunText);
    // Nor the localStorage thread store, which only a durable console keeps its thread in.
    const threadStoreText = 'A thread needs a non-empty id.';
    expect(consolePage.upFront.includes(threadStoreText), 'the thread store up front').toBe(false);
    expect(consolePage.lazy).toContain(threadStoreText);

    // The hooks' page: neither the console's lazy parts nor the durable run wire (its
    // cancellation URL), which loads on the first durable call.
    const hooksPage = await splitPage(
      "export { createAgentClient, useAgent, useAgentRunStream } from 'agent-console-kit';",
      peers,
    );
    expect(hooksPage.upFront).toContain('text/event-stream');
    for (const text of ['ack-event-log', 'ack-input-form', 'ack-run-history', '/cancellations']) {
      expect(hooksPage.upFront.includes(text), `${text} up front`).toBe(false);
    }
    expect(hooksPage.lazy).toContain('/cancellations');
    // Nor the durable run's wire schemas (and the zod they need), which the main entry reached
    // through the run states it exports (docs/decisions/0014-bundle-size.md).
    expect(
      hooksPage.upFront.includes('pending_interactions'),
      'durable wire schemas up front',
    ).toBe(false);
    expect(hooksPage.lazy).toContain('pending_interactions');
    // Nor zod: the checks zod's compiler wrote answer up front, and zod's runtime loads only to
    // explain a refused answer (docs/decisions/0014-bundle-size.md).
    expect(hooksPage.upFront.includes('$ZodObject'), 'zod up front').toBe(false);
    expect(hooksPage.lazy).toContain('$ZodObject');

    // Nor on a conversation's page: a saved thread is checked by the checks zod's compiler wrote
    // (conversation-message-check.generated.ts), not by zod.
    const conversationPage = await splitPage(
      "export { useAgentConversation, AgentThread, AgentThreadComposer } from 'agent-console-kit';",
      peers,
    );
    expect(conversationPage.upFront).toContain('ack-thread');
    expect(conversationPage.upFront.includes('$ZodObject'), 'zod up front').toBe(false);
    expect(conversationPage.lazy).toContain('$ZodObject');
    expect(conversationPage.upFront).toContain('is malformed: nothing was sent.');
  });

  it("keeps the console's modules out of the main entry's import graph (they are agent-console-kit/console's)", () => {
    const fromMain = staticImportsOf(join(installed, 'dist/index.js'));
    const fromConsole = staticImportsOf(join(installed, 'dist/console.js'));
    const consoleModules = ['agent-console.js', 'console-lazy-parts.js'].map((name) =>
      join(installed, 'dist/components', name),
    );
    for (const module of consoleModules) {
      expect(fromConsole.loaded, module).toContain(module);
      expect(fromMain.loaded, module).not.toContain(module);
    }
  });

  it('builds each module once: no dist/lazy/, every import() names a module of dist/ itself, not a copy', () => {
    expect(files.filter((file) => file.startsWith(join('dist', 'lazy')))).toEqual([]);
    const modules = files
      .filter((file) => file.endsWith('.js'))
      .map((file) => join(installed, file));
    const targets = modules.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/import\(\s*["'](\.[^"']*)["']\s*\)/g)].map(
        ([, specifier = '']) => join(dirname(file), specifier),
      ),
    );
    // The console's six parts, the durable wire and turn, zod's explanation, the check of tools.
    expect(new Set(targets).size).toBeGreaterThanOrEqual(10);
    for (const target of targets) expect(modules, target).toContain(target);
  });

  it('defines each error class in one module of the package (one class per error at run time)', () => {
    const definedIn = new Map<string, string[]>();
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(installed, file), 'utf8');
      for (const [, name = ''] of code.matchAll(/\bname = "(\w+Error)";/g)) {
        definedIn.set(name, [...(definedIn.get(name) ?? []), file]);
      }
    }
    expect(definedIn.size).toBeGreaterThan(15);
    for (const [name, where] of definedIn) expect(where, name).toHaveLength(1);
  });

  it('keeps up front, in Vite, no module that only a part loaded on demand uses (the durable errors)', async () => {
    const hooksPage = await splitPageWithVite(
      "export { createAgentClient, useAgent, useAgentRunStream } from 'agent-console-kit';",
      peers,
    );
    // The durable run's errors, which the durable run wire throws, by the names they give.
    for (const text of [
      'AgentStartUnknownError',
      'AgentRunMismatchError',
      'AgentCancelUnavailableError',
    ]) {
      expect(hooksPage.upFront.includes(text), `${text} up front`).toBe(false);
      expect(hooksPage.lazy).toContain(text);
    }
    // The errors the page's own requests throw stay up front, the wire's checks them once.
    expect(hooksPage.upFront).toContain('AgentHttpError');
    expect(hooksPage.lazy.includes('AgentHttpError'), 'a second AgentHttpError').toBe(false);
  });

  it('has one copy of each error class in an esbuild page too, up front or on demand', async () => {
    const hooksPage = await splitPage(
      "export { createAgentClient, useAgent, useAgentRunStream } from 'agent-console-kit';",
      peers,
    );
    // Where esbuild puts the durable errors is its own (it splits every module an entry and an
    // import() share into a chunk the page loads, evanw/esbuild#16: docs/decisions/0014-bundle-size.md).
    const all = `${hooksPage.upFront}\n${hooksPage.lazy}`;
    for (const text of ['"AgentStartUnknownError"', '"AgentHttpError"']) {
      expect(all.split(text), text).toHaveLength(2);
    }
  });

  it("builds a hooks-only page in esbuild with no chunk for the console's lazy parts (esbuild keeps the chunk of every import() an entry reaches, evanw/esbuild#3704)", async () => {
    // React bundled, as in an app: a chunk that imports React splits it out of the page's entry.
    const page = await splitPage(
      "export { AgentClientProvider, createAgentClient, useAgent, useAgentRunStream } from 'agent-console-kit';",
    );
    // A chunk of a console part.
    const consolePartsOf = (outputs: typeof page.outputs) =>
      Object.values(outputs)
        .map((chunk) => chunk.entryPoint ?? '')
        .filter((entryPoint) => /agent-console-kit\/dist\/components\//.test(entryPoint));
    expect(consolePartsOf(page.outputs)).toEqual([]);
    // The same search finds the ten on the console's page (it is live; the tools part, the
    // confirm before a durable turn is cancelled, a form agent's output, the thread list's
    // threads and the explanation of an error since).
    const consolePage = await splitPage(
      "export { AgentConsole } from 'agent-console-kit/console';",
    );
    expect(consolePartsOf(consolePage.outputs)).toHaveLength(10);
    const reactInEntry = Object.keys(page.entry?.inputs ?? {}).some((input) =>
      input.includes('node_modules/react/cjs/react.production'),
    );
    expect(reactInEntry, "React in the page's own file").toBe(true);
  });

  it('loads agent-console-kit/server without zod, React or node:http (a small edge module)', () => {
    const { loaded, imported } = staticImportsOf(join(installed, 'dist/server/index.js'));

    expect(loaded.length).toBeGreaterThan(1);
    expect(imported).toEqual([]);
  });

  it('ships LICENSE and no test files or their source maps', () => {
    expect(files).toContain('LICENSE');
    expect(files.filter((file) => /(^|\/)test\/|\.test\.|stories/.test(file))).toEqual([]);
  });
});
