import { describe, expect, it } from 'vitest';
import {
  createMockAgentService,
  encodeStreamItem,
  manyEvents,
  textEvents,
} from '../../src/testing/index.js';

const origin = 'http://service.test';
const runBody = JSON.stringify({
  messages: [{ role: 'USER', content: [{ text: 'hi', type: 'text' }] }],
  stream: true,
});

function post(path: string, body = runBody, headers: Record<string, string> = {}): Request {
  return new Request(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('given the event helpers', () => {
  it('textEvents splits by words or chunks and the deltas concatenate back exactly', () => {
    const text = '  Hello, wörld 🌍!  Two  spaces ';
    expect(
      textEvents(text)
        .map((item) => item.text)
        .join(''),
    ).toBe(text);
    expect(
      textEvents(text, { words: 2 })
        .map((item) => item.text)
        .join(''),
    ).toBe(text);
    const chunks = textEvents('a🌍b🌍c', { chunks: 5 }).map((item) => item.text);
    expect(chunks).toEqual(['a', '🌍', 'b', '🌍', 'c']);
    expect(textEvents('')).toEqual([]);
  });

  it('encodeStreamItem writes the documented frame, comments and raw bytes', () => {
    expect(encodeStreamItem({ text: 'Hi' }, 3)).toBe(
      'id: 3\nevent: message\ndata: {"messages":[{"role":"GLEAN_AI","content":[{"text":"Hi","type":"text"}]}]}\n\n',
    );
    expect(encodeStreamItem({ comment: 'ping' }, 1, '\r\n')).toBe(': ping\r\n');
    expect(encodeStreamItem({ raw: 'data: x\n\n' }, 1, '\r\n')).toBe('data: x\n\n');
    expect(encodeStreamItem({ event: 'custom', data: 'a\nb', id: null }, 9)).toBe(
      'event: custom\ndata: a\ndata: b\n\n',
    );
  });

  it('manyEvents makes numbered deltas', () => {
    expect(manyEvents(3).map((item) => item.text)).toEqual(['1 ', '2 ', '3 ']);
  });
});

describe('given the model used without any adapter', () => {
  it('answers a platform run stream through handle()', async () => {
    const service = createMockAgentService();
    const response = await service.handle(post('/api/agents/chat-agent/runs'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await response.text()).toMatch(/^id: 1\nevent: message\ndata: /);
    expect(service.openStreams).toBe(0);
    expect(service.runRequests('chat-agent')[0]).toMatchObject({ completed: true, status: 200 });
  });

  it('stops producing when the body is cancelled and flags the record', async () => {
    const service = createMockAgentService({
      agents: [
        {
          agent: { agent_id: 'slow', name: 'Slow', capabilities: {} },
          run: { events: textEvents('a b c'), delayMs: 60_000 },
        },
      ],
    });
    const response = await service.handle(post('/api/agents/slow/runs'));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('id: 1');
    expect(service.openStreams).toBe(1);
    await reader.cancel();
    expect(service.openStreams).toBe(0);
    expect(service.runRequests('slow')[0]).toMatchObject({ closedByClient: true, eventsSent: 1 });
  });

  it('answers a non-streaming platform run with the whole text as JSON', async () => {
    const service = createMockAgentService();
    const response = await service.handle(
      post(
        '/api/agents/chat-agent/runs',
        JSON.stringify({ messages: [{ role: 'USER', content: [{ text: 'hi', type: 'text' }] }] }),
      ),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { messages: { content: { text: string }[] }[] };
    expect(body.messages[0]?.content[0]?.text).toMatch(/^Hello! I can help with that\./);
  });

  it('matches only its routes, whatever the prefix', () => {
    const service = createMockAgentService();
    expect(service.matches(`${origin}/rest/api/v1/agents/runs/stream`)).toBe(true);
    expect(service.matches(`${origin}/p/rest/api/v1/agents/x%2Fy/schemas`)).toBe(true);
    expect(service.matches(`${origin}/api/agents/x/runs`)).toBe(true);
    expect(service.matches(`${origin}/api/agents/`)).toBe(false);
    expect(service.matches(`${origin}/api/other/x`)).toBe(false);
  });

  it('answers 405 for a wrong method on a route', async () => {
    const service = createMockAgentService();
    const response = await service.handle(new Request(`${origin}/api/agents/chat-agent/runs`));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
