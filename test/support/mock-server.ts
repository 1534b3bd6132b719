/**
 * The mock agent server as tests set it up: one per file, one per test, or one agent per test.
 * Every server started here is closed by the hooks it registers.
 */
import { afterAll, afterEach, beforeAll, beforeEach, onTestFinished } from 'vitest';
import {
  createMockAgentServer,
  type MockAgentSchemas,
  type MockAgentServer,
  type MockAgentServerOptions,
  type MockRunScenario,
} from 'agent-console-kit/testing';

/** Options of {@link setUpMockServer}. */
export interface SetUpMockServerOptions {
  /**
   * `'file'`: started before the first test, reset (records, counters, injections) before each
   * test, closed after the last. `'test'`: a fresh server for each test, closed after it.
   * @default 'file'
   */
  scope?: 'file' | 'test';
}

/**
 * Registers the hooks that run a mock server for this file, and returns it: a stand-in that
 * forwards to the running server, so tests and hooks use it as the server itself.
 */
export function setUpMockServer(
  options: MockAgentServerOptions = {},
  { scope = 'file' }: SetUpMockServerOptions = {},
): MockAgentServer {
  let current: MockAgentServer | undefined;
  const start = async () => {
    current = await createMockAgentServer(options);
  };
  const stop = async () => {
    await current?.close();
    current = undefined;
  };
  if (scope === 'file') {
    beforeAll(start);
    beforeEach(() => current?.reset());
    afterAll(stop);
  } else {
    beforeEach(start);
    afterEach(stop);
  }
  return new Proxy({} as MockAgentServer, {
    get(_target, key) {
      if (current === undefined) {
        throw new Error(`The mock server is not running here (read of ${String(key)}).`);
      }
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/** Starts a mock server for the current test only; it closes when the test ends. */
export async function serveForTest(options: MockAgentServerOptions = {}): Promise<MockAgentServer> {
  const server = await createMockAgentServer(options);
  onTestFinished(() => server.close());
  return server;
}

/** Serves one agent, `agent`, that runs `run`, for the current test only. */
export function serve(run: MockRunScenario, schemas?: MockAgentSchemas): Promise<MockAgentServer> {
  return serveOne({ agent_id: 'agent', name: 'Agent' }, run, schemas);
}

/** Serves one chat agent, `chat` (named Chat), that runs `run`, for the current test only. */
export function serveChat(run: MockRunScenario): Promise<MockAgentServer> {
  return serveOne({ agent_id: 'chat', name: 'Chat' }, run);
}

function serveOne(
  agent: { agent_id: string; name: string },
  run: MockRunScenario,
  schemas?: MockAgentSchemas,
): Promise<MockAgentServer> {
  return serveForTest({
    agents: [{ agent: { ...agent, capabilities: {} }, run, ...(schemas ? { schemas } : {}) }],
  });
}

/** The URL of a mock server that has stopped: a connection to it is refused. */
export async function deadUrl(): Promise<string> {
  const server = await createMockAgentServer({ agents: [] });
  await server.close();
  return server.url;
}
