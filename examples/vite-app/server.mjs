// The app's server: the built app (dist/) and the agent proxy, which adds the service's token.
//   AGENT_SERVICE_URL=https://acme-be.example.com AGENT_SERVICE_TOKEN=… node server.mjs
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgentProxy, toNodeHandler } from 'agent-console-kit/server';

const proxy = toNodeHandler(
  createAgentProxy({
    baseUrl: process.env.AGENT_SERVICE_URL,
    // Asked on every request: a per-user token could come from the request's session here.
    token: () => process.env.AGENT_SERVICE_TOKEN,
    basePath: '/api/agent-service',
  }),
);

const root = fileURLToPath(new URL('./dist/', import.meta.url));
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

async function serveFile(request, response) {
  const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
  let file = normalize(join(root, path));
  if (!file.startsWith(root)) file = join(root, 'index.html');
  const info = await stat(file).catch(() => undefined);
  // Any other path is the app's (client-side routes): index.html.
  if (info === undefined || !info.isFile()) file = join(root, 'index.html');
  response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
}

const server = createServer((request, response) => {
  if (request.url === '/api/agent-service' || request.url?.startsWith('/api/agent-service/')) {
    void proxy(request, response);
  } else {
    serveFile(request, response).catch(() => {
      response.writeHead(500).end();
    });
  }
});
const port = Number(process.env.PORT ?? 3001);
server.listen(port, '127.0.0.1', () => {
  console.log(`App on http://127.0.0.1:${server.address().port}`);
});
