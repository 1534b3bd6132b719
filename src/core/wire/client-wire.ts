import { guardRedirects } from './redirect-guard.js';
import { defaultSecretHeaders, redactText, redactValue, secretsOfHeaders } from './secrets.js';
import {
  AgentHttpError,
  AgentInputError,
  AgentValidationError,
  readErrorResponse,
  toNetworkError,
} from './errors.js';
import {
  checkAgent,
  checkAgentSchemas,
  checkAgentSearchResponse,
  checkPlatformAgentResponse,
  checkToolServerAuthorization,
  type INVALID,
} from './wire-checks.generated.js';
import type { explainWireRefusal, WireAnswerName } from './wire-explain.js';
import { deprecationDateOf, sunsetDateOf } from './deprecation-dates.js';
import type { DurableWireTransport } from './durable-run-wire.js';
import type {
  AgentRequestOptions,
  DeprecationNotice,
  PerRequestValue,
} from './agent-client-types.js';

/**
 * Each JSON answer's check (zod's compiler wrote it from the schema wire-explain.ts names with the
 * same key), so an answer is checked and explained against one schema.
 */
export const wireAnswerChecks: Record<WireAnswerName, (input: unknown) => true | typeof INVALID> = {
  agent: checkAgent,
  platformAgentResponse: checkPlatformAgentResponse,
  agentSearchResponse: checkAgentSearchResponse,
  agentSchemas: checkAgentSchemas,
  toolServerAuthorization: checkToolServerAuthorization,
};

/** The client's options its requests read (see `AgentClientOptions`). */
export interface ClientWireOptions {
  token?: PerRequestValue<string | undefined>;
  headers?: PerRequestValue<Record<string, string>>;
  fetch?: typeof fetch;
  secretHeaders?: readonly string[];
  onDeprecation?: (notice: DeprecationNotice) => void;
}

/**
 * How a client sends: headers resolved per request (the token and secret headers checked and
 * noted for redaction), the redirect guard, deprecation headers noted, one JSON request with its
 * typed errors, and a checked JSON answer.
 */
export function createClientWire(options: ClientWireOptions) {
  const fetchFunction: typeof fetch =
    options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let deprecation: DeprecationNotice | undefined;

  async function resolveHeaders(accept: string, hasBody: boolean) {
    const [token, extra] = await Promise.all([
      resolveLazy(options.token),
      resolveLazy(options.headers),
    ]);
    const headers: Record<string, string> = { Accept: accept };
    if (hasBody) headers['Content-Type'] = 'application/json';
    for (const [name, value] of Object.entries(extra ?? {})) {
      headers[name] = checkedHeaderValue(name, value, `The ${name} header`);
    }
    const secrets: string[] = [];
    if (token !== undefined && token !== '') {
      const checked = checkedHeaderValue('Authorization', token, 'The token');
      if (checked !== '') {
        headers['Authorization'] = `Bearer ${checked}`;
        secrets.push(checked);
      }
    }
    secrets.push(...secretsOfHeaders(headers, secretHeaderNames));
    return { headers, secrets };
  }

  function noteDeprecation(response: Response, url: string) {
    const header = response.headers.get('deprecation') ?? undefined;
    const sunset = response.headers.get('sunset') ?? undefined;
    if (header === undefined && sunset === undefined) return;
    deprecation = {
      url,
      deprecation: header,
      deprecatedAt: deprecationDateOf(header),
      sunset,
      sunsetAt: sunsetDateOf(sunset),
      link: response.headers.get('link') ?? undefined,
    };
    options.onDeprecation?.(deprecation);
  }

  const secretHeaderNames = new Set([
    ...defaultSecretHeaders,
    ...(options.secretHeaders ?? []).map((name) => name.toLowerCase()),
  ]);
  // Every request, the run stream's included: no redirect takes the body or the token elsewhere.
  const guardedFetch = guardRedirects(fetchFunction, secretHeaderNames);

  /** One JSON request: a 2xx answer's status and (redacted) text, else a typed error. */
  const send: DurableWireTransport['send'] = async (url, requestOptions, requestBody, hooks) => {
    const method = requestBody === undefined ? 'GET' : 'POST';
    const { headers, secrets } = await resolveHeaders(
      'application/json',
      requestBody !== undefined,
    );
    let response: Response;
    try {
      hooks.onSend?.();
      response = await guardedFetch(url, {
        method,
        headers,
        signal: requestOptions?.signal,
        ...(requestBody === undefined ? {} : { body: JSON.stringify(requestBody) }),
      });
    } catch (error) {
      throw toNetworkError(error, url, secrets);
    }
    noteDeprecation(response, url);
    if (!response.ok) {
      throw await readErrorResponse(response, { url, method, secrets }, hooks.makeError);
    }
    try {
      return { status: response.status, text: redactText(await response.text(), secrets), secrets };
    } catch (error) {
      throw toNetworkError(error, url, secrets);
    }
  };

  /**
   * The JSON answer at `url`, checked by the check zod's compiler wrote from its schema
   * (wire-checks.generated.ts). A refusal loads zod's runtime (wire-explain.ts) to say why, so a
   * page that only gets valid answers never loads it (docs/decisions/0014-bundle-size.md).
   */
  async function getJson<Answer>(
    url: string,
    name: WireAnswerName,
    what: string,
    requestOptions: AgentRequestOptions | undefined,
    requestBody?: Record<string, unknown>,
  ): Promise<Answer> {
    const { text, secrets } = await send(url, requestOptions, requestBody, {
      makeError: (init) => new AgentHttpError(init),
    });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AgentValidationError(what, [{ path: '', message: 'the body is not JSON' }], text);
    }
    const redacted = redactValue(body, secrets);
    // No schema here transforms: the answer kept is the parsed body, unknown fields included.
    if (wireAnswerChecks[name](redacted) === true) return redacted as Answer;
    let explain: typeof explainWireRefusal;
    try {
      ({ explainWireRefusal: explain } = await import('./wire-explain.js'));
    } catch {
      // The refusal stands; only zod's account of it could not be loaded (a chunk the network lost).
      throw new AgentValidationError(
        what,
        [{ path: '', message: 'refused (the explanation could not be loaded)' }],
        redacted,
      );
    }
    return explain(name, redacted, what) as Answer;
  }

  return {
    resolveHeaders,
    noteDeprecation,
    guardedFetch,
    send,
    getJson,
    deprecation: () => deprecation,
  };
}

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A header value as fetch sends it (spaces, tabs and line breaks around it dropped), or an
 * {@link AgentInputError} naming the header (never the value) when fetch would refuse it: a line
 * break or NUL inside, or a character outside Latin-1. A bad value is a configuration error:
 * nothing is sent, and sending again cannot help.
 */
export function checkedHeaderValue(name: string, value: string, what: string): string {
  if (!headerName.test(name)) {
    throw new AgentInputError(`"${name}" is not a valid header name: nothing was sent.`);
  }
  const trimmed = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  for (let index = 0; index < trimmed.length; index += 1) {
    const code = trimmed.charCodeAt(index);
    if (code === 0 || code === 10 || code === 13 || code > 255) {
      throw new AgentInputError(
        `${what} holds a character no HTTP header can carry (a line break, NUL, or one outside Latin-1): nothing was sent.`,
      );
    }
  }
  return trimmed;
}

async function resolveLazy<T>(value: PerRequestValue<T> | undefined): Promise<T | undefined> {
  return typeof value === 'function' ? await (value as () => T | Promise<T>)() : value;
}
