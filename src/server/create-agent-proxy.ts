/**
 * A Fetch API handler that forwards the browser's agent requests to the service with the server's
 * token: the agent operations of both generations and nothing else.
 */
import { proxyProblem } from './proxy-problem.js';
import { concatBytes } from '../core/base/bytes.js';
import { redactJsonText } from '../core/wire/secrets.js';
import { redactAnswer } from './redact-answer.js';
import { forwardedQuery, isSafeId, matchProxyRoute, type ProxyRoute } from './proxy-routes.js';
import { createProxyStoreHook, type AgentProxyStoreOptions } from './user-routes.js';

/** A value, or a function of the incoming request asked for it on every request (possibly async). */
export type ProxyValue<T> = T | ((request: Request) => T | Promise<T>);

/** Which agents the browser may use through the proxy. */
export type AllowAgents =
  readonly string[] | ((agentId: string, request: Request) => boolean | Promise<boolean>);

/** Limits of {@link AgentProxyOptions.limits}. */
export interface AgentProxyLimits {
  /**
   * The largest request body forwarded, in bytes. A larger one answers 413 and nothing is sent.
   * @default 1_048_576 (1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * How long the service may take to answer with its headers, in milliseconds; then the request to
   * the service is aborted and the proxy answers 504. A stream, once its headers came, may last as
   * long as it runs. A legacy `runs/wait` answers only when its run ends: raise it for long runs.
   * @default 120_000
   */
  responseHeadersTimeoutMs?: number;
}

/** Options of {@link createAgentProxy}. */
export interface AgentProxyOptions extends AgentProxyStoreOptions {
  /**
   * The service's origin (and path prefix, if any), e.g. `https://acme-be.example.com`. An
   * absolute http(s) URL without query, fragment or credentials.
   */
  baseUrl: string;
  /**
   * The bearer token sent to the service, or a function of the incoming request asked for it on
   * every request (a per-user token from the app's session). `undefined` sends none. The browser's
   * own `Authorization` is never forwarded, and the token never appears in an answer of the proxy.
   * @default undefined
   */
  token?: ProxyValue<string | undefined>;
  /**
   * Headers sent to the service (e.g. `X-Glean-ActAs` from the app's session), or a function of
   * the incoming request that returns them.
   * @default {}
   */
  headers?: ProxyValue<Record<string, string>>;
  /**
   * Where the proxy is mounted: the path before the service's own path
   * (`/api/agent-service/rest/api/v1/agents/x` forwards `/rest/api/v1/agents/x`). `''` when the
   * proxy answers at the root.
   * @default '/api/agent-service'
   */
  basePath?: string;
  /**
   * The agents the browser may use: a list of agent ids, or a function of the agent id and the
   * request. A refused agent answers 403 and nothing is sent; a search answer lists only allowed
   * agents. Undefined allows every agent the token can use: the service's permissions decide, so
   * set it when the token can do more than the app's users should (a global token with ActAs).
   * @default undefined (every agent)
   */
  allowAgents?: AllowAgents;
  /**
   * Asked first for every request the route table accepts: `true` lets it through; `false`
   * answers 403, a `Response` answers that response; either way nothing is sent to the service.
   * @default undefined (every request)
   */
  authorize?: (request: Request) => boolean | Response | Promise<boolean | Response>;
  /** Size and time limits. @default { maxBodyBytes: 1_048_576, responseHeadersTimeoutMs: 120_000 } */
  limits?: AgentProxyLimits;
  /**
   * The `fetch` used to call the service.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
}

/** A Fetch API request handler: Next.js route handlers, Hono, Bun, Deno, workers. */
export type AgentProxyHandler = (request: Request) => Promise<Response>;

/** The browser's request headers that go through; nothing else does. */
const forwardedRequestHeaders = ['accept', 'accept-language', 'content-type', 'last-event-id'];
/** The service's response headers that come back; nothing else does (no `set-cookie`). */
const forwardedResponseHeaders = [
  'content-language',
  'content-type',
  'deprecation',
  'link',
  'retry-after',
  'sunset',
  'x-request-id',
];
/**
 * Set on every forwarded answer. It is the user's (a per-user token): no shared cache keeps it.
 * It is served from the app's origin: a gateway's HTML page opened directly runs nothing there.
 */
const answerHeaders = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
  'x-content-type-options': 'nosniff',
};
const nullBodyStatuses = new Set([101, 204, 205, 304]);

