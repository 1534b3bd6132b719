import { AgentRedirectError } from './errors.js';
import { redactText, secretsOfHeaders } from './secrets.js';

/**
 * The most same-origin redirects one API call follows.
 * @default 5
 */
export const maxSameOriginRedirects = 5;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * `fetch` that never lets a redirect take a request elsewhere: every call goes with
 * `redirect: 'manual'`; a redirect to the same origin is followed here (up to
 * {@link maxSameOriginRedirects}, with fetch's rules: a 303, and a 301 or 302 of a POST, become a
 * GET without body), any other one (another origin, a browser's `opaqueredirect`, a `Location`
 * that is no URL) rejects with an {@link AgentRedirectError}, having sent nothing there. Internal.
 */
export function guardRedirects(
  baseFetch: typeof fetch,
  secretHeaderNames: ReadonlySet<string>,
): typeof fetch {
  return async (input, init) => {
    const firstUrl = input instanceof Request ? input.url : String(input);
    const firstMethod = (
      init?.method ?? (input instanceof Request ? input.method : 'GET')
    ).toUpperCase();
    let url = firstUrl;
    let method = firstMethod;
    let body = init?.body;
    let headers = init?.headers ?? (input instanceof Request ? input.headers : undefined);
    for (let redirects = 0; ; redirects += 1) {
      const response = await baseFetch(redirects === 0 ? input : url, {
        ...init,
        method,
        headers,
        // Set even when dropped: `init`'s body must not come back through the spread.
        body: body ?? null,
        redirect: 'manual',
      });
      const refuse = (reason: AgentRedirectError['reason'], redirectOrigin?: string) => {
        void response.body?.cancel().catch(() => undefined);
        const secrets = secretsOfHeaders(plainHeaders(headers), secretHeaderNames);
        return new AgentRedirectError({
          status: response.status,
          url: firstUrl,
          method: firstMethod,
          reason,
          redirectOrigin:
            redirectOrigin === undefined ? undefined : redactText(redirectOrigin, secrets),
          headers: response.headers,
        });
      };
      if (response.type === 'opaqueredirect') throw refuse('opaque');
      if (!redirectStatuses.has(response.status)) return response;
      const location = response.headers.get('location');
      // A redirect status without a Location is the answer itself (fetch does the same).
      if (location === null) return response;
      let target: URL;
      try {
        target = new URL(location, absolute(url));
      } catch {
        throw refuse('invalid-location');
      }
      if (target.origin !== absolute(url).origin) throw refuse('cross-origin', target.origin);
      if (redirects >= maxSameOriginRedirects) throw refuse('too-many', target.origin);
      void response.body?.cancel().catch(() => undefined);
      const status = response.status;
      if (
        (status === 303 && method !== 'GET' && method !== 'HEAD') ||
        ((status === 301 || status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers = withoutBodyHeaders(headers);
      }
      url = target.href;
    }
  };
}

/** A request URL made absolute: a relative one (a page's own proxy path) against the page. */
function absolute(url: string): URL {
  return new URL(url, (globalThis as { location?: { href?: string } }).location?.href);
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...(headers as Record<string, string>) };
}

/** The headers without those that describe a body (fetch drops them when a redirect drops it). */
function withoutBodyHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const bodyHeaders = new Set([
    'content-type',
    'content-length',
    'content-encoding',
    'content-language',
    'content-location',
  ]);
  return Object.fromEntries(
    Object.entries(plainHeaders(headers)).filter(([name]) => !bodyHeaders.has(name.toLowerCase())),
  );
}
