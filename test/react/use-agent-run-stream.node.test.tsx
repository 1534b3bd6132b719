import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';

describe('given a server render (plain Node: no window, no document)', () => {
  it('imports the hook and renders the idle snapshot without touching the DOM', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const { useAgentRunStream } = await import('../../src/react/use-agent-run-stream.js');
    const { AgentClientProvider } = await import('../../src/react/agent-client-provider.js');
    const { createAgentClient } = await import('../../src/core/wire/agent-client.js');

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
