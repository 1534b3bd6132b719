/**
 * The HTTP answers of the mock agent service: CORS, the legacy deprecation headers, JSON,
 * problem+json, and errors in the style of each API generation.
 */
import type { MockProblem } from './mock-events.js';
import { completeProblem, problemCodeFor } from './mock-problems.js';
import type { MockRoute } from './mock-routes.js';

const allowedHeaders = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Last-Event-ID',
  'X-Glean-ActAs',
  'X-Glean-Auth-Type',
];
/** Reason phrases of the statuses the mock answers without a problem (a gateway's 502 and 504). */
const reasonPhrases: Record<number, string> = {
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
};

/**
 * `Deprecation` of the legacy agent operations (RFC 9745: `@` and the epoch seconds of
 * 2026-08-25T00:00:00Z, the date the service's SDK gives).
 */
export const legacyDeprecation = `@${Date.UTC(2026, 7, 25) / 1000}`;
/** `Sunset` of the legacy agent operations (RFC 8594, an HTTP-date): removal on 2027-04-15. */
export const legacySunset = 'Thu, 15 Apr 2027 00:00:00 GMT';

/** Extra response headers. */
export type MockHeaders = Record<string, string>;

/** The answers to one request (its CORS headers and route already applied). */
export interface MockReply {
  /** Any body; 204, 205 and 304 are always sent without one. */
  send(status: number, body: BodyInit | null, contentType?: string, extra?: MockHeaders): Response;
  json(status: number, value: unknown, extra?: MockHeaders): Response;
  /**
   * An RFC 9457 problem: the code given (else the status's), its title, and a fresh `request_id`.
   */
  problem(status: number, fields: MockProblem, extra?: MockHeaders): Response;
  /**
   * An error in the style of the generation: a bare JSON string on legacy; on platform a problem,
   * or a gateway's HTML page for a status the service itself never answers (502, 504).
   */
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
        headers.set('Deprecation', legacyDeprecation);
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
      const body = completeProblem({ status, ...fields }, options.nextRequestId());
      return reply.send(status, JSON.stringify(body), 'application/problem+json', extra);
    },
    failure(status, detail, fields = {}, extra) {
      if (route?.api !== 'platform') return reply.json(status, detail, extra);
      if (fields.code === undefined && problemCodeFor(status) === undefined) {
        const reason = reasonPhrases[status] ?? 'Error';
        const page = `<html><head><title>${status} ${reason}</title></head><body><h1>${status} ${reason}</h1></body></html>`;
        return reply.send(status, page, 'text/html; charset=utf-8', extra);
      }
      return reply.problem(status, { detail, ...fields }, extra);
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
