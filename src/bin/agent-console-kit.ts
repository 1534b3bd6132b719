/**
 * The package's command: `npx agent-console-kit mock --port 4000 --token dev-secret` serves the
 * mock agent service (the demo agents on both API prefixes); `npx agent-console-kit dev --data
 * ./.agent-data` the mock, the proxy and its store together (dev-backend.ts). Both until SIGINT or
 * SIGTERM.
 */
import { parseArgs } from 'node:util';
import {
  createMockAgentServer,
  createMockAgentService,
  demoAgents,
  type MockAgentServer,
  type MockAgentService,
} from '../testing/index.js';
import { startDevBackend, type DevBackend } from './dev-backend.js';

const usage = `Usage: agent-console-kit mock [options]

Serve the demo agents of the mock agent service (both API generations) for development.

Options:
  --port <number>   The port to listen on (default 4000; 0 picks a free one).
  --host <address>  The interface to listen on (default 127.0.0.1).
  --token <secret>  Require "Authorization: Bearer <secret>" on every request; others get 401
                    (default: none required). Also read from AGENT_CONSOLE_KIT_MOCK_TOKEN.
  --api <api>       The generation the printed client snippet uses: rest-v1 or platform
                    (default rest-v1). Both are served either way.
  --help            Show this text.
`;

function fail(message: string): never {
  return failWith(usage, message);
}

function failWith(text: string, message: string): never {
  process.stderr.write(`agent-console-kit: ${message}\n\n${text}`);
  process.exit(2);
}

/** The --port value as a number, or the command fails with `text`. */
function portOption(value: string, text: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    failWith(text, '--port: not a port number');
  return port;
}

/** Why a server did not start: a port in use is named, with the option to choose another. */
function startFailure(error: unknown, port: number, cannot: string): string {
  return (error as { code?: unknown }).code === 'EADDRINUSE'
    ? `port ${port} is in use: choose another with --port`
    : `${cannot}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * SIGINT and SIGTERM close what `closable` gives (nothing yet when the signal comes before it
 * listens), print `stopped` and exit.
 */
function stopOnSignals(closable: () => { close(): Promise<void> } | undefined, stopped: string) {
  const stop = () => {
    void (closable()?.close() ?? Promise.resolve()).then(() => {
      process.stdout.write(`${stopped}\n`);
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The demo agents, one line each, and how the request log looks. */
function agentLines(): string[] {
  return [
    `Agents (${demoAgents.length}):`,
    ...demoAgents.map(
      ({ agent }) => `  ${agent.agent_id.padEnd(22)} ${JSON.stringify(agent.name)}`,
    ),
    'Each request is printed as it is answered. Press Ctrl+C to stop.',
  ];
}

const devUsage = `Usage: agent-console-kit dev [options]

A development backend in one process: the mock agent service (platform generation), the proxy
in front of it at /api/agent-service, and the proxy's store of threads and durable runs in an
embedded PGlite database (needs: npm install @electric-sql/pglite). No sign-in: every request is
one demo user, so two browsers against it are two devices of that user. Never expose it.

Options:
  --data <folder>   The store's data folder, made when absent (default: in memory, gone on exit).
  --port <number>   The port to listen on (default 4000; 0 picks a free one).
  --host <address>  The interface to listen on (default 127.0.0.1).
  --user <id>       The demo user's id (default demo-user).
  --allow-origin <origin>
                    A page origin that may call it with its cookies (CORS), e.g. Storybook's
                    http://localhost:6006; repeat for several (default: none, same origin only).
  --help            Show this text.
`;

async function dev(args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        data: { type: 'string' },
        port: { type: 'string', default: '4000' },
        host: { type: 'string', default: '127.0.0.1' },
        user: { type: 'string', default: 'demo-user' },
        'allow-origin': { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    failWith(devUsage, error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(devUsage);
    return;
  }
  const port = portOption(values.port, devUsage);
  if (!/^[\w.@:-]{1,200}$/.test(values.user))
    failWith(devUsage, '--user: letters, digits and _ . @ : -');
  for (const origin of values['allow-origin']) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      failWith(devUsage, `--allow-origin: not an origin: ${origin}`);
  }

  let backend: DevBackend | undefined = undefined;
  stopOnSignals(() => backend, 'Development backend stopped.');

  backend = await startDevBackend({
    port,
    host: values.host,
    dataDir: values.data,
    user: values.user,
    allowOrigins: values['allow-origin'],
    log: (line) => process.stdout.write(`${line}\n`),
  }).catch((error: unknown) => failWith(devUsage, startFailure(error, port, 'cannot start')));
  const lines = [
    `Development backend listening on ${backend.url}`,
    `  proxy:   ${backend.proxyUrl} (agents, /threads, /runs)`,
    `  client:  createAgentClient({ baseUrl: '${backend.proxyUrl}', api: 'platform' })`,
    `  threads: createServerThreadStore({ baseUrl: '${backend.proxyUrl}' })`,
    `  store:   ${values.data === undefined ? 'in memory (start with --data <folder> to keep it)' : `PGlite in ${values.data}`}`,
    `  user:    ${values.user} (every request; no sign-in)`,
    ...agentLines(),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function mock(args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        port: { type: 'string', default: '4000' },
        host: { type: 'string', default: '127.0.0.1' },
        token: { type: 'string' },
        api: { type: 'string', default: 'rest-v1' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const port = portOption(values.port, usage);
  const api = values.api;
  if (api !== 'rest-v1' && api !== 'platform') fail('--api: rest-v1 or platform');
  const token = values.token ?? process.env['AGENT_CONSOLE_KIT_MOCK_TOKEN'];
  if (token === '') fail('--token: empty');

  // Installed before listening, so a signal that comes as soon as the URL is printed is handled.
  let server: MockAgentServer | undefined = undefined;
  stopOnSignals(() => server, 'Mock agent service stopped.');

  const service = createMockAgentService(token === undefined ? {} : { token });
  // One line per request, once answered: method, path (never the query or a header) and status.
  const logged: MockAgentService = Object.assign(Object.create(service) as MockAgentService, {
    async handle(request: Request) {
      const response = await service.handle(request);
      process.stdout.write(
        `${request.method} ${new URL(request.url).pathname} ${response.status}\n`,
      );
      return response;
    },
  });
  server = await createMockAgentServer({ port, host: values.host, service: logged }).catch(
    (error: unknown) => fail(startFailure(error, port, 'cannot listen')),
  );

  // The token itself is never printed: only whether one is required.
  const lines = [
    `Mock agent service listening on ${server.url}`,
    `  legacy (rest-v1):  ${server.url}/rest/api/v1/agents/<agent id>`,
    `  platform:          ${server.url}/api/agents/<agent id>`,
    token === undefined
      ? '  token: none required (start with --token to require one)'
      : '  token: required (Authorization: Bearer <the --token value>); others answer 401',
    `  client: createAgentClient({ baseUrl: '${server.url}'${api === 'platform' ? ", api: 'platform'" : ''}, token })`,
    ...agentLines(),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'mock') await mock(rest);
else if (command === 'dev') await dev(rest);
else if (command === undefined || command === '--help' || command === 'help') {
  process.stdout.write(`${usage}\n${devUsage}`);
} else fail(`unknown command ${JSON.stringify(command)}`);
