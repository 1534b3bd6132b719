/**
 * The mock service's agent search and tool-server authorization endpoints (both generations'
 * `POST …/agents/search`; `GET`/`POST {base}/rest/api/v1/tool-servers/{serverId}/auth`).
 */
import type { MockApiGeneration } from './mock-events.js';
import type { MockAgentDefinition } from './mock-agent-types.js';

/** A matched search or tool-server route. */
export type MockDirectoryRoute =
  | { api: MockApiGeneration; endpoint: 'search' }
  | { api: 'rest-v1'; endpoint: 'tool-auth'; serverId: string };

/** How a directory endpoint answers (the service's own responders, CORS headers included). */
export interface MockDirectoryReply {
  json(status: number, value: unknown): Response;
  /** A legacy bare string, or a platform problem with this detail. */
  failure(status: number, detail: string): Response;
}

/** Where the authorization of each tool server stands (`authStatus` of the GET answer). */
export type MockToolServerStates = Map<string, 'AWAITING_AUTH' | 'AUTHORIZED'>;

/** Matches the end of a raw pathname (split before decoding, so `%2F` stays in an id). */
export function matchDirectoryRoute(pathname: string): MockDirectoryRoute | undefined {
  const segments = pathname.split('/');
  const tail = (count: number) => segments.slice(-count).join('/');
  if (tail(5) === 'rest/api/v1/agents/search') return { api: 'rest-v1', endpoint: 'search' };
  if (tail(3) === 'api/agents/search') return { api: 'platform', endpoint: 'search' };
  const serverId = segments.at(-2) ?? '';
  if (
    segments.at(-1) === 'auth' &&
    serverId !== '' &&
    tail(6).startsWith('rest/api/v1/tool-servers/')
  ) {
    let decoded = serverId;
    try {
      decoded = decodeURIComponent(serverId);
    } catch {
      // Kept as sent.
    }
    return { api: 'rest-v1', endpoint: 'tool-auth', serverId: decoded };
  }
  return undefined;
}

/** The methods a directory route answers. */
export function directoryMethods(route: MockDirectoryRoute): readonly string[] {
  return route.endpoint === 'search' ? ['POST'] : ['GET', 'POST'];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Answers a search: `{ name? }` is a case-insensitive substring of the agent's name (empty or
 * absent: every agent); the platform rejects other fields with 400 and adds `request_id`.
 */
export function answerSearch(
  route: MockDirectoryRoute,
  body: unknown,
  agents: Iterable<MockAgentDefinition>,
  reply: MockDirectoryReply,
  requestId: () => string,
): Response {
  const given = body === undefined ? {} : body;
  if (!isPlainObject(given)) return reply.failure(400, 'Request body must be a JSON object');
  if (route.api === 'platform') {
    const unknown = Object.keys(given).filter((key) => key !== 'name');
    if (unknown.length > 0) return reply.failure(400, `Unknown field: ${unknown.join(', ')}`);
  }
  const name = given['name'];
  if (name !== undefined && typeof name !== 'string') {
    return reply.failure(400, 'name must be a string');
  }
  const needle = (name ?? '').toLowerCase();
  const found = [...agents]
    .map((definition) => definition.agent)
    .filter((agent) => agent.name.toLowerCase().includes(needle));
  return route.api === 'platform'
    ? reply.json(200, { agents: found, request_id: requestId() })
    : reply.json(200, { agents: found });
}

/**
 * Answers the tool-server authorization endpoint: GET the server's state; POST `{ returnUrl }` (an
 * absolute http(s) URL, else 400) the URL of a consent page that names the server and the return
 * URL. Any server id is known to the mock.
 */
export function answerToolAuth(
  route: Extract<MockDirectoryRoute, { endpoint: 'tool-auth' }>,
  method: string,
  body: unknown,
  states: MockToolServerStates,
  reply: MockDirectoryReply,
): Response {
  const { serverId } = route;
  if (method === 'GET' || method === 'HEAD') {
    return reply.json(200, {
      displayName: serverId,
      authStatus: states.get(serverId) ?? 'AWAITING_AUTH',
      authType: 'AUTH_USER_OAUTH',
    });
  }
  const returnUrl = isPlainObject(body) ? body['returnUrl'] : undefined;
  if (typeof returnUrl !== 'string' || !/^https?:\/\//i.test(returnUrl)) {
    return reply.failure(400, 'returnUrl must be an absolute http(s) URL on the allowlist');
  }
  states.set(serverId, states.get(serverId) ?? 'AWAITING_AUTH');
  const consent = new URL('https://auth.mock.test/oauth/authorize');
  consent.searchParams.set('server', serverId);
  consent.searchParams.set('return_to', returnUrl);
  return reply.json(200, { authorizationUrl: consent.href });
}
