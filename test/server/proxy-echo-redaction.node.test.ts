/**
 * The proxy's answers from a service that echoes what it was sent (a node:http server on
 * 127.0.0.1): the token, the ActAs value and the headers the app marks secret never reach the
 * browser, in any spelling a browser decodes back (JSON escapes, URL encoding, HTML character
 * references, another charset), in a body, an event or a response header; the app's other headers
 * are not secrets, and what holds no secret passes unchanged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAgentProxy, toNodeHandler, type AgentProxyOptions } from 'agent-console-kit/server';
import { listenForTest } from '../support/listen-for-test.js';

const token = 'server-secret-token-7Qx9';
const actAs = 'someone@acme.example';
const secrets = [token, actAs];

/** A service that answers `GET /api/agents/{mode}` and `POST /api/agents/{mode}/runs` by mode. */
type Answer = (echo: { token: string; actAs: string }, response: ServerResponse) => void;

async function echoProxy(
  answers: Record<string, Answer>,
  options: Partial<AgentProxyOptions> = {},
) {
  const service = await listenForTest((request: IncomingMessage, response) => {
    const mode = /^\/api\/agents\/([^/]+)/.exec(request.url ?? '')?.[1] ?? '';
    const echo = {
      token: String(request.headers['authorization'] ?? '').replace(/^Bearer /, ''),
      actAs: String(request.headers['x-glean-actas'] ?? ''),
    };
    const answer = Object.hasOwn(answers, mode) ? answers[mode] : undefined;
    if (answer === undefined) response.writeHead(404).end();
    else answer(echo, response);
  });
  const proxy = createAgentProxy({
    baseUrl: service.url,
    token,
    headers: { 'X-Glean-ActAs': actAs },
    ...options,
  });
  return {
    get: (mode: string) =>
      proxy(new Request(`http://app.example/api/agent-service/api/agents/${mode}`)),
    run: (mode: string) =>
      proxy(
        new Request(`http://app.example/api/agent-service/api/agents/${mode}/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"messages":[]}',
        }),
      ),
  };
}

/** Every character of `text` as a `\u` escape, as a JSON encoder that escapes everything writes. */
const unicodeEscaped = (text: string) =>
  [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Every character of `text` percent-encoded. */
const percentEncoded = (text: string) =>
  [...new TextEncoder().encode(text)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');

/** What a browser decodes of the spellings these tests use: URL encoding, HTML references. */
function decodedViews(text: string): string[] {
  const html = text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16)),
    )
    .replace(/&#(\d+);?/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&period;/g, '.')
    .replace(/&commat;/g, '@')
    .replace(/&hyphen;|&dash;/g, '‐')
    .replace(/&amp;/g, '&');
  const percent = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  return [text, html, percent(text), percent(html)];
}

/** The strings of every value a JSON text holds, or the text itself when it is not JSON. */
function jsonStrings(text: string): string {
  try {
    const strings: string[] = [];
    JSON.parse(text, (key, value: unknown) => {
      strings.push(key, typeof value === 'string' ? value : '');
      return value;
    });
    return strings.join('\n');
  } catch {
    return text;
  }
}

/** The events of a stream, as a browser's EventSource dispatches them. */
function sseEvents(text: string): { event: string; id: string; data: string }[] {
  const events: { event: string; id: string; data: string }[] = [];
  let data: string[] = [];
  let event = '';
  let id = '';
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length > 0) events.push({ event: event || 'message', id, data: data.join('\n') });
      data = [];
      event = '';
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    if (field === 'event') event = value;
    if (field === 'id') id = value;
  }
  return events;
}

function expectNoSecret(text: string, label = '') {
  for (const view of decodedViews(text)) {
    for (const secret of secrets) expect(view, label).not.toContain(secret);
  }
}

describe('given response headers that echo the secrets', () => {
  it('redacts Link, X-Request-Id, Content-Language and the rest, in any spelling', async () => {
    const proxy = await echoProxy({
      headers: (echo, response) => {
        response.writeHead(200, {
          'content-type': 'application/json',
          link: `<https://acme.example/next?as=${encodeURIComponent(echo.actAs)}&t=${percentEncoded(echo.token)}>; rel="next"`,
          'x-request-id': `req-${echo.token}`,
          'content-language': echo.actAs,
          deprecation: `@${echo.token}`,
          sunset: `Fri, 27 Nov 2026 00:00:00 GMT ${echo.actAs}`,
        });
        response.end('{"ok":true}');
      },
    });

    const response = await proxy.get('headers');

    expect(response.status).toBe(200);
    response.headers.forEach((value, name) => expectNoSecret(value, name));
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe('given an event stream that echoes the secrets', () => {
  /** The service's stream, written in the pieces given (each a separate write, a tick apart). */
  const streamOf =
    (pieces: (echo: { token: string; actAs: string }) => string[]): Answer =>
    (echo, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const queue = pieces(echo);
      const next = () => {
        const piece = queue.shift();
        if (piece === undefined) response.end();
        else response.write(piece, () => setImmediate(next));
      };
      next();
    };

  it('redacts the joined data of an event whose JSON spans several data: lines with \\u escapes', async () => {
    const proxy = await echoProxy({
      multiline: streamOf((echo) => [
        'id: 1\nevent: message\ndata: {\n',
        `data:  "text": "${unicodeEscaped(echo.token)} as ${unicodeEscaped(echo.actAs)}",\n`,
        'data:  "n": 1\ndata: }\n\n',
        'id: 2\nevent: message\ndata: {"n":12345678901234567890}\n\n',
      ]),
    });

    const response = await proxy.run('multiline');
    const text = await response.text();
    const events = sseEvents(text);

    expect(events.map((event) => [event.id, event.event])).toEqual([
      ['1', 'message'],
      ['2', 'message'],
    ]);
    expect(JSON.parse(events[0]?.data ?? '')).toEqual({ text: '[redacted] as [redacted]', n: 1 });
    for (const event of events) expectNoSecret(jsonStrings(event.data));
    // An event with no secret passes as it came, its numbers unchanged.
    expect(text).toContain('id: 2\nevent: message\ndata: {"n":12345678901234567890}\n\n');
  });

  it('under node:http, end to end: the browser reads no secret in the events', async () => {
    const service = await listenForTest((request, response) => {
      const echoed = String(request.headers['authorization']).replace(/^Bearer /, '');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`event: message\ndata: {"text":\n`);
      response.end(`data: "${unicodeEscaped(echoed).toUpperCase().replaceAll('\\U', '\\u')}"}\n\n`);
    });
    const handler = toNodeHandler(
      createAgentProxy({ baseUrl: service.url, token, headers: { 'X-Glean-ActAs': actAs } }),
    );
    // Not listenForTest's server: that one reads the body before it calls the handler.
    const proxy = createServer((request, response) => void handler(request, response));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          proxy.closeAllConnections();
          proxy.close(() => resolve());
        }),
    );
    const { port } = proxy.address() as AddressInfo;

    const response = await fetch(
      `http://127.0.0.1:${port}/api/agent-service/api/agents/echo/runs`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"messages":[]}',
      },
    );
    const events = sseEvents(await response.text());

    expect(events.map((event) => JSON.parse(event.data) as unknown)).toEqual([
      { text: '[redacted]' },
    ]);
  });

  it('redacts a secret spelled with \\/ escapes', async () => {
    const slashed = 'tok/en-secret/77';
    const proxy = await echoProxy(
      {
        slashed: streamOf((echo) => [
          `event: message\ndata: {"text":\ndata: "${echo.token.replaceAll('/', '\\/')}", "n": 1}\n\n`,
        ]),
      },
      { token: slashed },
    );

    const text = await (await proxy.run('slashed')).text();

    expect(jsonStrings(sseEvents(text)[0]?.data ?? '')).not.toContain(slashed);
    expect(text).not.toContain('tok\\/en');
  });

  it('redacts a data: line over 64 KiB that arrives in several reads', async () => {
    const padding = 'x'.repeat(70 * 1024);
    const proxy = await echoProxy({
      long: streamOf((echo) => {
        const line = `event: message\ndata: {"pad":"${padding}","text":"${unicodeEscaped(echo.token)}","as":"${echo.actAs}"}\n\n`;
        // The first read alone is over 64 KiB; the escaped token comes in the next ones.
        const first = 66 * 1024;
        return [line.slice(0, first), line.slice(first, -10), line.slice(-10)];
      }),
    });

    const text = await (await proxy.run('long')).text();
    const [event] = sseEvents(text);

    expect(JSON.parse(event?.data ?? '')).toEqual({
      pad: padding,
      text: '[redacted]',
      as: '[redacted]',
    });
    expectNoSecret(jsonStrings(text));
  });

  it('redacts URL-encoded and HTML-referenced spellings in data, ids and comments', async () => {
    const proxy = await echoProxy({
      spelled: streamOf((echo) => [
        `: ${percentEncoded(echo.token)}\n`,
        `id: ${encodeURIComponent(echo.actAs)}\n`,
        `event: message\ndata: {"url":"https://x.example/?t=${percentEncoded(echo.token)}",`,
        `"html":"&#115;${echo.token.slice(1)} ${echo.actAs.replace('.', '&period;').replace('@', '&#x40;')}"}\n\n`,
        `event: text\ndata: plain ${percentEncoded(echo.actAs)}\n\n`,
      ]),
    });

    const text = await (await proxy.run('spelled')).text();

    expectNoSecret(text);
    expectNoSecret(jsonStrings(sseEvents(text)[0]?.data ?? ''));
    expect(sseEvents(text).map((event) => event.event)).toEqual(['message', 'text']);
  });
});

