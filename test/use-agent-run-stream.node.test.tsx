import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { createMockAgentServer } from 'agent-console-kit/testing';

describe('given a server render (plain Node: no window, no document)', () => {
  it('imports the hook and renders the idle snapshot without touching the DOM', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const { useAgentRunStream } = await import('../src/react/use-agent-run-stream.js');
    const { AgentClientProvider } = await import('../src/react/agent-client-provider.js');
    const { createAgentClient } = await import('../src/core/agent-client.js');

    function Run() {
      const run = useAgentRunStream({ onEvent: () => undefined });
      return <p>{`${run.status} ${run.attempt} ${run.events.length}`}</p>;
    }

    const html = renderToString(
      <AgentClientProvider client={createAgentClient({ baseUrl: 'https://agents.example.com' })}>
        <Run />
      </AgentClientProvider>,
    );

    expect(html).toBe('<p>idle 0 0</p>');
  });
});

describe('given RunStream in plain Node', () => {
  it('ends a start() in error naming the missing browser global, and sends nothing', async () => {
    const { createRunStream } = await import('../src/core/run-stream.js');
    const { createAgentClient } = await import('../src/core/agent-client.js');
    const server = await createMockAgentServer({
      agents: [{ agent: { agent_id: 'agent', name: 'Agent', capabilities: {} } }],
    });
    try {
      const stream = createRunStream(createAgentClient({ baseUrl: server.url }));

      const final = await stream.start({ agentId: 'agent' });

      expect(final.status).toBe('error');
      expect(final.error?.kind).toBe('input');
      expect(final.error?.message).toContain('window');
      expect(server.postCount()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
