import type { TestProject } from 'vitest/node';
import { createMockAgentServer, demoAgents } from 'agent-console-kit/testing';
import { startHostileEchoServer } from './hostile-echo-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The origin of the mock agent server the browser tests talk to. */
    mockServerUrl: string;
    /** The origin of a service that echoes the token and sends very deep payloads. */
    hostileEchoServerUrl: string;
  }
}

/** Starts the mock agent service in node for the browser project; tests `inject('mockServerUrl')`. */
export default async function setup(project: TestProject) {
  const server = await createMockAgentServer({ agents: demoAgents });
  project.provide('mockServerUrl', server.url);
  const hostile = await startHostileEchoServer();
  project.provide('hostileEchoServerUrl', hostile.url);
  return async () => {
    await server.close();
    await hostile.close();
  };
}
