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

const coreFolder = fileURLToPath(new URL('../src/core/', import.meta.url));

describe('given plain Node without React or a DOM', () => {
  it('loads src/core and retrieves an agent with it', async () => {
    expect(typeof window).toBe('undefined');
    const core = await import('../src/core/index.js');
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

  it('cannot load the React layer under the same conditions (the check is live)', async () => {
    await expect(import('../src/react/agent-client-provider.js')).rejects.toThrow();
  });

  it('has no import of react in any source file of src/core', () => {
    const offenders = readdirSync(coreFolder, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .filter((file) =>
        /from\s+['"](react|react-dom|@tanstack\/react-[\w-]+)(\/[^'"]*)?['"]/.test(
          readFileSync(`${coreFolder}${file}`, 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });
});