/**
 * Creates a proxy that keeps the token on the server: the browser calls the proxy (a client made
 * with `createAgentClient({ baseUrl: '/api/agent-service' })`), the proxy calls the service with
 * the token. It forwards the agent operations of both generations (retrieve, schemas, search,
 * runs streamed and waited, tool-server authorization, durable runs) and answers anything else 404
 * without a request to the service.
 *
 * @example
 * // app/api/agent-service/[...path]/route.ts (Next.js App Router)
 * import { createAgentProxy } from 'agent-console-kit/server';
 * const proxy = createAgentProxy({
 *   baseUrl: process.env.AGENT_SERVICE_URL!,
 *   token: () => process.env.AGENT_SERVICE_TOKEN,
 * });
 * export { proxy as GET, proxy as POST };
 */
export function createAgentProxy(options: AgentProxyOptions): AgentProxyHandler {
  const settings = proxySettings(options);
  return async function agentProxy(request: Request): Promise<Response> {
    return handleRequest(settings, request);
  };
}

/** The options checked once, when the proxy is created. */
interface ProxySettings {
  options: AgentProxyOptions;
  baseUrl: string;
  basePath: string;
  maxBodyBytes: number;
  headersTimeoutMs: number;
  fetchFunction: typeof fetch;
  /** Whether `allowAgents` restricts anything (then bodies are checked and searches filtered). */
  restrictsAgents: boolean;
  isAllowed: (agentId: string, request: Request) => Promise<boolean>;
  /** The store's routes and run ownership (user-routes.ts), when `user` and `store` are given. */
  store: ReturnType<typeof createProxyStoreHook>;
}

function proxySettings(options: AgentProxyOptions): ProxySettings {
  const allowAgents = options.allowAgents;
  const basePath = normalizeBasePath(options.basePath ?? '/api/agent-service');
  const maxBodyBytes = positiveLimit('maxBodyBytes', options.limits?.maxBodyBytes ?? 1_048_576);
  return {
    options,
    baseUrl: normalizeServiceUrl(options.baseUrl),
    basePath,
    maxBodyBytes,
    store: createProxyStoreHook(options, { basePath, maxBodyBytes, authorize: options.authorize }),
    headersTimeoutMs: positiveLimit(
      'responseHeadersTimeoutMs',
      options.limits?.responseHeadersTimeoutMs ?? 120_000,
    ),
    fetchFunction: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    restrictsAgents: allowAgents !== undefined,
    isAllowed: async (agentId, request) => {
      if (allowAgents === undefined) return true;
      if (typeof allowAgents === 'function') return (await allowAgents(agentId, request)) === true;
      return allowAgents.includes(agentId);
    },
  };
}

/** Route match, authorize, read the body, add the server's headers, forward. */
async function handleRequest(settings: ProxySettings, request: Request): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return proxyProblem(404, 'Not an agent operation.');
  }
  const route = matchProxyRoute(request.method, url.pathname, settings.basePath);
  if (!route) {
    return (
      (await settings.store?.route(request, url)) ?? proxyProblem(404, 'Not an agent operation.')
    );
  }

  const secrets: string[] = [];
  try {
    const refusal = await authorizeRequest(settings, request, route);
    if (refusal) return refusal;
    const body = await readCheckedBody(settings, request, route);
    if (body instanceof Response) return body;
    const guard = await settings.store?.guard(request, route, body);
    if (guard instanceof Response) return guard;
    const headers = await serviceHeaders(settings.options, request, secrets);
    const answer = await forward(
      settings,
      request,
      route,
      `${settings.baseUrl}${route.servicePath}${forwardedQuery(route, url.searchParams)}`,
      headers,
      guard === undefined ? body : guard.body,
      secrets,
    );
    return guard === undefined ? answer : await guard.finish(answer);
  } catch {
    // The app's authorize, token or headers function threw: its message stays on the server.
    return proxyProblem(500, 'The proxy could not prepare the request.', secrets);
  }
}

