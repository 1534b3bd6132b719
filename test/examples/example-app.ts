/**
 * Helpers of the example tests: an example copied from examples/ and installed from the packed
 * tarball as a user would (`npm ci`), its server started as a child process, and Chromium.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
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
/** Quiet, offline-first npm; no telemetry from Next.js. */
const quiet = { NEXT_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false' };

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

/**
 * Copies examples/<name> beside the packed tarball and installs it with `npm ci` (its own
 * lockfile). The lockfile's integrity of the tarball is dropped: the tarball is packed afresh.
 */
export async function installExample(name: string): Promise<string> {
  const folder = join(inject('examplesBase'), name);
  cpSync(join(examples, name), folder, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist|\.next|next-env\.d\.ts)$/.test(source),
  });
  const lockPath = join(folder, 'package-lock.json');
  const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const entry = lock.packages['node_modules/agent-console-kit'];
  if (entry === undefined) throw new Error(`${name}: the lockfile has no agent-console-kit`);
  delete entry['integrity'];
  writeFileSync(lockPath, JSON.stringify(lock, null, 2));
  await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], folder);
  return folder;
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
