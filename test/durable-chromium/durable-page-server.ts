/**
 * The server of the durable-run tests in Chromium: one node:http server on 127.0.0.1 that serves
 * the test page (page.tsx, bundled by esbuild from the source) and, on the same origin, the mock
 * agent service's model. It can hold the answer of a start POST (the run is created and counted,
 * its 201 never leaves) to reload the page during it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { MockAgentService } from 'agent-console-kit/testing';
import { concatBytes } from '../../src/core/base/bytes.js';
import { bundleTestPage, testPageHtml } from '../support/test-page.js';

/** page.tsx and the library's source as one script, React in development mode (StrictMode). */
export const bundlePage = () => bundleTestPage('test/durable-chromium/page.tsx');

const html = testPageHtml('Durable runs');

export interface DurablePageServer {
  readonly url: string;
  /**
   * Hold the answers of start POSTs from now on: each reaches the service (the run starts), its
   * answer is kept until the browser goes away.
   */
  holdStarts(): void;
  /** How many start answers are held now. */
  readonly heldStarts: number;
  /** Answers every request again (between tests). */
  reset(): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of request as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks.length === 0 ? undefined : concatBytes(chunks);
}

function toWebRequest(
  incoming: IncomingMessage,
  body: Uint8Array<ArrayBuffer> | undefined,
  origin: string,
) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const item of Array.isArray(value) ? value : [value ?? '']) headers.append(name, item);
  }
  const method = incoming.method ?? 'GET';
  return new Request(`${origin}${incoming.url ?? '/'}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' || body === undefined ? null : body,
  });
}

async function send(response: Response, outgoing: ServerResponse) {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.writeHead(response.status, headers);
  outgoing.end(body);
}

export async function startDurablePageServer(
  service: MockAgentService,
  script: string,
): Promise<DurablePageServer> {
  let holding = false;
  let held = 0;
  const sockets = new Set<Socket>();
  let origin = '';
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const path = (incoming.url ?? '/').split('?')[0];
      if (incoming.method === 'GET' && path === '/') {
        outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        outgoing.end(html);
        return;
      }
      if (incoming.method === 'GET' && path === '/page.js') {
        outgoing.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        outgoing.end(script);
        return;
      }
      if (path === '/favicon.ico') {
        outgoing.writeHead(204);
        outgoing.end();
        return;
      }
      const request = toWebRequest(incoming, await readBody(incoming), origin);
      const response = await service.handle(request);
      const isStart = request.method === 'POST' && /^\/api\/agents\/[^/]+\/runs$/.test(path ?? '');
      if (holding && isStart) {
        // The run exists at the service; its answer never reaches the page.
        held++;
        outgoing.once('close', () => held--);
        return;
      }
      await send(response, outgoing);
    })().catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain' });
      outgoing.end(error instanceof Error ? error.message : String(error));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  origin = `http://127.0.0.1:${address.port}`;
  return {
    url: origin,
    holdStarts() {
      holding = true;
    },
    get heldStarts() {
      return held;
    },
    reset() {
      holding = false;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
