/**
 * The proxy's own answers: RFC 9457 problem details of the shape the service (and the mock) use,
 * `{ type, title, status, code, detail, request_id }`. Their text is the proxy's own and never
 * carries a secret; `redactText` is applied anyway, so a detail built from an error cannot leak one.
 */
import { redactText } from '../core/wire/secrets.js';

const problems = {
  400: { title: 'Invalid Request', code: 'invalid_request' },
  403: { title: 'Insufficient Permissions', code: 'insufficient_permissions' },
  404: { title: 'Resource Not Found', code: 'resource_not_found' },
  413: { title: 'Request Too Large', code: 'request_too_large' },
  415: { title: 'Unsupported Media Type', code: 'invalid_request' },
  500: { title: 'Internal Error', code: 'internal_error' },
  502: { title: 'Bad Gateway', code: 'bad_gateway' },
  504: { title: 'Gateway Timeout', code: 'gateway_timeout' },
} as const;

/** A status the proxy answers by itself. */
export type ProxyProblemStatus = keyof typeof problems;

/** A problem+json response of the proxy. */
export function proxyProblem(
  status: ProxyProblemStatus,
  detail: string,
  secrets: readonly string[] = [],
): Response {
  const { title, code } = problems[status];
  const body = {
    type: 'about:blank',
    title,
    status,
    code,
    detail: redactText(detail, secrets),
    request_id: `proxy_${globalThis.crypto.randomUUID()}`,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
