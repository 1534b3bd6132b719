/**
 * A Fetch API handler that forwards the browser's agent requests to the service with the server's
 * token: the agent operations of both generations and nothing else.
 */
import { proxyProblem } from './proxy-problem.js';
import { defaultSecretHeaders, secretsOfHeaders } from '../core/wire/secrets.js';
import { filterSearchAnswer } from './filter-search-answer.js';
import { forwardedQuery, matchProxyRoute, type ProxyRoute } from './proxy-routes.js';
import { readCapped, redactWholeAnswer, type WholeBody } from './redact-answer.js';
import { redactEventStream } from './redact-event-stream.js';
import { checkRunBody } from './run-body-check.js';
import { secretSpellings, type SecretSpellings } from './secret-spellings.js';
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
  /**
   * The largest answer of the service read whole, in bytes: every answer but an event stream
   * (the proxy reads it to remove its secrets and to filter a search), and each event of a stream
   * with secrets to remove (held until it ends; counted in characters). A larger answer, or one
   * that never ends, is cut off and answers a 502 problem; a larger event breaks the stream off.
   * @default 10_485_760 (10 MiB)
   */
  maxAnswerBytes?: number;
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
   * the incoming request that returns them. The values of the secret ones (see `secretHeaders`)
   * never appear in an answer.
   * @default {}
   */
  headers?: ProxyValue<Record<string, string>>;
  /**
   * The names of more `headers` whose values are secrets: like the token, they never appear in
   * an answer, in any spelling a browser decodes back. `Authorization`, `Proxy-Authorization`,
   * `Cookie`, `X-Glean-ActAs` and every header whose name has `auth`, `token`, `key`, `secret`,
   * `password`, `passwd`, `session`, `cookie`, `credential`, `signature` or `actas` in it are
   * secrets whatever this says; the other headers' values (a flag such as `X-Use-Beta: true`)
   * are not looked for, so an answer that holds them is not changed.
   * @default []
   */
  secretHeaders?: readonly string[];
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
   * agents (one the proxy cannot filter, of another shape, answers 502). Undefined allows every agent the token can use: the service's permissions decide, so
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
  /**
   * Size and time limits.
   * @default { maxBodyBytes: 1_048_576, responseHeadersTimeoutMs: 120_000, maxAnswerBytes: 10_485_760 }
   */
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
/** A header named like a credential is a secret without being listed in `secretHeaders`. */
const secretName =
  /auth|token|key|secret|password|passwd|session|cookie|credential|signature|actas/i;

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
  maxAnswerBytes: number;
  headersTimeoutMs: number;
  /** The headers whose values are secrets (lower case). */
  secretHeaderNames: ReadonlySet<string>;
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
    maxAnswerBytes: positiveLimit('maxAnswerBytes', options.limits?.maxAnswerBytes ?? 10_485_760),
    store: createProxyStoreHook(options, { basePath, maxBodyBytes, authorize: options.authorize }),
    headersTimeoutMs: positiveLimit(
      'responseHeadersTimeoutMs',
      options.limits?.responseHeadersTimeoutMs ?? 120_000,
    ),
    secretHeaderNames: new Set([
      ...defaultSecretHeaders,
      ...(options.secretHeaders ?? []).map((name) => name.toLowerCase()),
    ]),
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
    const headers = await serviceHeaders(settings, request, secrets);
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
  const checked = checkRunBody(body);
  if ('refused' in checked) return proxyProblem(400, checked.refused);
  if (!(await settings.isAllowed(checked.agentId, request))) {
    return proxyProblem(403, 'This agent is not available here.');
  }
  // The bytes checked, not a serialization of them: no value changes on the way.
  return body;
}

/**
 * The headers sent to the service: the browser's that go through, the app's and the token. The
 * secrets among them (the token, the values of the secret headers) are pushed on `secrets` as
 * soon as they are known, so that even a later throw redacts them.
 */
