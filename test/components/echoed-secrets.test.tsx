import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  AgentClientProvider,
  AgentErrorMessage,
  AgentInputError,
  AgentThread,
  AgentThreadComposer,
  createAgentClient,
  useAgentConversation,
  type AgentClient,
} from 'agent-console-kit';
import { AgentRedirectError, createRunStream } from 'agent-console-kit/core';
import { listenForTest } from '../support/listen-for-test.js';
import { renderAgentConsole } from '../support/console.js';

// jsdom (`window` and `document`): the run goes through the transport, against node:http servers
// that echo the token (or redirect elsewhere). What a person sees and hears must not carry it.

const token = 'tok-Secret42-ui';
const actAs = 'someone.secret@example.com';

const answerFrame = (text: string) =>
  `event: message\ndata: ${JSON.stringify({ messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text }] }] })}\n\n`;

/** Answers every run with `frames(token, actAs)`, the values it was sent. */
function echoService(frames: (sentToken: string, sentActAs: string) => string[]) {
  return listenForTest((request, response) => {
    const sentToken = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const frame of frames(sentToken, String(request.headers['x-glean-actas'] ?? ''))) {
      response.write(frame);
    }
    response.end();
  });
}

function Chat() {
  const chat = useAgentConversation({ agentId: 'chat' });
  return (
    <main>
      <AgentThread agentName="Helpdesk" messages={chat.messages} status={chat.status} />
      {chat.error ? <AgentErrorMessage error={chat.error} agentId="chat" /> : null}
      <AgentThreadComposer
        status={chat.status}
        onSend={(text) => void chat.send(text)}
        onStop={chat.stop}
      />
    </main>
  );
}

function renderChat(client: AgentClient) {
  return render(
    <StrictMode>
      <AgentClientProvider client={client}>
        <Chat />
      </AgentClientProvider>
    </StrictMode>,
  );
}

function echoingClient(url: string) {
  return createAgentClient({
    baseUrl: url,
    api: 'platform',
    token,
    headers: { 'X-Glean-ActAs': actAs },
  });
}

describe('given an agent that echoes the token in its answer, under StrictMode', () => {
  it('shows and announces the answer with the token redacted', async () => {
    const service = await echoService((sentToken, sentActAs) => [
      answerFrame(`Your token is ${sentToken}, `),
      answerFrame(`acting as ${sentActAs}.`),
    ]);
    const user = userEvent.setup();
    renderChat(echoingClient(service.url));

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Who am I?{Enter}');

    const announcer = screen.getByRole('status');
    await waitFor(() =>
      expect(announcer).toHaveTextContent(
        'Helpdesk answered: Your token is [redacted], acting as [redacted].',
      ),
    );
    const log = screen.getByRole('log', { name: 'Messages' });
    expect(within(log).getAllByRole('listitem')[1]).toHaveTextContent(
      'Your token is [redacted], acting as [redacted].',
    );
    expect(document.body.textContent).not.toContain(token);
    expect(document.body.textContent).not.toContain(actAs);
  });
});

describe('given a run.failed that echoes the token, under StrictMode', () => {
  it('explains the failure in the alert with the service’s words redacted', async () => {
    const service = await echoService((sentToken) => [
      answerFrame('Half of '),
      `event: run.failed\ndata: ${JSON.stringify({
        error: {
          type: 'about:blank',
          title: 'Internal Error',
          status: 500,
          detail: `Token ${sentToken} was refused`,
          code: 'internal_error',
          request_id: 'req-1',
        },
      })}\n\n`,
    ]);
    const user = userEvent.setup();
    renderChat(echoingClient(service.url));

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Go{Enter}');

    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('Token [redacted] was refused'));
    expect(screen.getByRole('status')).toHaveTextContent(
      'Helpdesk’s answer stopped partway: the service answered 500.',
    );
    expect(document.body.textContent).not.toContain(token);
  });
});

describe('given AgentConsole and a service that echoes the token, under StrictMode', () => {
  it('shows and announces the answer and the failure with the token redacted', async () => {
    const service = await listenForTest((request, response) => {
      const sentToken = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(
            request.url?.endsWith('/schemas')
              ? { agent_id: 'chat', input_schema: {}, output_schema: {}, request_id: 'r1' }
              : {
                  agent: {
                    agent_id: 'chat',
                    name: `Chat ${sentToken}`,
                    capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
                  },
                  request_id: 'r2',
                },
          ),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(answerFrame(`Your token is ${sentToken}. `));
      response.end(
        `event: run.failed\ndata: ${JSON.stringify({
          error: {
            type: 'about:blank',
            title: 'Internal Error',
            status: 500,
            detail: `Token ${sentToken} was refused`,
            code: 'internal_error',
            request_id: 'req-1',
          },
        })}\n\n`,
      );
    });
    const user = userEvent.setup();
    renderAgentConsole(echoingClient(service.url), { agentId: 'chat' });

    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Go{Enter}');

    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('Token [redacted] was refused'));
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('status')
          .some((region) => region.textContent?.includes('answer stopped partway')),
      ).toBe(true),
    );
    expect(document.body.textContent).toContain('Your token is [redacted].');
    expect(document.body.textContent).toContain('Chat [redacted]');
    expect(document.body.textContent).not.toContain(token);
    expect(document.body.textContent).not.toContain(actAs);
  });
});

describe('given the transport in jsdom', () => {
  it('refuses a token with CR/LF before sending anything, once', async () => {
    const service = await echoService(() => [answerFrame('never')]);
    const client = createAgentClient({
      baseUrl: service.url,
      api: 'platform',
      token: 'abc\r\nSecret42',
    });

    const final = await createRunStream(client, {
      reconnect: { baseDelayMs: 1, maxDelayMs: 1 },
    }).start({ agentId: 'chat', input: {} });

    expect(final.error).toBeInstanceOf(AgentInputError);
    expect(final.attempt).toBe(0);
    expect(service.requests()).toBe(0);
  });

  it('does not follow a 307 to another origin', async () => {
    const other = await echoService(() => [answerFrame('stolen')]);
    const service = await listenForTest((_request, response) => {
      response.writeHead(307, { location: `${other.url}/api/agents/chat/runs` });
      response.end();
    });

    const final = await createRunStream(echoingClient(service.url), {
      reconnect: { baseDelayMs: 1, maxDelayMs: 1 },
    }).start({ agentId: 'chat', input: {} });

    expect(final.error).toBeInstanceOf(AgentRedirectError);
    expect((final.error as AgentRedirectError).redirectOrigin).toBe(other.url);
    expect(other.requests()).toBe(0);
    expect(service.requests()).toBe(1);
    render(
      <StrictMode>
        <AgentErrorMessage error={final.error as AgentRedirectError} agentId="chat" />
      </StrictMode>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Redirected elsewhere');
    expect(alert).toHaveTextContent(
      `The service answered with a redirect to ${other.url}. It was not followed, so nothing went there: check the service address.`,
    );
  });
});