/** The app's `authorize`, then the agent named in the path: a refusal, or `undefined` to go on. */
async function authorizeRequest(
  settings: ProxySettings,
  request: Request,
  route: ProxyRoute,
): Promise<Response | undefined> {
  const { authorize } = settings.options;
  if (authorize) {
    const verdict = await authorize(request);
    if (verdict instanceof Response) return verdict;
    if (verdict !== true) return proxyProblem(403, 'The request is not authorized.');
  }
  const agentId = route.params['agentId'];
  if (agentId !== undefined && !(await settings.isAllowed(agentId, request))) {
    return proxyProblem(403, 'This agent is not available here.');
  }
  return undefined;
}

/** The body to forward (none but for a POST), or the answer refusing it. */
async function readCheckedBody(
  settings: ProxySettings,
  request: Request,
  route: ProxyRoute,
): Promise<Uint8Array<ArrayBuffer> | undefined | Response> {
  if (route.method !== 'POST') return undefined;
  if (!isJson(request.headers.get('content-type'))) {
    return proxyProblem(415, 'The body must be application/json.');
  }
  const body = await readBody(request, settings.maxBodyBytes);
  if (body === 'too-large') {
    return proxyProblem(413, `The body is larger than ${settings.maxBodyBytes} bytes.`);
  }
  if (route.agentFrom !== 'body' || !settings.restrictsAgents) return body;
  const checked = bodyWithOneAgent(body);
  if (checked === undefined) {
    return proxyProblem(400, 'The body names no single valid agent_id.');
  }
  if (!(await settings.isAllowed(checked.agentId, request))) {
    return proxyProblem(403, 'This agent is not available here.');
  }
  return checked.body;
}

/**
 * The headers sent to the service: the browser's that go through, the app's and the token. What
 * the proxy adds is pushed on `secrets` as soon as it is set, so that even a later throw redacts it.
 */
async function serviceHeaders(
  options: AgentProxyOptions,
  request: Request,
  secrets: string[],
): Promise<Headers> {
  const [token, extraHeaders] = await Promise.all([
    resolveValue(options.token, request),
    resolveValue(options.headers, request),
  ]);
  const headers = new Headers();
  for (const name of forwardedRequestHeaders) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // What the proxy adds never goes back to the browser: the token and these headers' values.
  for (const [name, value] of Object.entries(extraHeaders ?? {})) {
    headers.set(name, value);
    secrets.push(value);
  }
  if (token !== undefined && token !== '') {
    headers.set('authorization', `Bearer ${token}`);
    secrets.push(token);
  }
  return headers;
}

/** Sends the request to the service and answers with its response, or the problem it met. */
async function forward(
  settings: ProxySettings,
  request: Request,
  route: ProxyRoute,
  serviceUrl: string,
  headers: Headers,
  body: Uint8Array<ArrayBuffer> | undefined,
  secrets: string[],
): Promise<Response> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (request.signal.aborted) abort();
  else request.signal.addEventListener('abort', abort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.headersTimeoutMs);

  let upstream: Response;
  try {
    upstream = await settings.fetchFunction(serviceUrl, {
      method: route.method,
      headers,
      signal: controller.signal,
      // A redirect is not followed: the token would go with it.
      redirect: 'manual',
      ...(body === undefined ? {} : { body }),
    });
  } catch {
    return timedOut
      ? proxyProblem(504, 'The agent service did not answer in time.', secrets)
      : proxyProblem(502, 'The agent service could not be reached.', secrets);
  } finally {
    clearTimeout(timer);
  }
  return forwardResponse(settings, request, route, upstream, secrets);
}

