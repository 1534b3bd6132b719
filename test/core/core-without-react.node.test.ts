import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createMockAgentServer } from 'agent-console-kit/testing';

// Any module that reaches for React while these are mocked fails to load.
vi.mock('react', () => {
  throw new Error('react was imported');
});
vi.mock('react-dom', () => {
  throw new Error('react-dom was imported');
});
vi.mock('@tanstack/react-query', () => {
  throw new Error('@tanstack/react-query was imported');
});

const coreFolder = fileURLToPath(new URL('../../src/core/', import.meta.url));
const serverFolder = fileURLToPath(new URL('../../src/server/', import.meta.url));

describe('given plain Node without React or a DOM', () => {
  it('loads src/core and retrieves an agent with it', async () => {
    expect(typeof window).toBe('undefined');
    const core = await import('../../src/core/index.js');
    const server = await createMockAgentServer({
      agents: [{ agent: { agent_id: 'plain', name: 'Plain', capabilities: {} } }],
    });
    try {
      const client = core.createAgentClient({ baseUrl: server.url, api: 'platform' });
      await expect(client.getAgent('plain')).resolves.toMatchObject({ name: 'Plain' });
    } finally {
      await server.close();
    }
  });

  it('loads src/server (the proxy) and forwards with it', async () => {
    const server = await import('../../src/server/index.js');
    const service = await createMockAgentServer({
      agents: [{ agent: { agent_id: 'plain', name: 'Plain', capabilities: {} } }],
    });
    try {
      const proxy = server.createAgentProxy({ baseUrl: service.url, basePath: '' });
      const response = await proxy(new Request('http://app.example/api/agents/plain'));
      expect(await response.json()).toMatchObject({ agent: { name: 'Plain' } });
    } finally {
      await service.close();
    }
  });

  it('cannot load the React layer under the same conditions (the check is live)', async () => {
    await expect(import('../../src/react/agent-client-provider.js')).rejects.toThrow();
  });

  it.each([
    ['src/core', coreFolder],
    ['src/server', serverFolder],
  ])('has no import of react in any source file of %s', (_name, folder) => {
    const sources = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) =>
      /\.tsx?$/.test(file),
    );
    expect(sources.length).toBeGreaterThan(0);
    const offenders = sources.filter((file) =>
      /from\s+['"](react|react-dom|@tanstack\/react-[\w-]+)(\/[^'"]*)?['"]/.test(
        readFileSync(`${folder}${file}`, 'utf8'),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
