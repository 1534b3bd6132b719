import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';

// The command as npx runs it: the file package.json `bin` names, in the packed tarball, in a plain
// `node` process.
const consumers = inject('consumers');
const installed = join(consumers.plain, 'node_modules/agent-console-kit');

interface Command {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

const started: Command[] = [];

async function startCommand(args: string[]): Promise<Command> {
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    bin?: Record<string, string>;
  };
  const bin = manifest.bin?.['agent-console-kit'];
  if (bin === undefined) throw new Error('package.json names no agent-console-kit bin');
  const child = spawn(process.execPath, [join(installed, bin), ...args], { cwd: consumers.plain });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 10_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`the command exited:\n${output}`)));
  });
  const command = { child, url, output: () => output, exited };
  started.push(command);
  return command;
}

afterEach(async () => {
  for (const command of started.splice(0)) {
    if (command.child.exitCode === null) command.child.kill('SIGKILL');
    await command.exited;
  }
});

/** The request lines the command printed: `GET /api/agents/chat-agent 401`. */
const requestLines = (output: string) =>
  output.split('\n').filter((line) => /^(GET|POST|HEAD|OPTIONS) \//.test(line));

describe('given `agent-console-kit mock --token dev-secret`', () => {
  it('prints what it serves: the URL, both prefixes and the demo agents, not the token', async () => {
    const command = await startCommand(['mock', '--port', '0', '--token', 'dev-secret']);
    const output = command.output();
    expect(output).toContain(`${command.url}/rest/api/v1/agents/`);
    expect(output).toContain(`${command.url}/api/agents/`);
    expect(output).toMatch(/token: required/);
    for (const id of ['chat-agent', 'form-agent', 'slow-agent']) expect(output).toContain(id);
    expect(output).not.toContain('dev-secret');
  });

  it('answers 401 without the token on both prefixes and serves with it; counts each', async () => {
    const command = await startCommand(['mock', '--port', '0', '--token', 'dev-secret']);
    const platform = await fetch(`${command.url}/api/agents/chat-agent`);
    expect(platform.status).toBe(401);
    expect(await platform.json()).toMatchObject({ status: 401, code: 'authentication_required' });
    const legacy = await fetch(`${command.url}/rest/api/v1/agents/chat-agent`);
    expect(legacy.status).toBe(401);
    expect(typeof (await legacy.json())).toBe('string');
    const served = await fetch(`${command.url}/api/agents/chat-agent`, {
      headers: { Authorization: 'Bearer dev-secret' },
    });
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ agent: { agent_id: 'chat-agent' } });

    await expect.poll(() => requestLines(command.output()).length).toBe(3);
    expect(requestLines(command.output())).toEqual([
      'GET /api/agents/chat-agent 401',
      'GET /rest/api/v1/agents/chat-agent 401',
      'GET /api/agents/chat-agent 200',
    ]);
    expect(command.output()).not.toContain('dev-secret');
  });

  it('stops on SIGTERM and on SIGINT, exiting 0', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const command = await startCommand(['mock', '--port', '0', '--token', 'dev-secret']);
      command.child.kill(signal);
      expect(await command.exited).toBe(0);
      await expect(fetch(command.url)).rejects.toThrow();
    }
  });
});

describe('given `agent-console-kit mock` without a token', () => {
  it('serves requests without one, and says so', async () => {
    const command = await startCommand(['mock', '--port', '0']);
    expect(command.output()).toMatch(/token: none required/);
    expect((await fetch(`${command.url}/api/agents/chat-agent`)).status).toBe(200);
  });
});

describe('given a wrong command line', () => {
  it('exits 2 with the usage, listening nowhere', async () => {
    const child = spawn(process.execPath, [
      join(installed, 'dist/bin/agent-console-kit.js'),
      'mock',
      '--port',
      'many',
    ]);
    let output = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(output).toContain('Usage: agent-console-kit mock');
  });
});