describe('given bodies that are not one JSON value', () => {
  it('redacts every line of NDJSON, escapes decoded', async () => {
    const proxy = await echoProxy({
      ndjson: (echo, response) => {
        response.writeHead(200, { 'content-type': 'application/x-ndjson' });
        response.end(
          `{"n":1}\n{"text":"${unicodeEscaped(echo.token)}"}\n{"as":"${unicodeEscaped(echo.actAs)}","n":12345678901234567890}\n`,
        );
      },
    });

    const text = await (await proxy.get('ndjson')).text();
    const lines = text.split('\n');

    expect(lines[0]).toBe('{"n":1}');
    for (const line of lines) expectNoSecret(jsonStrings(line));
    expect(JSON.parse(lines[1] ?? '')).toEqual({ text: '[redacted]' });
  });

  it('redacts plain text in URL encoding and HTML character references', async () => {
    const proxy = await echoProxy({
      text: (echo, response) => {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end(
          `<p>Refused ${percentEncoded(echo.token)} for ${echo.actAs.replace('@', '&commat;')}` +
            ` (&#x73;&#101;${echo.token.slice(2)}) <a href="/?as=${encodeURIComponent(echo.actAs)}">retry</a></p>`,
        );
      },
    });

    const response = await proxy.get('text');
    const text = await response.text();

    expect(response.status).toBe(502);
    expectNoSecret(text);
    expect(text).toContain('retry');
  });

  it('reads a UTF-16 body in its charset and answers it redacted in UTF-8', async () => {
    const proxy = await echoProxy({
      utf16: (echo, response) => {
        response.writeHead(403, { 'content-type': 'application/problem+json; charset=utf-16le' });
        response.end(
          Buffer.from(`{"detail":"Refused: ${echo.token} as ${echo.actAs}"}`, 'utf16le'),
        );
      },
    });

    const response = await proxy.get('utf16');
    const type = response.headers.get('content-type') ?? '';
    const charset = /charset=([^;]+)/.exec(type)?.[1] ?? 'utf-8';
    const text = new TextDecoder(charset).decode(await response.arrayBuffer());

    expect(response.status).toBe(403);
    expectNoSecret(text);
    expect(JSON.parse(text)).toEqual({ detail: 'Refused: [redacted] as [redacted]' });
  });

  it('refuses with a 502 problem a body it cannot read (an unknown charset, a binary type)', async () => {
    const proxy = await echoProxy({
      charset: (echo, response) => {
        response.writeHead(200, { 'content-type': 'text/plain; charset=x-unknown-7' });
        response.end(`token ${echo.token}`);
      },
      binary: (echo, response) => {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.from(echo.token, 'utf16le'));
      },
    });

    for (const mode of ['charset', 'binary']) {
      const response = await proxy.get(mode);
      const text = await response.text();
      expect(response.status, mode).toBe(502);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expectNoSecret(text);
    }
  });
});

