/**
 * Helpers of the example tests: an example copied from examples/ and installed from the packed
 * tarball with the commands examples/README.md gives, its server started as a child process, and
 * Chromium.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type RequestOptions } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright';
import { expect, inject } from 'vitest';
import type { MockAgentServer } from 'agent-console-kit/testing';
import { chromiumLaunchOptions } from '../../scripts/find-chromium.mjs';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const execute = promisify(execFile);
/** Quiet, offline-first npm (as settings: the commands stay the README's); no telemetry from Next.js. */
const quiet = {
  NEXT_TELEMETRY_DISABLED: '1',
  npm_config_update_notifier: 'false',
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

/** Runs a command; on failure the error carries its output. */
export async function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  try {
    const { stdout, stderr } = await execute(command, args, {
      cwd,
      env: { ...process.env, ...quiet, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed: ${failure.message}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    );
  }
}

/** A command of examples/README.md: its `NAME=value` environment, then its words. */
export interface ReadmeCommand {
  readonly line: string;
  readonly env: Record<string, string>;
  readonly command: string;
  readonly args: string[];
}

/** A line's words: plain, "double" or 'single' quoted; anything else a shell does is refused. */
function shellWords(line: string): string[] {
  if (/[$`|&;<>()\\*?#]/.test(line.replace(/"[^"]*"|'[^']*'/g, ''))) {
    throw new Error(`examples/README.md: "${line}" is more than words for a test to follow`);
  }
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
}

/**
 * The commands examples/README.md gives for examples/<name>: the `sh` block whose first line is
 * `cd examples/<name>`, one command a line, its environment assignments apart.
 */
export function readmeCommands(name: string): ReadmeCommand[] {
  const readme = readFileSync(join(examples, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/^```sh\n([\s\S]*?)\n```$/gm)]
    .map((match) => (match[1] ?? '').split('\n'))
    .find((lines) => lines[0] === `cd examples/${name}`);
  if (block === undefined) throw new Error(`examples/README.md: no "cd examples/${name}" block`);
  return block.slice(1).map((line) => {
    const words = shellWords(line);
    const env: Record<string, string> = {};
    while (/^[A-Z_]+=/.test(words[0] ?? '')) {
      const [key = '', ...value] = (words.shift() ?? '').split('=');
      env[key] = value.join('=');
    }
    const [command = '', ...args] = words;
    return { line, env, command, args };
  });
}

/** An example installed as examples/README.md says, and the README's last command, to run it. */
export interface InstalledExample {
  readonly folder: string;
  readonly start: ReadmeCommand;
  /** What the install and build commands printed. */
  readonly output: string;
}

/**
 * Copies examples/<name> beside the packed tarball (in a folder laid out as the repository is)
 * and runs the README's commands for it, as written, but the last one (which starts the app):
 * `npm ci` with its own lockfile, then its build. Nothing in the copy is changed first.
 */
export async function installExample(name: string): Promise<InstalledExample> {
  const folder = join(inject('examplesBase'), 'examples', name);
  cpSync(join(examples, name), folder, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist|\.next|next-env\.d\.ts)$/.test(source),
  });
  const commands = readmeCommands(name);
  const start = commands.pop();
  if (start === undefined) throw new Error(`examples/README.md: no commands for ${name}`);
  let output = '';
  for (const { command, args, env } of commands) output += await run(command, args, folder, env);
  return { folder, start, output };
}

/**
 * The README's start command with the test's service and token in place of the README's: the
 * README sets exactly `AGENT_SERVICE_URL` and `AGENT_SERVICE_TOKEN`, and nothing else.
 */
export function startEnvironment(
  start: ReadmeCommand,
  values: { AGENT_SERVICE_URL: string; AGENT_SERVICE_TOKEN: string },
): Record<string, string> {
  expect(Object.keys(start.env).sort(), start.line).toEqual([
    'AGENT_SERVICE_TOKEN',
    'AGENT_SERVICE_URL',
  ]);
  return { ...values };
}

/** A free port on 127.0.0.1 (for servers that cannot be given port 0). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A server started as a child process (its own process group, stopped with it). */
export interface StartedServer {
  readonly output: () => string;
  stop(): Promise<void>;
}

export async function startServer(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<StartedServer> {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { ...process.env, ...quiet, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready:\n${output}`)), 60_000);
    const take = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before ready:\n${output}`));
    });
  });
  return {
    output: () => output,
    async stop() {
      const group = child.pid === undefined ? undefined : -child.pid;
      const signal = (name: NodeJS.Signals) => {
        try {
          if (group !== undefined) process.kill(group, name);
        } catch {
          // The group is gone already.
        }
      };
      if (child.exitCode === null) signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      // A worker the server started may outlive it and hold the pipes (and this test worker) open.
      signal('SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}

/** What a page said and asked for: console messages, page errors and its requests. */
export interface PageWatch {
  console: string[];
  errors: string[];
  requests: { method: string; url: string; headers: Record<string, string> }[];
  /** Answers of 400 and more, as `404 /path`. */
  failures: string[];
}

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { console: [], errors: [], requests: [], failures: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      watch.console.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) {
      watch.failures.push(`${response.status()} ${new URL(response.url()).pathname}`);
    }
  });
  page.on('request', (request) =>
    watch.requests.push({
      method: request.method(),
      url: request.url(),
      headers: request.headers(),
    }),
  );
  return watch;
}

/** The page's requests to the proxy, as `GET /api/agent-service/…` paths. */
export function proxyRequests(watch: PageWatch): string[] {
  return watch.requests
    .filter((request) => new URL(request.url).pathname.startsWith('/api/agent-service/'))
    .map((request) => `${request.method} ${new URL(request.url).pathname}`);
}

/**
 * No page error, no console error or warning (a hydration mismatch is one), no failed request,
 * and the token in none of the page's requests.
 */
export function pageProblems(watch: PageWatch, token: string) {
  return {
    errors: watch.errors,
    console: watch.console,
    failures: watch.failures,
    tokenInRequests: JSON.stringify(watch.requests).includes(token),
  };
}

/**
 * Sends a message to the slow chat agent, waits until the service has streamed part of the answer,
 * presses Stop and waits until the service's stream is closed: what it recorded of that run.
 */
export async function stopSlowChatTurn(page: Page, mock: MockAgentServer) {
  await page.getByRole('textbox', { name: 'Message' }).fill('Take your time');
  await page.keyboard.press('Enter');
  await mock.waitFor(() => (mock.runRequests('slow-chat-agent')[0]?.eventsSent ?? 0) >= 2, 10_000);
  expect(mock.openStreams).toBe(1);
  await page.getByRole('button', { name: 'Stop' }).click();
  await mock.waitFor(() => mock.openStreams === 0, 5_000);
  return mock.runRequests('slow-chat-agent')[0];
}

/** A row of examples/README.md's table of answers to other methods. */
export interface MethodAnswer {
  method: string;
  status: number;
  allow: string | null;
}

/**
 * The table of examples/README.md of what each app answers for other methods: the column of
 * `framework`, as `{ method, status, allow }` (`allow` the `Allow` header given, else null).
 */
export function methodAnswers(framework: string): MethodAnswer[] {
  const readme = readFileSync(join(examples, 'README.md'), 'utf8');
  const rows = readme
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const header = rows.find((cells) => cells[0] === 'Method');
  const column = header?.findIndex((cell) => cell.startsWith(framework)) ?? -1;
  if (column < 1) throw new Error(`examples/README.md: no method table with a ${framework} column`);
  return rows
    .filter((cells) => /^`[A-Z]+`$/.test(cells[0] ?? ''))
    .map((cells) => {
      const cell = cells[column] ?? '';
      return {
        method: (cells[0] ?? '').replaceAll('`', ''),
        status: Number(/^\d{3}/.exec(cell)?.[0]),
        allow: /`Allow: ([^`]+)`/.exec(cell)?.[1] ?? null,
      };
    });
}

/** One request with node:http: its status, headers and body. */
function httpRequest(url: string, options: RequestOptions) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const outgoing = request(url, options, (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
        );
      });
      outgoing.once('error', reject);
      outgoing.end();
    },
  );
}

/**
 * What the app at `appUrl` answers each row's method on an agent operation's path (node:http, not
 * fetch: it sends any method; OPTIONS as a cross-site CORS preflight). No answer grants another
 * site access (no Access-Control-Allow-Origin) or holds the token.
 */
export async function answersTo(
  rows: MethodAnswer[],
  appUrl: string,
  token: string,
): Promise<MethodAnswer[]> {
  const answers: MethodAnswer[] = [];
  for (const { method } of rows) {
    const answer = await httpRequest(`${appUrl}/api/agent-service/rest/api/v1/agents/chat-agent`, {
      method,
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
    });
    answers.push({ method, status: answer.status, allow: answer.headers['allow'] ?? null });
    expect(answer.headers['access-control-allow-origin'], method).toBeUndefined();
    expect(answer.body, method).not.toContain(token);
  }
  return answers;
}
