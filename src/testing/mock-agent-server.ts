/**
 * The node:http adapter of the mock agent service: real sockets on 127.0.0.1, bytes flushed per
 * chunk, and an abrupt socket destroy when a scenario drops the connection.
 *
 * node:http is imported dynamically inside {@link createMockAgentServer}, so this module (and the
 * `agent-console-kit/testing` barrel) can be bundled for a browser without pulling node:http.
 */
import { concatBytes } from '../core/base/bytes.js';
import { createMockAgentService } from './mock-agent-service.js';
import type {
  MockAgentService,
  MockAgentServiceOptions,
  MockInjectedResponse,
  MockPreflightRecord,
  MockRequestRecord,
} from './mock-agent-types.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { waitForDrain } from '../server/wait-for-drain.js';

/** Options of {@link createMockAgentServer}. */
export interface MockAgentServerOptions extends MockAgentServiceOptions {
  /**
   * Serve this model instead of creating one from the other options.
   * @default a new service made with createMockAgentService(options)
   */
  service?: MockAgentService;
  /**
   * The port to listen on.
   * @default 0 (a random free port)
   */
  port?: number;
  /**
   * The interface to listen on.
   * @default '127.0.0.1'
   */
  host?: string;
}

/** A running mock server. */
export interface MockAgentServer {
  /** The origin, e.g. `http://127.0.0.1:12345` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** The model: requests, postCount, inject, reset ... */
  readonly service: MockAgentService;
  /** Same as `service.requests`. */
  readonly requests: readonly MockRequestRecord[];
  /** Same as `service.preflights`. */
  readonly preflights: readonly MockPreflightRecord[];
  runRequests(agentId?: string): MockRequestRecord[];
  postCount(agentId?: string): number;
  inject(agentId: string, response: MockInjectedResponse): void;
  clearInjections(): void;
  reset(): void;
  /** TCP sockets currently open. */
  readonly openSockets: number;
  /** Run responses currently streaming. */
  readonly openStreams: number;
  /** Resolve once `predicate` is true; reject after `timeoutMs` (default 2000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** Destroy every connection and stop listening; resolves fast. */
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    length += chunk.length;
  }
  if (length === 0) return undefined;
  return concatBytes(chunks);
}

function toWebRequest(
  incoming: IncomingMessage,
  body: Uint8Array<ArrayBuffer> | undefined,
  fallbackHost: string,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const host = incoming.headers.host ?? fallbackHost;
  // Concatenate (not `new URL(path, base)`): the raw path stays as sent, `//x` included.
  const url = `http://${host}${incoming.url ?? '/'}`;
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && body !== undefined;
  return new Request(url, { method, headers, body: hasBody ? body : null });
}

async function writeResponse(
  response: Response,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const streaming = (headers['content-type'] ?? '').startsWith('text/event-stream');
  if (streaming) {
    headers['cache-control'] ??= 'no-cache';
    headers['connection'] = 'keep-alive';
  }
  outgoing.writeHead(response.status, headers);
  outgoing.flushHeaders();
  if (!response.body || incoming.method === 'HEAD') {
    await response.body?.cancel().catch(() => undefined);
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  let ended = false;
  // Settles when the bytes of the latest write have left (or the response closed).
  let lastWrite: Promise<void> = Promise.resolve();
  outgoing.on('close', () => {
    // The client went away before the end: stop the scenario (and its timers).
    if (!ended) reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      let accepted = true;
      // The callback runs once the bytes are flushed (or with an error if the socket dies).
      lastWrite = new Promise<void>((resolve) => {
        accepted = outgoing.write(value, () => resolve());
      });
      if (!accepted) {
        await waitForDrain(outgoing);
      }
    }
    ended = true;
    outgoing.end();
  } catch {
    ended = true;
    // The body stream errored: the scenario dropped the connection. Let the bytes already written
    // leave, then destroy the socket without the terminating chunk: the client sees a network
    // error mid-body, not a clean end.
    await lastWrite;
    incoming.socket.destroy();
  }
}

/** Start the node:http adapter; resolves once it listens. */
export async function createMockAgentServer(
  options: MockAgentServerOptions = {},
): Promise<MockAgentServer> {
  const http = await import('node:http');
  const service = options.service ?? createMockAgentService(options);
  const host = options.host ?? '127.0.0.1';
  /** Open sockets, each with a promise settled once it closed (and left the map). */
  const sockets = new Map<Socket, Promise<void>>();
  let port = options.port ?? 0;

  const server = http.createServer({ noDelay: true }, (incoming, outgoing) => {
    void (async () => {
      try {
        const body = await readBody(incoming);
        const request = toWebRequest(incoming, body, `${host}:${port}`);
        const response = await service.handle(request);
        await writeResponse(response, incoming, outgoing);
      } catch (error) {
        if (outgoing.headersSent) {
          incoming.socket.destroy();
          return;
        }
        outgoing.writeHead(500, {
          'content-type': 'text/plain; charset=utf-8',
          'access-control-allow-origin': '*',
        });
        outgoing.end(
          `mock agent server error: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    })();
  });
  server.on('connection', (socket: Socket) => {
    sockets.set(
      socket,
      new Promise<void>((resolve) => {
        socket.once('close', () => {
          sockets.delete(socket);
          resolve();
        });
      }),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address !== null && typeof address === 'object') port = address.port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    service,
    get requests() {
      return service.requests;
    },
    get preflights() {
      return service.preflights;
    },
    runRequests: (agentId) => service.runRequests(agentId),
    postCount: (agentId) => service.postCount(agentId),
    inject: (agentId, response) => service.inject(agentId, response),
    clearInjections: () => service.clearInjections(),
    reset: () => service.reset(),
    get openSockets() {
      return sockets.size;
    },
    get openStreams() {
      return service.openStreams;
    },
    waitFor: (predicate, timeoutMs) => service.waitFor(predicate, timeoutMs),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        const socketsClosed = [...sockets.values()];
        for (const socket of sockets.keys()) socket.destroy();
        await Promise.all([stopped, ...socketsClosed]);
      })();
      return closing;
    },
  };
}