/** The service's answer as the browser gets it: chosen headers, redacted body, no redirect. */
async function forwardResponse(
  settings: ProxySettings,
  request: Request,
  route: ProxyRoute,
  upstream: Response,
  secrets: string[],
): Promise<Response> {
  if (upstream.status >= 300 && upstream.status < 400 && upstream.status !== 304) {
    await upstream.body?.cancel().catch(() => undefined);
    return proxyProblem(502, 'The agent service answered with a redirect.', secrets);
  }

  const responseHeaders = new Headers(answerHeaders);
  for (const name of forwardedResponseHeaders) {
    const value = upstream.headers.get(name);
    if (value !== null) responseHeaders.set(name, value);
  }
  if ((responseHeaders.get('content-type') ?? '').startsWith('text/event-stream')) {
    // nginx and some hosts buffer a response unless told not to: events must flow as sent.
    responseHeaders.set('x-accel-buffering', 'no');
  }
  if (nullBodyStatuses.has(upstream.status)) {
    return new Response(null, { status: upstream.status, headers: responseHeaders });
  }
  if (route.operation === 'search' && settings.restrictsAgents && upstream.ok) {
    return filterSearchAnswer(settings, upstream, responseHeaders, request, secrets);
  }
  return new Response(await redactAnswer(upstream, secrets), {
    status: upstream.status,
    headers: responseHeaders,
  });
}

async function filterSearchAnswer(
  settings: ProxySettings,
  upstream: Response,
  headers: Headers,
  request: Request,
  secrets: readonly string[],
): Promise<Response> {
  let answer: unknown;
  try {
    answer = JSON.parse(await upstream.text());
  } catch {
    return proxyProblem(502, 'The agent service answered the search with something not JSON.');
  }
  if (isRecord(answer) && Array.isArray(answer['agents'])) {
    const agents: unknown[] = answer['agents'];
    const verdicts = await Promise.all(
      agents.map((agent) =>
        isRecord(agent) && typeof agent['agent_id'] === 'string'
          ? settings.isAllowed(agent['agent_id'], request)
          : false,
      ),
    );
    answer = { ...answer, agents: agents.filter((_agent, index) => verdicts[index]) };
  }
  return new Response(redactJsonText(JSON.stringify(answer), secrets), {
    status: upstream.status,
    headers,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJson(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

async function resolveValue<T>(
  value: ProxyValue<T> | undefined,
  request: Request,
): Promise<T | undefined> {
  return typeof value === 'function'
    ? await (value as (request: Request) => T | Promise<T>)(request)
    : value;
}

/** Reads the body, stopping at `limit` bytes. */
async function readBody(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | 'too-large'> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > limit) return 'too-large';
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > limit) {
        await reader.cancel().catch(() => undefined);
        return 'too-large';
      }
      chunks.push(value);
    }
  }
  return concatBytes(chunks);
}

/**
 * The agent a legacy run body names, and the body to forward: written anew from what was checked,
 * so a duplicate `agent_id` (JSON.parse keeps the last, another parser the first) cannot name
 * another agent at the service; a key that differs only in case (Go's decoder matches those) is
 * refused.
 */
function bodyWithOneAgent(
  body: Uint8Array,
): { agentId: string; body: Uint8Array<ArrayBuffer> } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const agentKeys = Object.keys(parsed).filter((key) => key.toLowerCase() === 'agent_id');
  const agentId = parsed['agent_id'];
  if (agentKeys.length !== 1 || typeof agentId !== 'string' || !isSafeId(agentId)) {
    return undefined;
  }
  return { agentId, body: new TextEncoder().encode(JSON.stringify(parsed)) };
}

function normalizeServiceUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('createAgentProxy: baseUrl must be an absolute http(s) URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createAgentProxy: baseUrl must use http or https, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(
      'createAgentProxy: baseUrl takes no query, fragment or credentials (pass a token instead).',
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function positiveLimit(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(
      `createAgentProxy: limits.${name} must be a positive number of ${name === 'maxBodyBytes' ? 'bytes' : 'milliseconds'}.`,
    );
  }
  return value;
}

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  const segments = trimmed.split('/').slice(1);
  const valid = segments.every(
    (segment) => /^[A-Za-z0-9._~-]+$/.test(segment) && !/^\.{1,2}$/.test(segment),
  );
  if (trimmed !== '' && (!trimmed.startsWith('/') || !valid)) {
    throw new TypeError(
      `createAgentProxy: basePath must be a path such as /api/agent-service, not "${basePath}".`,
    );
  }
  return trimmed;
}
