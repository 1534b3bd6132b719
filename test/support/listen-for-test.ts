import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** A request a {@link listenForTest} server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/**
 * A node:http server on 127.0.0.1 for one test, closed when the test ends: `handle` answers each
 * request once its body has been read; `received` counts what reached it.
 */
export async function listenForTest(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; received: ReceivedRequest[]; requests: () => number }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    received.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
    });
    request.resume();
    request.on('end', () => handle(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, requests: () => received.length };
}
