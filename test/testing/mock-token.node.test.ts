import { describe, expect, it } from 'vitest';
import { setUpMockServer } from '../support/mock-server.js';

describe('given a mock server started with a token', () => {
  const server = setUpMockServer({ token: 'dev-secret' });

  it('answers 401 as a problem on the platform prefix, and nothing of the agent', async () => {
    const response = await fetch(`${server.url}/api/agents/chat-agent`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 401, code: 'authentication_required' });
    expect(JSON.stringify(problem)).not.toContain('Helpdesk');
    expect(server.requests.map((record) => record.status)).toEqual([401]);
  });

  it('answers 401 in the legacy shape (a bare JSON string) on the legacy prefix', async () => {
    const response = await fetch(`${server.url}/rest/api/v1/agents/chat-agent`, {
      headers: { Authorization: 'Bearer wrong-secret' },
    });
    expect(response.status).toBe(401);
    expect(typeof (await response.json())).toBe('string');
  });

  it('starts no run without the token: the POST is refused before any stream', async () => {
    const response = await fetch(`${server.url}/api/agents/chat-agent/runs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'dev-secret' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      }),
    });
    expect(response.status).toBe(401);
    expect(server.openStreams).toBe(0);
    expect(server.requests.map((record) => record.status)).toEqual([401]);
  });

  it('serves a request that brings the token', async () => {
    const response = await fetch(`${server.url}/api/agents/chat-agent`, {
      headers: { Authorization: 'Bearer dev-secret' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ agent: { agent_id: 'chat-agent' } });
  });

  it('never echoes the token in a 401', async () => {
    const response = await fetch(`${server.url}/api/agents/chat-agent`, {
      headers: { Authorization: 'Bearer dev-secret-but-longer' },
    });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('dev-secret');
  });
});

describe('given a mock server started without a token', () => {
  const server = setUpMockServer();

  it('serves requests without one (the default stays open)', async () => {
    const response = await fetch(`${server.url}/api/agents/chat-agent`);
    expect(response.status).toBe(200);
  });
});