async function serviceHeaders(
  settings: ProxySettings,
  request: Request,
  secrets: string[],
): Promise<Headers> {
  const { options } = settings;
  const [token, extraHeaders] = await Promise.all([
    resolveValue(options.token, request),
    resolveValue(options.headers, request),
  ]);
  const headers = new Headers();
  for (const name of forwardedRequestHeaders) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // By origin: the token and the secret headers' values never go back to the browser; a flag
  // such as `'true'` is no secret, and looking for it would change every answer that holds one.
  const secretNames = new Set(
    Object.keys(extraHeaders ?? {})
      .map((name) => name.toLowerCase())
      .filter((name) => settings.secretHeaderNames.has(name) || secretName.test(name)),
  );
  secrets.push(...secretsOfHeaders(extraHeaders ?? {}, secretNames));
  for (const [name, value] of Object.entries(extraHeaders ?? {})) headers.set(name, value);
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
  secrets: readonly string[],
): Promise<Response> {
  if (upstream.status >= 300 && upstream.status < 400 && upstream.status !== 304) {
    await upstream.body?.cancel().catch(() => undefined);
    return proxyProblem(502, 'The agent service answered with a redirect.', secrets);
  }
  const spellings = secretSpellings(secrets);
  const responseHeaders = answerHeadersOf(upstream.headers, spellings);
  const upstreamType = upstream.headers.get('content-type');
  if ((upstreamType ?? '').startsWith('text/event-stream')) {
    // nginx and some hosts buffer a response unless told not to: events must flow as sent.
    responseHeaders.set('x-accel-buffering', 'no');
  }
  if (nullBodyStatuses.has(upstream.status)) {
    await upstream.body?.cancel().catch(() => undefined);
    return new Response(null, { status: upstream.status, headers: responseHeaders });
  }
  if ((upstreamType ?? '').startsWith('text/event-stream') && upstream.body !== null) {
    return new Response(
      spellings === undefined
        ? upstream.body
        : redactEventStream(upstream.body, spellings, settings.maxAnswerBytes),
      { status: upstream.status, headers: responseHeaders },
    );
  }

  const whole = await readCapped(upstream.body, settings.maxAnswerBytes);
  if (whole === 'too-large') {
    return proxyProblem(
      502,
      `The agent service answered with more than ${settings.maxAnswerBytes} bytes.`,
      secrets,
    );
  }
  let body = whole;
  let bodyType = upstreamType;
  if (route.operation === 'search' && settings.restrictsAgents && upstream.ok) {
    const filtered = await filterSearchAnswer(new TextDecoder().decode(whole), (agentId) =>
      settings.isAllowed(agentId, request),
    );
    if ('refused' in filtered) return proxyProblem(502, filtered.refused, secrets);
    body = new TextEncoder().encode(filtered.text);
    bodyType = 'application/json';
    responseHeaders.set('content-type', bodyType);
  }
  if (spellings === undefined) {
    return new Response(body, { status: upstream.status, headers: responseHeaders });
  }
  const redacted = redactWholeAnswer(body, bodyType, spellings);
  if ('refused' in redacted) return proxyProblem(502, redacted.refused, secrets);
  if (redacted.contentType !== null) responseHeaders.set('content-type', redacted.contentType);
  return new Response(redacted.body, { status: upstream.status, headers: responseHeaders });
}

/**
 * The service's response headers that come back, each with its secrets replaced; one that still
 * spells a secret (a nested spelling) is left out.
 */
function answerHeadersOf(upstream: Headers, spellings: SecretSpellings | undefined): Headers {
  const headers = new Headers(answerHeaders);
  for (const name of forwardedResponseHeaders) {
    const value = upstream.get(name);
    if (value === null) continue;
    const redacted = spellings === undefined ? value : spellings.redact(value);
    if (spellings === undefined || !spellings.spells(redacted)) headers.set(name, redacted);
  }
  return headers;
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

/** Reads the body, stopping at `limit` bytes (a larger declared length is refused unread). */
async function readBody(request: Request, limit: number): Promise<WholeBody> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > limit) return 'too-large';
  return readCapped(request.body, limit);
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
      `createAgentProxy: limits.${name} must be a positive number of ${name.endsWith('Bytes') ? 'bytes' : 'milliseconds'}.`,
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