describe('given headers the app adds that are not secrets', () => {
  it('redacts the token, ActAs and the headers secret by name or marked so, not a flag such as true', async () => {
    const proxy = await echoProxy(
      {
        flags: (_echo, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            '{"ok":true,"beta":"true","region":"eu-west","tenant":"acme-tenant-42",' +
              '"key":"api-key-value-9","note":"someone@acme.example"}',
          );
        },
      },
      {
        headers: {
          'X-Glean-ActAs': actAs,
          'X-Use-Beta': 'true',
          'X-Region': 'eu-west',
          'X-Tenant': 'acme-tenant-42',
          'X-Api-Key': 'api-key-value-9',
        },
        secretHeaders: ['X-Tenant'],
      },
    );

    const response = await proxy.get('flags');

    expect(await response.json()).toEqual({
      ok: true,
      beta: 'true',
      region: 'eu-west',
      tenant: '[redacted]',
      key: '[redacted]',
      note: '[redacted]',
    });
  });

  it('passes an answer holding no secret byte for byte', async () => {
    const body = '{ "n": 12345678901234567890, "big": 1e400, "z": -0, "s": "\\u0041" }';
    const proxy = await echoProxy({
      plain: (_echo, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(body);
      },
    });

    expect(await (await proxy.get('plain')).text()).toBe(body);
  });
});
