/**
 * The HTTP answers of the mock agent service: CORS, the legacy deprecation headers, JSON,
 * problem+json, and errors in the style of each API generation.
 */
import type { MockProblem } from './mock-events.js';
import type { MockRoute } from './mock-routes.js';

const allowedHeaders = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Last-Event-ID',
  'X-Glean-ActAs',
  'X-Glean-Auth-Type',
];
const statusTitles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
const statusCodes: Record<number, string> = {
  400: 'invalid_request',
  401: 'authentication_required',
  403: 'insufficient_permissions',
  404: 'resource_not_found',
  408: 'request_timeout',
  409: 'conflict',
  413: 'request_too_large',
  422: 'tools_unauthorized',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  502: 'service_unavailable',
  503: 'service_unavailable',
  504: 'request_timeout',
};

/** The reason phrase of a status, e.g. 'Too Many Requests'; 'Error' when unknown. */
export function statusTitle(status: number): string {
  return statusTitles[status] ?? 'Error';
}

/** Extra response headers. */
export type MockHeaders = Record<string, string>;

/** The answers to one request (its CORS headers and route already applied). */
export interface MockReply {
  /** Any body; 204, 205 and 304 are always sent without one. */
  send(status: number, body: BodyInit | null, contentType?: string, extra?: MockHeaders): Response;
  json(status: number, value: unknown, extra?: MockHeaders): Response;
  /** An RFC 9457 problem with the status's title and code, and a fresh `request_id`. */
  problem(status: number, fields: MockProblem, extra?: MockHeaders): Response;
  /** An error in the style of the generation: problem+json on platform, a bare JSON string on legacy. */
  failure(status: number, detail: string, fields?: MockProblem, extra?: MockHeaders): Response;
  /** A given body: nothing, a string as text, anything else as JSON. */
  given(status: number, body: unknown, contentType?: string, extra?: MockHeaders): Response;
}

/** What the answers depend on besides the request. */
export interface MockResponderOptions {
  deprecationHeaders: boolean;
  sunset: string;
  nextRequestId: () => string;
}

function corsHeaders(request: Request): Headers {
  const headers = new Headers({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Expose-Headers': 'Retry-After, Deprecation, Sunset, Link',
    'Access-Control-Max-Age': '600',
  });
  const asked = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^x-/i.test(name));
  headers.set('Access-Control-Allow-Headers', [...allowedHeaders, ...asked].join(', '));
  return headers;
}

/** Make the answers to one request (`route` undefined when no route matched). */
export function createReply(
  options: MockResponderOptions,
  request: Request,
  route: MockRoute | undefined,
): MockReply {
  const reply: MockReply = {
    send(status, body, contentType, extra) {
      const headers = corsHeaders(request);
      if (contentType !== undefined) headers.set('Content-Type', contentType);
      if (route?.api === 'rest-v1' && options.deprecationHeaders) {
        headers.set('Deprecation', 'true');
        headers.set('Sunset', options.sunset);
        headers.set('Link', '</api/agents>; rel="successor-version"');
      }
      for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
      const nullBody = status === 204 || status === 205 || status === 304;
      return new Response(nullBody ? null : body, { status, headers });
    },
    json(status, value, extra) {
      return reply.send(status, JSON.stringify(value), 'application/json', extra);
    },
    problem(status, fields, extra) {
      const body = {
        type: 'about:blank',
        title: statusTitle(status),
        status,
        code: statusCodes[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request'),
        ...fields,
        request_id: options.nextRequestId(),
      };
      return reply.send(status, JSON.stringify(body), 'application/problem+json', extra);
    },
    failure(status, detail, fields = {}, extra) {
      return route?.api === 'platform'
        ? reply.problem(status, { detail, ...fields }, extra)
        : reply.json(status, detail, extra);
    },
    given(status, body, contentType, extra) {
      if (body === undefined || body === null) return reply.send(status, null, contentType, extra);
      if (typeof body === 'string') {
        return reply.send(status, body, contentType ?? 'text/plain; charset=utf-8', extra);
      }
      return reply.send(status, JSON.stringify(body), contentType ?? 'application/json', extra);
    },
  };
  return reply;
}
