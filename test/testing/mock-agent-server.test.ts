import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import {
  createMockAgentServer,
  createMockAgentService,
  demoAgents,
  manyEvents,
  messagePayload,
  runFailedEvent,
  textEvents,
} from 'agent-console-kit/testing';
import type { MockAgentDefinition, MockRunScenario } from 'agent-console-kit/testing';
import { mockAgentHandlers } from 'agent-console-kit/testing/msw';
import { setUpMockServer } from '../support/mock-server.js';

// ---------- small SSE reader used by the tests ----------

interface Frame {
  id?: string;
  event?: string;
  data: string[];
}

interface Parsed {
  frames: Frame[];
  comments: string[];
  retry?: string;
}

function parseSse(text: string): Parsed {
  const parsed: Parsed = { frames: [], comments: [] };
  let current: Frame = { data: [] };
  let touched = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (touched) parsed.frames.push(current);
      current = { data: [] };
      touched = false;
      continue;
    }
    if (line.startsWith(':')) {
      parsed.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'retry') {
      parsed.retry = value;
      continue;
    }
    touched = true;
    if (field === 'id') current.id = value;
    else if (field === 'event') current.event = value;
    else if (field === 'data') current.data.push(value);
  }
  return parsed;
}

/** The text of the message deltas of the frames. */
function deltas(frames: Frame[]): string {
  return frames
    .filter((frame) => (frame.event ?? 'message') === 'message')
    .map((frame) => {
      const payload = JSON.parse(frame.data.join('\n')) as {
        messages?: { content?: { text?: string }[] }[];
      };
      return payload.messages?.[0]?.content?.[0]?.text ?? '';
    })
    .join('');
}

interface ReadResult {
  text: string;
  bytes: Uint8Array;
  reads: number;
  error?: unknown;
}

/** Read a whole body; a network error mid-body is returned, not thrown. */
async function readBody(response: Response): Promise<ReadResult> {
  const body = response.body;
  if (!body) return { text: '', bytes: new Uint8Array(), reads: 0 };
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let reads = 0;
  let error: unknown;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      parts.push(value);
    }
  } catch (caught) {
    error = caught;
  }
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return { text: new TextDecoder().decode(bytes), bytes, reads, error };
}

/** Read until `count` frames arrived (the stream stays open). */
async function readFrames(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  count: number,
): Promise<Frame[]> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const frames = parseSse(text).frames;
    // a frame is complete when followed by a blank line: count only complete ones
    const complete = text.endsWith('\n\n') ? frames.length : Math.max(0, frames.length - 1);
    if (complete >= count) return frames.slice(0, count);
    const { done, value } = await reader.read();
    if (done) return frames;
    text += decoder.decode(value, { stream: true });
  }
}

const userMessages = [{ role: 'USER', content: [{ text: 'Hello', type: 'text' }] }];
const token = 'token-first-AAAA';

const testAgents: MockAgentDefinition[] = [
  ...demoAgents,
  {
    agent: { agent_id: 'a/b', name: 'Slash agent', capabilities: {} },
    run: { events: textEvents('slash') },
  },
  {
    agent: { agent_id: 'a b', name: 'Space agent', capabilities: {} },
    run: { events: textEvents('space') },
  },
  {
    agent: { agent_id: 'a?b#c%d', name: 'Odd agent', capabilities: {} },
    run: { events: textEvents('odd') },
  },
];

const server = setUpMockServer({ agents: testAgents });

function defineAgent(agentId: string, run: MockRunScenario): void {
  server.service.setAgent({
    agent: { agent_id: agentId, name: agentId, capabilities: { 'ap.io.messages': true } },
    run,
  });
}

