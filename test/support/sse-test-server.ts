/**
 * A bare `node:http` server on 127.0.0.1 for transport tests that need bytes no well-behaved server
 * sends: each POST goes to `respond` with its number (from 1). It records every request and closes
 * when the test ends.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { onTestFinished } from 'vitest';

export interface SseTestRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The client closed the connection before the response ended. */
  closedByClient: boolean;
}

export interface SseTestServer {
  url: string;
  requests: SseTestRequest[];
  /** POSTs received. */
  readonly posts: number;
}

export async function serveSse(
  respond: (post: number, response: ServerResponse, request: IncomingMessage) => unknown,
): Promise<SseTestServer> {
  const requests: SseTestRequest[] = [];
  const server = createServer((request, response) => {
    const record: SseTestRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      closedByClient: false,
    };
    requests.push(record);
    response.on('close', () => {
      if (!response.writableFinished) record.closedByClient = true;
    });
    request.resume();
    const post = requests.filter((each) => each.method === 'POST').length;
    void Promise.resolve(respond(post, response, request)).catch(() => response.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get posts() {
      return requests.filter((each) => each.method === 'POST').length;
    },
  };
}

/** Opens an event stream response (200, `text/event-stream`, no buffering on our side). */
export function openEventStream(response: ServerResponse): void {
  response.socket?.setNoDelay(true);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  response.flushHeaders();
}

/**
 * Writes `chunk` and waits until it left (or the client went): false once the client is gone.
 */
export async function writeChunk(
  response: ServerResponse,
  chunk: string | Uint8Array,
): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return false;
  if (!response.write(chunk)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        response.off('drain', done);
        response.off('close', done);
        resolve();
      };
      response.on('drain', done);
      response.on('close', done);
    });
  }
  return !response.destroyed;
}

/**
 * Streams one `data:` line that never ends, `chunkSize` bytes a write, until `limit` bytes were
 * written or the client went; returns the bytes written.
 */
export async function streamEndlessLine(
  response: ServerResponse,
  { limit = 20 * 1024 * 1024, chunkSize = 64 * 1024 } = {},
): Promise<number> {
  openEventStream(response);
  const chunk = Buffer.alloc(chunkSize, 'x');
  let written = 0;
  if (!(await writeChunk(response, 'data: '))) return written;
  while (written < limit) {
    if (!(await writeChunk(response, chunk))) break;
    written += chunk.length;
  }
  response.end();
  return written;
}
