/**
 * A service gone wrong, for the browser tests (started in node by the global setup): it echoes
 * the token and `X-Glean-ActAs` it was sent inside its events and its `run.failed`
 * (`/api/agents/echo/runs`), and sends payloads 10,000 and 100,000 levels deep
 * (`/api/agents/deep/runs`); `/api/agents/redirect/runs` answers a 307 to
 * `/redirected/api/agents/echo/runs`, and `GET /redirected-count` says how many requests reached
 * that target. CORS open to any page, as the mock's.
 */
import { createServer, type Server } from 'node:http';

const message = (text: string) =>
  `event: message\ndata: ${JSON.stringify({ messages: [{ role: 'GLEAN_AI', content: [{ type: 'text', text }] }] })}\n\n`;

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export async function startHostileEchoServer(): Promise<{ url: string; close(): Promise<void> }> {
  let redirected = 0;
  const server: Server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    if (request.url === '/redirected-count') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(redirected));
      return;
    }
    if (request.url === '/api/agents/redirect/runs' && request.method === 'POST') {
      response.writeHead(307, { location: '/redirected/api/agents/echo/runs' });
      response.end();
      return;
    }
    if (request.url?.startsWith('/redirected/') && request.method === 'POST') redirected += 1;
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers':
          'authorization, content-type, accept, x-glean-actas, last-event-id',
      });
      response.end();
      return;
    }
    request.resume();
    request.on('end', () => {
      const token = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      const actAs = String(request.headers['x-glean-actas'] ?? '');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (request.url === '/api/agents/deep/runs') {
        response.write(`event: deep\nid: 1\ndata: ${nestedArrays(10_000)}\n\n`);
        response.write(`event: deep\nid: 2\ndata: ${nestedArrays(100_000)}\n\n`);
      } else {
        response.write(message(`Your token is ${token}. `));
        response.write(
          `event: debug\ndata: ${JSON.stringify({ authorization: `Bearer ${token}`, actAs })}\n\n`,
        );
        response.write(
          `event: run.failed\ndata: ${JSON.stringify({
            error: {
              type: 'about:blank',
              title: 'Internal Error',
              status: 500,
              detail: `Token ${token} was refused`,
              code: 'internal_error',
              request_id: 'req-1',
            },
          })}\n\n`,
        );
      }
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