function runLegacy(
  agentId: string,
  init: {
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  return fetch(`${server.url}/rest/api/v1/agents/runs/stream`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...init.headers,
    },
    body: JSON.stringify({ agent_id: agentId, messages: userMessages, ...init.body }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

function runPlatform(
  agentId: string,
  init: {
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
    signal?: AbortSignal;
    base?: string;
  } = {},
): Promise<Response> {
  return fetch(`${init.base ?? server.url}/api/agents/${encodeURIComponent(agentId)}/runs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...init.headers,
    },
    body: JSON.stringify(init.body ?? { messages: userMessages, stream: true }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

const getJson = async (path: string) => {
  const response = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  return { response, body: (await response.json()) as unknown };
};

describe('given the legacy API (rest-v1)', () => {
  it('answers the bare agent record and its schemas', async () => {
    const agent = await getJson('/rest/api/v1/agents/chat-agent');
    expect(agent.response.status).toBe(200);
    expect(agent.body).toMatchObject({
      agent_id: 'chat-agent',
      name: 'Helpdesk chat',
      capabilities: { 'ap.io.messages': true },
    });
    expect(agent.body).not.toHaveProperty('agent');
    expect(agent.body).not.toHaveProperty('request_id');

    const schemas = await getJson('/rest/api/v1/agents/chat-agent/schemas');
    expect(schemas.body).toEqual({ agent_id: 'chat-agent', input_schema: {}, output_schema: {} });
  });

  it('streams a run as id/event/data frames whose deltas make the text', async () => {
    const response = await runLegacy('chat-agent', { body: { unknown_field: 1 } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { text, error } = await readBody(response);
    expect(error).toBeUndefined();
    const { frames } = parseSse(text);
    expect(frames.map((frame) => frame.id)).toEqual(frames.map((_, index) => String(index + 1)));
    expect(frames.every((frame) => frame.event === 'message')).toBe(true);
    expect(deltas(frames)).toMatch(/^Hello! I can help with that\. .*review\.$/);
    expect(text.startsWith('id: 1\nevent: message\ndata: {"messages":[{"role":"GLEAN_AI"')).toBe(
      true,
    );
  });

  it('answers 404 with a bare JSON string for an unknown agent', async () => {
    const agent = await getJson('/rest/api/v1/agents/nobody');
    expect(agent.response.status).toBe(404);
    expect(agent.body).toBe('Agent not found');
    const run = await runLegacy('nobody');
    expect(run.status).toBe(404);
    expect(await run.json()).toBe('Agent not found');
  });

  it('sends Deprecation and Sunset when deprecationHeaders is set', async () => {
    const deprecated = await createMockAgentServer({
      agents: demoAgents,
      deprecationHeaders: true,
    });
    try {
      const legacy = await fetch(`${deprecated.url}/rest/api/v1/agents/chat-agent`);
      // RFC 9745: deprecated on 2026-08-25; RFC 8594: removal on 2027-04-15
      expect(legacy.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 7, 25) / 1000}`);
      expect(legacy.headers.get('sunset')).toBe('Thu, 15 Apr 2027 00:00:00 GMT');
      const platform = await fetch(`${deprecated.url}/api/agents/chat-agent`);
      expect(platform.headers.get('deprecation')).toBeNull();
      const plain = await fetch(`${server.url}/rest/api/v1/agents/chat-agent`);
      expect(plain.headers.get('deprecation')).toBeNull();
    } finally {
      await deprecated.close();
    }
  });
});

