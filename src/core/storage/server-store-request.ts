/**
 * The requests of the browser's stores over the proxy's own routes (`{baseUrl}/threads…`,
 * `{baseUrl}/runs`): same-origin JSON, the session cookie the app already has, and the errors of
 * the client (an `AgentHttpError` with the problem, an `AgentNetworkError`).
 */
import { AgentHttpError, AgentNetworkError, isAbortError } from '../wire/errors.js';

/** Options shared by `createServerThreadStore` and `createServerRunList`. */
export interface ServerStoreOptions {
  /**
   * Where the app mounted `createAgentProxy` (its `basePath`, or an absolute URL of it).
   * @default '/api/agent-service'
   */
  baseUrl?: string | undefined;
  /**
   * Headers of every request (e.g. a CSRF token of the app). Never a user id: the server's
   * `user(request)` decides who the user is.
   * @default {}
   */
  headers?: Record<string, string> | (() => Record<string, string>) | undefined;
  /**
   * The `credentials` of every request: the session cookie goes with a same-origin request.
   * @default 'same-origin'
   */
  credentials?: RequestCredentials | undefined;
  /**
   * The `fetch` used.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch | undefined;
}

/** One request: the parsed JSON of a 2xx answer (`undefined` for 204), else the error. */
export type ServerStoreRequest = (
  method: 'GET' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
) => Promise<unknown>;

/** The request function of a store over `options`. */
export function serverStoreRequest(options: ServerStoreOptions): ServerStoreRequest {
  const base = (options.baseUrl ?? '/api/agent-service').replace(/\/+$/, '');
  const fetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return async (method, path, body, signal) => {
    const url = `${base}${path}`;
    const extra = typeof options.headers === 'function' ? options.headers() : options.headers;
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchFunction(url, {
        method,
        headers,
        credentials: options.credentials ?? 'same-origin',
        cache: 'no-store',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new AgentNetworkError('The server could not be reached.', { url, cause: error });
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // An HTML page of a gateway stays text.
    }
    if (!response.ok) {
      throw new AgentHttpError({
        status: response.status,
        statusText: response.statusText,
        url,
        method,
        body: parsed,
        headers: response.headers,
      });
    }
    return parsed;
  };
}
