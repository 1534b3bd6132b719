/**
 * The package's command (`npx agent-console-kit mock --port 4000 --token dev-secret`): the mock
 * agent service as a development backend, serving the demo agents on both API prefixes until
 * SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import {
  createMockAgentServer,
  createMockAgentService,
  demoAgents,
  type MockAgentServer,
  type MockAgentService,
} from '../testing/index.js';

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
  process.stderr.write(`agent-console-kit: ${message}\n\n${usage}`);
  process.exit(2);
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
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port: not a port number`);
  const api = values.api;
  if (api !== 'rest-v1' && api !== 'platform') fail('--api: rest-v1 or platform');
  const token = values.token ?? process.env['AGENT_CONSOLE_KIT_MOCK_TOKEN'];
  if (token === '') fail('--token: empty');

  // Installed before listening, so a signal that comes as soon as the URL is printed is handled.
  let server: MockAgentServer | undefined = undefined;
  const stop = () => {
    void (server?.close() ?? Promise.resolve()).then(() => {
      process.stdout.write('Mock agent service stopped.\n');
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

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
    (error: unknown) => {
      const code = (error as { code?: unknown }).code;
      fail(
        code === 'EADDRINUSE'
          ? `port ${port} is in use: choose another with --port`
          : `cannot listen: ${error instanceof Error ? error.message : String(error)}`,
      );
    },
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
    `Agents (${demoAgents.length}):`,
    ...demoAgents.map(
      ({ agent }) => `  ${agent.agent_id.padEnd(22)} ${JSON.stringify(agent.name)}`,
    ),
    'Each request is printed as it is answered. Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'mock') await mock(rest);
else if (command === undefined || command === '--help' || command === 'help') {
  process.stdout.write(usage);
} else fail(`unknown command ${JSON.stringify(command)}`);