describe('given the platform API', () => {
  it('wraps the agent record and adds request_id to the schemas', async () => {
    const agent = await getJson('/api/agents/chat-agent');
    expect(agent.body).toMatchObject({
      agent: { agent_id: 'chat-agent', name: 'Helpdesk chat' },
      request_id: expect.stringMatching(/^req_mock_/) as unknown,
    });
    const schemas = await getJson('/api/agents/form-agent/schemas?include_tools=true');
    expect(schemas.body).toMatchObject({
      agent_id: 'form-agent',
      input_schema: { type: 'object', required: ['title', 'priority', 'due_date'] },
      request_id: expect.any(String) as unknown,
    });
  });

  it('streams a run with stream: true', async () => {
    const response = await runPlatform('chat-agent');
    expect(response.status).toBe(200);
    const { frames } = parseSse((await readBody(response)).text);
    expect(frames[0]?.id).toBe('1');
    expect(deltas(frames)).toContain('Hello! I can help with that.');
  });

  it('answers 404 problem+json for an unknown agent', async () => {
    const response = await fetch(`${server.url}/api/agents/nobody`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      type: expect.any(String) as unknown,
      title: 'Resource Not Found',
      status: 404,
      detail: expect.any(String) as unknown,
      code: 'resource_not_found',
      request_id: expect.any(String) as unknown,
    });
  });

  it('rejects unknown fields with 400 invalid_request and a pointer per field', async () => {
    const response = await runPlatform('chat-agent', {
      body: { messages: userMessages, stream: true, agent_id: 'chat-agent' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      code: 'invalid_request',
      errors: [
        { pointer: '/agent_id', detail: expect.any(String) as unknown, code: 'invalid_parameter' },
      ],
    });
  });

  it('names each unknown field of a search with a pointer', async () => {
    const response = await fetch(`${server.url}/api/agents/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'chat', page_size: 10 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      title: 'Invalid Request',
      code: 'invalid_request',
      errors: [{ pointer: '/page_size', code: 'invalid_parameter' }],
    });
  });

  it('rejects a body with neither messages nor input (missing_required_field)', async () => {
    const response = await runPlatform('chat-agent', { body: { stream: true } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'missing_required_field' });
  });

  it('rejects roles other than USER and GLEAN_AI', async () => {
    const response = await runPlatform('chat-agent', {
      body: {
        messages: [{ role: 'SYSTEM', content: [{ text: 'x', type: 'text' }] }],
        stream: true,
      },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'invalid_request',
      errors: [{ pointer: '/messages/0/role' }],
    });
  });
});

describe('given a form agent', () => {
  const fullInput = {
    title: 'Intake',
    details: '',
    budget: '',
    headcount: 3,
    urgent: false,
    priority: 'medium',
    due_date: '2026-12-01',
    kickoff_at: '',
  };

  it('answers 500 on both generations when input lacks a field', async () => {
    const partial: Record<string, unknown> = { ...fullInput };
    delete partial.kickoff_at;
    const platform = await runPlatform('form-agent', { body: { input: partial, stream: true } });
    expect(platform.status).toBe(500);
    expect(platform.headers.get('x-mock-reason')).toContain('kickoff_at');
    const legacy = await runLegacy('form-agent', { body: { input: partial, messages: undefined } });
    expect(legacy.status).toBe(500);
  });

  it('runs when every field is present, empty optional fields included', async () => {
    const response = await runPlatform('form-agent', { body: { input: fullInput, stream: true } });
    expect(response.status).toBe(200);
    expect(deltas(parseSse((await readBody(response)).text).frames)).toContain('project intake');
  });
});

describe('given agent ids that need percent-encoding', () => {
  it.each(['a/b', 'a b', 'a?b#c%d'])(
    'routes %j to the right agent on both generations',
    async (id) => {
      const encoded = encodeURIComponent(id);
      const legacy = await getJson(`/rest/api/v1/agents/${encoded}`);
      expect(legacy.body).toMatchObject({ agent_id: id });
      const platform = await getJson(`/api/agents/${encoded}/schemas`);
      expect(platform.body).toMatchObject({ agent_id: id });
      const run = await runPlatform(id);
      expect(run.status).toBe(200);
      expect(deltas(parseSse((await readBody(run)).text).frames)).toBe(
        { 'a/b': 'slash', 'a b': 'space', 'a?b#c%d': 'odd' }[id],
      );
      const records = server.requests.filter((record) => record.agentId === id);
      expect(records).toHaveLength(3);
      expect(records[0]?.path).toBe(`/rest/api/v1/agents/${encoded}`);
    },
  );

  it('accepts a path prefix before the API (a proxy)', async () => {
    const legacy = await getJson('/proxy/deep/rest/api/v1/agents/chat-agent');
    expect(legacy.body).toMatchObject({ agent_id: 'chat-agent' });
    const run = await runPlatform('chat-agent', { base: `${server.url}/proxy` });
    expect(run.status).toBe(200);
    await readBody(run);
    expect(server.runRequests('chat-agent')[0]?.path).toBe('/proxy/api/agents/chat-agent/runs');
  });

  it('answers 404 for paths that are not routes', async () => {
    const response = await fetch(`${server.url}/api/agents`);
    expect(response.status).toBe(404);
    expect(server.service.matches(`${server.url}/api/agents`)).toBe(false);
    expect(server.service.matches(`${server.url}/x/api/agents/a%2Fb/runs`)).toBe(true);
  });
});

describe('given requests with a token', () => {
  it('records headers with the token redacted and keeps its fingerprint and the attempt', async () => {
    await readBody(
      await runPlatform('chat-agent', { headers: { authorization: 'Bearer tok-one-1111' } }),
    );
    await readBody(
      await runPlatform('chat-agent', {
        headers: {
          authorization: 'Bearer tok-two-2222',
          'last-event-id': '4',
          'x-glean-actas': 'a@b.c',
        },
      }),
    );
    const [first, second] = server.runRequests('chat-agent');
    expect(first).toMatchObject({
      method: 'POST',
      api: 'platform',
      endpoint: 'run',
      hasAuthorization: true,
      authorizationScheme: 'Bearer',
      tokenFingerprint: '1111',
      attempt: 1,
      status: 200,
      completed: true,
      body: { messages: userMessages, stream: true },
    });
    expect(first?.headers.authorization).toBe('[redacted]');
    expect(first?.headers['content-type']).toBe('application/json');
    expect(second).toMatchObject({ tokenFingerprint: '2222', attempt: 2, lastEventId: '4' });
    expect(second?.headers['x-glean-actas']).toBe('a@b.c');
    expect(JSON.stringify(server.requests)).not.toContain('tok-two');
    expect(server.postCount('chat-agent')).toBe(2);
    expect(server.postCount()).toBe(2);

    server.reset();
    expect(server.requests).toHaveLength(0);
    await readBody(await runPlatform('chat-agent'));
    expect(server.runRequests('chat-agent')[0]?.attempt).toBe(1);
  });

  it('records a request without Authorization as such', async () => {
    await fetch(`${server.url}/api/agents/chat-agent`);
    expect(server.requests[0]).toMatchObject({
      hasAuthorization: false,
      path: '/api/agents/chat-agent',
    });
    expect(server.requests[0]?.tokenFingerprint).toBeUndefined();
  });
});

describe('given injected responses', () => {
  afterEach(() => server.clearInjections());

  it('answers the chosen endpoint the given number of times, then the normal answer', async () => {
    server.inject('chat-agent', {
      endpoint: 'run',
      times: 2,
      status: 503,
      body: { title: 'down' },
      contentType: 'application/problem+json',
      headers: { 'Retry-After': '1' },
    });
    const agent = await getJson('/api/agents/chat-agent');
    expect(agent.response.status).toBe(200);
    for (const run of [runPlatform, runLegacy]) {
      const response = await run('chat-agent');
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.json()).toEqual({ title: 'down' });
    }
    const third = await runPlatform('chat-agent');
    expect(third.status).toBe(200);
    await readBody(third);
    expect(server.postCount('chat-agent')).toBe(3);
  });

  it('sends a string body as the text given with its content type', async () => {
    server.inject('chat-agent', {
      endpoint: 'agent',
      times: 1,
      status: 502,
      body: '<html>Bad gateway</html>',
      contentType: 'text/html',
    });
    const response = await fetch(`${server.url}/rest/api/v1/agents/chat-agent`);
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toBe('<html>Bad gateway</html>');
    expect((await fetch(`${server.url}/rest/api/v1/agents/chat-agent`)).status).toBe(200);
  });

  it("answers every endpoint with endpoint 'any' until cleared", async () => {
    server.inject('chat-agent', { status: 401, body: 'expired' });
    expect((await fetch(`${server.url}/api/agents/chat-agent`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/agents/chat-agent/schemas`)).status).toBe(401);
    expect((await runPlatform('chat-agent')).status).toBe(401);
    server.clearInjections();
    expect((await fetch(`${server.url}/api/agents/chat-agent`)).status).toBe(200);
  });
});

