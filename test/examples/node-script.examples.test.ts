import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockAgentServer, type MockAgentServer } from 'agent-console-kit/testing';
import { installExample, startEnvironment, type ReadmeCommand } from './example-app.js';

// examples/node-script/run.mjs as a user runs it: plain JavaScript on Node 20, installed from the
// packed tarball with the commands of examples/README.md, agent-console-kit/core only, the service
// and token from the environment.
const execute = promisify(execFile);
const token = `node-script-${Math.random().toString(36).slice(2)}-secret`;
let mock: MockAgentServer;
let folder: string;
let readmeRun: ReadmeCommand;

beforeAll(async () => {
  mock = await createMockAgentServer({ token });
  ({ folder, start: readmeRun } = await installExample('node-script'));
}, 300_000);

afterAll(async () => {
  await mock?.close();
});

beforeEach(() => {
  mock.reset();
});

async function runScript(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await execute(process.execPath, ['run.mjs', ...args], {
      cwd: folder,
      env: { ...process.env, AGENT_SERVICE_URL: mock.url, AGENT_SERVICE_TOKEN: token, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

describe('given the Node script', () => {
  it('installs no React: the server-safe core needs none', () => {
    expect(existsSync(join(folder, 'node_modules/agent-console-kit/dist/core/index.js'))).toBe(
      true,
    );
    for (const name of ['react', 'react-dom', '@tanstack/react-query', '@tanstack/react-virtual']) {
      expect(existsSync(join(folder, 'node_modules', name)), name).toBe(false);
    }
  });

  it('sends a message to a chat agent and prints the answer, run as the README says', async () => {
    // The README's command, with the test's service and token in its environment.
    expect(readmeRun.command).toBe('node');
    expect(readmeRun.args.slice(0, 2)).toEqual(['run.mjs', 'chat-agent']);
    startEnvironment(readmeRun, { AGENT_SERVICE_URL: mock.url, AGENT_SERVICE_TOKEN: token });
    const result = await runScript(readmeRun.args.slice(1));

    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('You asked "Where is my laptop?"');
    expect(mock.postCount('chat-agent')).toBe(1);
    expect(mock.runRequests('chat-agent')[0]?.tokenFingerprint).toBe(token.slice(-4));
  });

  it('runs a form agent with --input values, typed by the form’s fields', async () => {
    const result = await runScript([
      'form-agent',
      '--input',
      'title=New website',
      '--input',
      'due_date=2026-12-01',
      '--input',
      'budget=1200',
    ]);

    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Thanks, the project intake is filed.');
    const body = mock.runRequests('form-agent')[0]?.body as { input: Record<string, unknown> };
    expect(body.input).toMatchObject({
      title: 'New website',
      due_date: '2026-12-01',
      budget: 1200,
      priority: 'medium',
      details: '',
    });
  });

  it('names the missing fields of a form and sends no run', async () => {
    const result = await runScript(['form-agent', '--input', 'title=New website']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--input due_date=');
    expect(mock.postCount('form-agent')).toBe(0);
  });

  it('fails with the service’s 401 on a wrong token, and never prints the token', async () => {
    const wrong = `${token}-wrong`;
    const result = await runScript(['chat-agent', 'Hello'], { AGENT_SERVICE_TOKEN: wrong });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/401/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(token);
    expect(mock.requests.map((record) => record.status)).toEqual([401]);
  });
});
