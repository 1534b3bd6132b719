import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createAgentClient } from 'agent-console-kit';
import { AgentConversation } from '../../../src/core/conversation/agent-conversation.js';
import { RunStream } from '../../../src/core/stream/run-stream.js';
import { demoAgents } from 'agent-console-kit/testing';
import { setUpMockServer } from '../../support/mock-server.js';
import { renderAgentConsole } from '../../support/console.js';

const server = setUpMockServer({ agents: demoAgents });

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await server.waitFor(() => server.openStreams === 0);
});

/**
 * Every run stream the console observes (its own, or its conversation's), by identity: an engine
 * the console creates and uses is observed; `dispose` is what the console does to a conversation
 * it owns when it goes away.
 */
function watchEngines() {
  const observe = vi.spyOn(RunStream.prototype, 'observe');
  const dispose = vi.spyOn(AgentConversation.prototype, 'dispose');
  return {
    streams: () => new Set(observe.mock.contexts).size,
    conversations: () => new Set(dispose.mock.contexts).size,
  };
}

function renderConsole(agentId: string) {
  const client = createAgentClient({ baseUrl: server.url, token: 'secret-token-1234' });
  return renderAgentConsole(client, { agentId });
}

describe('given a chat agent under StrictMode', () => {
  it('creates one engine, the conversation, and sends one POST per message', async () => {
    const engines = watchEngines();
    renderConsole('chat-agent');
    const user = userEvent.setup();

    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Hello{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Clear' })).toBeEnabled());

    expect(server.postCount('chat-agent')).toBe(1);
    // One run stream, the conversation's own: no form stream beside it.
    expect(engines.streams()).toBe(1);
    cleanup();
    // Disposed once nothing reads it: a microtask after the unmount (the lifecycle's grace).
    await waitFor(() => expect(engines.conversations()).toBe(1));
  });
});

describe('given a form agent under StrictMode', () => {
  it('creates one engine, the run stream, never a conversation, and sends one POST per run', async () => {
    const engines = watchEngines();
    renderConsole('form-agent');
    const user = userEvent.setup();

    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'New office');
    fireEvent.change(screen.getByLabelText(/^Due date/), { target: { value: '2026-05-01' } });
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByRole('button', { name: 'Clear' });

    expect(server.postCount('form-agent')).toBe(1);
    expect(engines.streams()).toBe(1);
    cleanup();
    // Unmounted (and StrictMode's simulated unmount before it): no conversation was ever there.
    expect(engines.conversations()).toBe(0);
  });
});