describe('given a browser that sends a CORS preflight', () => {
  it('answers 204 with the CORS headers and does not count it as a POST', async () => {
    const preflight = await fetch(`${server.url}/api/agents/chat-agent/runs`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6006',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, last-event-id, x-trace-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    const allowed = preflight.headers.get('access-control-allow-headers') ?? '';
    for (const name of [
      'Authorization',
      'Content-Type',
      'Accept',
      'Last-Event-ID',
      'X-Glean-ActAs',
      'X-Glean-Auth-Type',
      'x-trace-id',
    ]) {
      expect(allowed).toContain(name);
    }
    expect(server.postCount()).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(server.preflights).toHaveLength(1);

    const run = await runPlatform('rate-limited-agent');
    expect(run.headers.get('access-control-allow-origin')).toBe('*');
    expect(run.headers.get('access-control-expose-headers')).toContain('Retry-After');
    await run.text();
  });
});

describe('given run scenarios', () => {
  const words = 'one two three four five six';

  it('dropAfter: the client sees an error mid-body, not a clean end; a later attempt finishes', async () => {
    defineAgent('drop', { events: textEvents(words), dropAfter: 3 });
    const first = await readBody(await runPlatform('drop'));
    expect(first.error).toBeDefined();
    expect(parseSse(first.text).frames.map((frame) => frame.id)).toEqual(['1', '2', '3']);
    expect(server.runRequests('drop')[0]).toMatchObject({ dropped: true, eventsSent: 3 });
    const second = await readBody(await runPlatform('drop'));
    expect(second.error).toBeUndefined();
    expect(deltas(parseSse(second.text).frames)).toBe(words);
    await server.waitFor(() => server.openStreams === 0);
  });

  it('dropTimes: the first N attempts drop', async () => {
    defineAgent('drop-twice', { events: textEvents(words), dropAfter: 1, dropTimes: 2 });
    expect((await readBody(await runLegacy('drop-twice'))).error).toBeDefined();
    expect((await readBody(await runLegacy('drop-twice'))).error).toBeDefined();
    expect((await readBody(await runLegacy('drop-twice'))).error).toBeUndefined();
  });

  it("onReconnect 'resume': a POST with Last-Event-ID continues after that event", async () => {
    defineAgent('resume', { events: textEvents(words), dropAfter: 2, onReconnect: 'resume' });
    const first = parseSse((await readBody(await runPlatform('resume'))).text).frames;
    const lastId = first.at(-1)?.id ?? '';
    expect(lastId).toBe('2');
    const second = parseSse(
      (await readBody(await runPlatform('resume', { headers: { 'last-event-id': lastId } }))).text,
    ).frames;
    expect(second.map((frame) => frame.id)).toEqual(['3', '4', '5', '6']);
    expect(deltas(first) + deltas(second)).toBe(words);
  });

  it("onReconnect 'restart' (the default): a POST with Last-Event-ID starts over at id 1", async () => {
    defineAgent('restart', { events: textEvents(words), dropAfter: 2 });
    await readBody(await runPlatform('restart'));
    const second = parseSse(
      (await readBody(await runPlatform('restart', { headers: { 'last-event-id': '2' } }))).text,
    ).frames;
    expect(second[0]?.id).toBe('1');
    expect(deltas(second)).toBe(words);
    expect(server.runRequests('restart')[1]?.lastEventId).toBe('2');
  });

  it('failFirst: the first attempts answer the status with Retry-After, in each generation style', async () => {
    defineAgent('limited', {
      events: textEvents(words),
      failFirst: { attempts: 2, status: 429, retryAfter: '2' },
    });
    const platform = await runPlatform('limited');
    expect(platform.status).toBe(429);
    expect(platform.headers.get('retry-after')).toBe('2');
    expect(platform.headers.get('content-type')).toBe('application/problem+json');
    expect(await platform.json()).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    const legacy = await runLegacy('limited');
    expect(legacy.status).toBe(429);
    expect(typeof (await legacy.json())).toBe('string');
    const third = await runPlatform('limited');
    expect(third.status).toBe(200);
    expect(deltas(parseSse((await readBody(third)).text).frames)).toBe(words);
  });

  it('tool-auth-agent: 422 with authenticationSuggestions on legacy, authentication_suggestions on platform', async () => {
    const legacy = await runLegacy('tool-auth-agent');
    expect(legacy.status).toBe(422);
    expect(await legacy.json()).toMatchObject({
      message: expect.any(String) as unknown,
      authenticationSuggestions: [
        { toolName: 'jira', toolDisplayName: 'Jira', serverId: 'jira-server' },
        { toolName: 'confluence', serverId: 'confluence-server' },
      ],
    });
    const platform = await runPlatform('tool-auth-agent');
    expect(platform.status).toBe(422);
    expect(await platform.json()).toMatchObject({
      code: 'tools_unauthorized',
      status: 422,
      authentication_suggestions: [
        { tool_name: 'Jira', server_id: 'jira-server' },
        { server_id: 'confluence-server' },
      ],
    });
  });

  it('sends comments, heartbeats and a retry field, and CRLF line endings when asked', async () => {
    defineAgent('crlf', {
      events: [{ comment: 'hello' }, ...textEvents('a b'), { raw: ': raw\n\n' }],
      lineEnding: '\r\n',
      retryField: 1500,
      heartbeatEveryMs: 10,
      delayMs: 35,
    });
    const { text } = await readBody(await runPlatform('crlf'));
    expect(text.startsWith('retry: 1500\r\n: hello\r\nid: 1\r\nevent: message\r\ndata: ')).toBe(
      true,
    );
    expect(text).toContain('\r\n\r\n');
    // every line ends with CRLF, except inside the raw item (sent verbatim)
    expect(text.replace(': raw\n\n', '')).not.toMatch(/[^\r]\n/);
    const parsed = parseSse(text);
    expect(parsed.retry).toBe('1500');
    expect(parsed.comments).toContain('hello');
    expect(parsed.comments).toContain('keep-alive');
    expect(parsed.comments).toContain('raw');
    expect(deltas(parsed.frames)).toBe('a b');
  });

  it('chunkSize 1: single bytes (a multi-byte character split) reassemble into the same text', async () => {
    const text = 'héllo 🌍 wörld';
    defineAgent('bytes', { events: textEvents(text), chunkSize: 1 });
    const result = await readBody(await runPlatform('bytes'));
    const expected = new TextEncoder().encode(
      textEvents(text)
        .map(
          (item, index) =>
            `id: ${index + 1}\nevent: message\ndata: ${JSON.stringify(messagePayload(item.text))}\n\n`,
        )
        .join(''),
    );
    expect(Array.from(result.bytes)).toEqual(Array.from(expected));
    expect(result.reads).toBeGreaterThan(1);
    expect(deltas(parseSse(result.text).frames)).toBe(text);
  });

  it('sends a string data item verbatim (malformed JSON) and keeps unknown events', async () => {
    defineAgent('malformed', {
      events: [
        { data: '{"messages": [oops' },
        { event: 'agent.thinking', data: { step: 1 }, id: null },
        { event: 'multi', data: 'line one\nline two', id: 42 },
        { text: 'ok' },
      ],
    });
    const { frames } = parseSse((await readBody(await runPlatform('malformed'))).text);
    expect(frames[0]).toEqual({ id: '1', event: 'message', data: ['{"messages": [oops'] });
    expect(frames[1]).toEqual({ event: 'agent.thinking', data: ['{"step":1}'] });
    expect(frames[2]).toEqual({ id: '42', event: 'multi', data: ['line one', 'line two'] });
    expect(frames[3]?.id).toBe('4');
  });

  it('sends a 1 MB event whole', async () => {
    const big = 'x'.repeat(1024 * 1024);
    defineAgent('big', { events: [{ text: 'start ' }, { text: big }, { text: ' end' }] });
    const { text, error } = await readBody(await runLegacy('big'));
    expect(error).toBeUndefined();
    expect(deltas(parseSse(text).frames)).toBe(`start ${big} end`);
  });

  it('streams 10,000 events (ten-thousand-agent)', async () => {
    const { text } = await readBody(await runPlatform('ten-thousand-agent'));
    const { frames } = parseSse(text);
    expect(frames).toHaveLength(10_000);
    expect(frames.at(-1)?.id).toBe('10000');
    expect(deltas(frames.slice(0, 3))).toBe('1 2 3 ');
  });

  it('repeat and manyEvents make long streams cheaply', async () => {
    defineAgent('repeat', { events: manyEvents(3, { text: (index) => `${index}` }), repeat: 4 });
    const { frames } = parseSse((await readBody(await runPlatform('repeat'))).text);
    expect(frames.map((frame) => frame.id)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
    ]);
    expect(deltas(frames)).toBe('012012012012');
  });

  it('failing-agent: run.failed on platform, an error-shaped message on legacy', async () => {
    const platform = parseSse((await readBody(await runPlatform('failing-agent'))).text).frames;
    const failed = platform.at(-1);
    expect(failed?.event).toBe('run.failed');
    expect(JSON.parse(failed?.data.join('') ?? '')).toMatchObject({
      error: { status: 500, code: 'internal_error', detail: expect.any(String) as unknown },
    });
    expect(platform.filter((frame) => frame.event === 'run.failed')).toHaveLength(1);

    const legacy = parseSse((await readBody(await runLegacy('failing-agent'))).text).frames;
    expect(legacy.every((frame) => frame.event === 'message')).toBe(true);
    expect(JSON.parse(legacy.at(-1)?.data.join('') ?? '')).toHaveProperty('error');
  });

  it('runFailedEvent scripts a run.failed with the problem given', async () => {
    defineAgent('fails', {
      events: [{ text: 'partial' }, runFailedEvent({ code: 'spend_limit_exceeded', status: 403 })],
    });
    const frames = parseSse((await readBody(await runPlatform('fails'))).text).frames;
    expect(frames[1]).toMatchObject({ id: '2', event: 'run.failed' });
    expect(JSON.parse(frames[1]?.data.join('') ?? '')).toMatchObject({
      error: { code: 'spend_limit_exceeded', status: 403 },
    });
  });

  it('runFailedEvent with a status alone takes its code and title; the server adds request_id', async () => {
    defineAgent('unavailable', { events: [{ text: 'partial' }, runFailedEvent({ status: 503 })] });
    const frames = parseSse((await readBody(await runPlatform('unavailable'))).text).frames;
    expect(JSON.parse(frames[1]?.data.join('') ?? '')).toEqual({
      error: {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'Service Unavailable',
        code: 'service_unavailable',
        request_id: expect.stringMatching(/^req_mock_/) as unknown,
      },
    });
  });

  it('delays events without buffering them (neverEnd, the first frames arrive while open)', async () => {
    defineAgent('paced', { events: textEvents(words), delayMs: 5, neverEnd: true });
    const controller = new AbortController();
    const response = await runPlatform('paced', { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const frames = await readFrames(reader, 6);
    expect(deltas(frames)).toBe(words);
    expect(server.openStreams).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.openStreams).toBe(1);
    controller.abort();
    await server.waitFor(() => server.openStreams === 0);
    expect(server.runRequests('paced')[0]).toMatchObject({ closedByClient: true, eventsSent: 6 });
  });

  it('halfOpenAfter: silent without closing; the client abort ends the stream and its timers', async () => {
    defineAgent('half-open', { events: textEvents(words), halfOpenAfter: 2, heartbeatEveryMs: 5 });
    const controller = new AbortController();
    const response = await runLegacy('half-open', { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const frames = await readFrames(reader, 2);
    expect(frames.map((frame) => frame.id)).toEqual(['1', '2']);
    expect(server.openStreams).toBe(1);
    const pending = reader.read();
    const timeout = new Promise<'silent'>((resolve) => setTimeout(() => resolve('silent'), 40));
    expect(await Promise.race([pending.then(() => 'data' as const), timeout])).toBe('silent');
    controller.abort();
    await expect(pending).rejects.toBeDefined();
    await server.waitFor(() => server.openStreams === 0);
    expect(server.runRequests('half-open')[0]).toMatchObject({
      closedByClient: true,
      eventsSent: 2,
    });
  });

  it('a client abort during a long delay clears the wait (no stream left open)', async () => {
    defineAgent('sleepy', { events: textEvents(words), firstEventDelayMs: 60_000 });
    const controller = new AbortController();
    const response = await runPlatform('sleepy', { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(server.openStreams).toBe(1);
    controller.abort();
    await server.waitFor(() => server.openStreams === 0);
    expect(server.runRequests('sleepy')[0]?.closedByClient).toBe(true);
  });
});

describe('given a server that is closed', () => {
  it('has no open sockets left, even with a stream open', async () => {
    const own = await createMockAgentServer({
      agents: [
        {
          agent: { agent_id: 'forever', name: 'Forever', capabilities: {} },
          run: { events: textEvents('a b'), neverEnd: true },
        },
      ],
    });
    const response = await fetch(`${own.url}/api/agents/forever/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: userMessages, stream: true }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await readFrames(reader, 2);
    expect(own.openSockets).toBeGreaterThan(0);
    expect(own.openStreams).toBe(1);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(own.openSockets).toBe(0);
    expect(own.openStreams).toBe(0);
    await expect(reader.read()).rejects.toBeDefined();
  });
});

describe('given the msw adapter (msw/node setupServer)', () => {
  const base = 'http://mock.test';
  const service = createMockAgentService({ agents: testAgents });
  const mswServer = setupServer(...mockAgentHandlers(service, { baseUrl: base }));

  beforeAll(() => mswServer.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => mswServer.close());

  it('serves the same bytes as the node server for the same scenario', async () => {
    for (const agentId of ['chat-agent', 'failing-agent', 'a/b']) {
      const viaMsw = await readBody(await runPlatform(agentId, { base }));
      const viaNode = await readBody(await runPlatform(agentId));
      expect(viaMsw.error).toBeUndefined();
      expect(viaMsw.text.length).toBeGreaterThan(0);
      expect(viaMsw.text).toBe(viaNode.text);
    }
    const legacyMsw = await (await fetch(`${base}/rest/api/v1/agents/chat-agent`)).text();
    const legacyNode = await (await fetch(`${server.url}/rest/api/v1/agents/chat-agent`)).text();
    expect(legacyMsw).toBe(legacyNode);
    expect(service.postCount('chat-agent')).toBe(1);
    expect(service.runRequests('a/b')[0]?.path).toBe('/api/agents/a%2Fb/runs');
  });

  it('takes execution_mode as the node server does: REQUEST_BOUND runs, DURABLE starts a durable run (refused where durableRuns is false)', async () => {
    for (const url of [base, server.url]) {
      const waited = await runPlatform('chat-agent', {
        base: url,
        body: { messages: userMessages, stream: false, execution_mode: 'REQUEST_BOUND' },
      });
      expect(waited.status).toBe(200);
      expect(await waited.json()).toMatchObject({
        run: { agent_id: 'chat-agent', status: 'success' },
        messages: [{ role: 'GLEAN_AI', content: [{ type: 'text' }] }],
        request_id: expect.any(String) as unknown,
      });
      const streamed = await runPlatform('chat-agent', {
        base: url,
        body: { messages: userMessages, stream: true, execution_mode: 'REQUEST_BOUND' },
      });
      expect(deltas(parseSse((await readBody(streamed)).text).frames)).toContain('Hello!');
      const durable = await runPlatform('chat-agent', {
        base: url,
        body: { messages: userMessages, execution_mode: 'DURABLE' },
      });
      expect(durable.status).toBe(201);
      expect(await durable.json()).toMatchObject({
        run: { agent_id: 'chat-agent', state: 'RUNNING', pending_interactions: [] },
        request_id: expect.any(String) as unknown,
      });
    }
    const predurable = createMockAgentService({ agents: testAgents, durableRuns: false });
    const refused = await predurable.handle(
      new Request(`${base}/api/agents/chat-agent/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: userMessages, execution_mode: 'DURABLE' }),
      }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      title: 'Invalid Parameter',
      request_id: expect.any(String) as unknown,
      errors: [{ pointer: '/execution_mode', code: 'invalid_parameter' }],
    });
  });

  it('answers a gateway page, not a problem, for a scripted 502 on platform', async () => {
    service.setAgent({
      agent: { agent_id: 'gateway', name: 'gateway', capabilities: {} },
      run: { failFirst: { attempts: 1, status: 502 } },
    });
    const response = await runPlatform('gateway', { base });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('502 Bad Gateway');
  });

  it('answers problem+json 404s and records the requests in its service', async () => {
    const response = await fetch(`${base}/api/agents/nobody`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(service.requests.at(-1)).toMatchObject({ agentId: 'nobody', status: 404 });
  });

  it('signals a drop as a body error', async () => {
    service.setAgent({
      agent: { agent_id: 'drop', name: 'drop', capabilities: {} },
      run: { events: textEvents('one two three'), dropAfter: 1 },
    });
    const result = await readBody(await runPlatform('drop', { base }));
    expect(result.error).toBeDefined();
    expect(parseSse(result.text).frames).toHaveLength(1);
  });

  it('lets paths that are not routes pass through to the network', async () => {
    mswServer.use(...mockAgentHandlers(service));
    try {
      const response = await fetch(`${server.url}/not-an-api`);
      expect(response.status).toBe(404);
      // the real node server answered it, not the msw service
      expect(server.requests.at(-1)?.path).toBe('/not-an-api');
      expect(service.requests.some((record) => record.path === '/not-an-api')).toBe(false);
    } finally {
      mswServer.resetHandlers();
    }
  });
});
