/**
 * The mock service's agent search and tool-server authorization endpoints (both generations'
 * `POST …/agents/search`; `GET`/`POST {base}/rest/api/v1/tool-servers/{serverId}/auth`).
 */
import type { MockApiGeneration } from './mock-events.js';
import type { MockAgentDefinition } from './mock-agent-types.js';
import { isPlainObject } from './mock-platform-validation.js';

/** How a directory endpoint answers (the service's own replies, CORS headers included). */
export interface MockDirectoryReply {
  json(status: number, value: unknown): Response;
  /** A legacy bare string, or a platform problem with this detail. */
  failure(status: number, detail: string): Response;
}

/** Where the authorization of each tool server stands (`authStatus` of the GET answer). */
export type MockToolServerStates = Map<string, 'AWAITING_AUTH' | 'AUTHORIZED'>;

/**
 * Answers a search: `{ name? }` is a case-insensitive substring of the agent's name (empty or
 * absent: every agent); the platform rejects other fields with 400 and adds `request_id`.
 */
export function answerSearch(
  api: MockApiGeneration,
  body: unknown,
  agents: Iterable<MockAgentDefinition>,
  reply: MockDirectoryReply,
  requestId: () => string,
): Response {
  const given = body === undefined ? {} : body;
  if (!isPlainObject(given)) return reply.failure(400, 'Request body must be a JSON object');
  if (api === 'platform') {
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
  return api === 'platform'
    ? reply.json(200, { agents: found, request_id: requestId() })
    : reply.json(200, { agents: found });
}

/**
 * Answers the tool-server authorization endpoint: GET the server's state; POST `{ returnUrl }` (an
 * absolute http(s) URL, else 400) the URL of a consent page that names the server and the return
 * URL. Any server id is known to the mock.
 */
export function answerToolAuth(
  serverId: string,
  method: string,
  body: unknown,
  states: MockToolServerStates,
  reply: MockDirectoryReply,
): Response {
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
