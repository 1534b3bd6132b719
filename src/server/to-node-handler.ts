/**
 * The node:http (and Express) adapter of a Fetch API handler: the request's body streams in, the
 * response's body streams out chunk by chunk, and a client that goes away aborts the handler's
 * request signal and cancels the response body (so the request to the service is aborted too).
 * Nothing comes from node:http, not even types (the shapes below are what it uses of a request and
 * a response): the module loads, and its types check, in any runtime.
 */
import { proxyProblem } from './proxy-problem.js';
import { hasUnsafeRawPath } from './proxy-routes.js';
import { waitForDrain } from './wait-for-drain.js';

/** What the adapter reads of a node:http `IncomingMessage` (Express's `req`). */
export interface NodeIncomingRequest extends AsyncIterable<Uint8Array | string> {
  url?: string | undefined;
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** What the adapter uses of a node:http `ServerResponse` (Express's `res`). */
export interface NodeServerResponse {
  readonly destroyed: boolean;
  readonly writableFinished: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  flushHeaders(): void;
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  destroy(): unknown;
  on(event: 'close' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'drain', listener: () => void): unknown;
}

/** A node:http request handler; Express passes its `req` and `res` (and `next`, unused). */
export type NodeRequestHandler = (
  request: NodeIncomingRequest,
  response: NodeServerResponse,
) => Promise<void>;

const validHost = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * Adapts a Fetch API handler (e.g. {@link createAgentProxy}'s) to node:http and Express. Under
 * Express the full path (`req.originalUrl`) is what the handler sees, so `basePath` is the path
 * the app mounts it at; mount it before any body parser (it reads the body itself).
 *
 * @example
 * import { createServer } from 'node:http';
 * const proxy = createAgentProxy({ baseUrl, token });
 * createServer(toNodeHandler(proxy)).listen(3000);
 * // Express: app.use('/api/agent-service', toNodeHandler(proxy));
 */
export function toNodeHandler(
  handler: (request: Request) => Promise<Response>,
): NodeRequestHandler {
  return async (incoming, outgoing) => {
    const controller = new AbortController();
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) controller.abort();
    });
    let response: Response;
    try {
      response = await handler(toWebRequest(incoming, controller.signal));
    } catch (error) {
      if (error instanceof RequestTargetError) {
        response = proxyProblem(404, 'Not an agent operation.');
      } else if (error instanceof BodyAlreadyReadError) {
        response = proxyProblem(
          500,
          'The request body was read before the proxy (a body parser): mount the proxy before it.',
        );
      } else {
        response = proxyProblem(500, 'The proxy failed.');
      }
    }
    await writeResponse(response, outgoing);
  };
}

class RequestTargetError extends Error {}
const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);
class BodyAlreadyReadError extends Error {}

function toWebRequest(incoming: NodeIncomingRequest, signal: AbortSignal): Request {
  const original: unknown = (incoming as NodeIncomingRequest & { originalUrl?: unknown })
    .originalUrl;
  const target = typeof original === 'string' ? original : (incoming.url ?? '/');
  // URL parsing would resolve `..`, `%2e%2e` and `\` away: refuse them while the raw target is here.
  if (!target.startsWith('/') || target.startsWith('//') || hasUnsafeRawPath(target)) {
    throw new RequestTargetError();
  }
  const host = incoming.headers['host'];
  const origin = `http://${typeof host === 'string' && validHost.test(host) ? host : 'localhost'}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = incoming.method ?? 'GET';
  // A Fetch Request cannot carry these (it throws): no agent operation uses them, so the 404.
  if (forbiddenMethods.has(method.toUpperCase())) throw new RequestTargetError();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    // Forwarding the empty rest of a stream a body parser already read would send an empty run.
    if ((incoming as { readableEnded?: unknown }).readableEnded === true) {
      throw new BodyAlreadyReadError();
    }
    init.body = bodyStream(incoming);
    init.duplex = 'half';
  }
  return new Request(`${origin}${target}`, init);
}

function bodyStream(incoming: NodeIncomingRequest): ReadableStream<Uint8Array> {
  const chunks = incoming[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else
        controller.enqueue(
          typeof value === 'string' ? encoder.encode(value) : new Uint8Array(value),
        );
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

async function writeResponse(response: Response, outgoing: NodeServerResponse): Promise<void> {
  if (outgoing.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(response.status, headers);
  outgoing.flushHeaders();
  if (!response.body) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  let finished = false;
  outgoing.on('close', () => {
    if (!finished) reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      if (!outgoing.write(value)) {
        await waitForDrain(outgoing);
      }
    }
    finished = true;
    outgoing.end();
  } catch {
    finished = true;
    // The service's body broke off: end the client's connection the same way, not with a clean end.
    outgoing.destroy();
  }
}
