import type { TestProject } from 'vitest/node';
import { createMockAgentServer, demoAgents } from 'agent-console-kit/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The origin of the mock agent server the browser tests talk to. */
    mockServerUrl: string;
  }
}

/** Starts the mock agent service in node for the browser project; tests `inject('mockServerUrl')`. */
export default async function setup(project: TestProject) {
  const server = await createMockAgentServer({ agents: demoAgents });
  project.provide('mockServerUrl', server.url);
  return async () => {
    await server.close();
  };
}
