import { AgentInputError } from './errors.js';
import type { Agent, AgentMessage, AgentSchemas, ToolServerAuthorization } from './schemas.js';
import type { DurableRunMethods } from './durable-run-wire.js';
import type {
  AgentApi,
  AgentRequestOptions,
  AgentSchemasRequestOptions,
  DeprecationNotice,
  PerRequestValue,
  PreparedRunRequest,
} from './agent-client-types.js';
import { onDemand } from '../base/on-demand.js';
import { createClientWire } from './client-wire.js';
import { sendStreamRequest } from './stream-run.js';
import type { SseAttemptResult, StreamRunOptions } from './sse-types.js';

export type {
  AgentApi,
  AgentRequestOptions,
  AgentSchemasRequestOptions,
  DeprecationNotice,
  PerRequestValue,
  PreparedRunRequest,
} from './agent-client-types.js';

/** Options of {@link createAgentClient}. */
export interface AgentClientOptions {
  /**
   * The deployment's origin, e.g. `https://acme-be.example.com`. A path prefix (a proxy at
   * `https://host/proxy`) and a trailing slash are allowed. An absolute http(s) URL, or in a
   * browser a path such as `/api/agent-service` (a proxy of `agent-console-kit/server` on the
   * page's origin), resolved against the page's location at every request.
   */
  baseUrl: string;
  /**
   * What the query keys name this client's service by, instead of its base URL: give the same
   * value to clients that reach the same service by different URLs (a server client on the
   * service's or the proxy's absolute URL, a browser client on `/api/agent-service`), so a page
   * prefetched on the server is not fetched again in the browser.
   * @default the normalized baseUrl
   */
  cacheKey?: string;
  /**
   * The endpoint generation. `'rest-v1'` is the legacy `/rest/api/v1/agents/…` (deprecated by the
   * service); `'platform'` is the replacement `/api/agents/{id}/…`.
   * @default 'rest-v1'
   */
  api?: AgentApi;
  /**
   * The bearer token, or a function asked for it before every request (reconnects included), so an
   * expiring token can be refreshed. `undefined` sends no `Authorization` header.
   * @default undefined
   */
  token?: PerRequestValue<string | undefined>;
  /**
   * Extra headers (e.g. `X-Glean-ActAs`, `X-Glean-Auth-Type: OAUTH`), or a function asked for them
   * before every request.
   * @default {}
   */
  headers?: PerRequestValue<Record<string, string>>;
  /**
   * The `fetch` to use.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Names of further headers whose values are secrets (case-insensitive), beside `Authorization`,
   * `Proxy-Authorization`, `Cookie` and `X-Glean-ActAs`, which always are: the token and these
   * values are replaced by `[redacted]` wherever a server echoes them (errors, events, exports).
   * @default []
   */
  secretHeaders?: readonly string[];
  /**
   * Called when a response carries `Deprecation` or `Sunset` headers (the legacy endpoints are
   * deprecated). The latest notice is also kept on `client.deprecation`.
   * @default undefined
   */
  onDeprecation?: (notice: DeprecationNotice) => void;
}

/** A run to start: the client maps it to the body of its API generation. */
export interface AgentRunRequest {
  agentId: string;
  /** The form input; for a form-triggered agent every field must be present (see `buildRunInput`). */
  input?: Record<string, unknown>;
  /** Messages, for agents that take them (`capabilities['ap.io.messages']`). */
  messages?: AgentMessage[];
  metadata?: Record<string, unknown>;
}

/** Options of {@link AgentClient.authorizeToolServer}. */
export interface AuthorizeToolServerOptions extends AgentRequestOptions {
  /** Where the service sends the browser back after consent (on the tenant's allowlist). */
  returnUrl: string;
}

/**
 * A client for one deployment and one API generation. Create it with {@link createAgentClient}.
 * The durable run methods ({@link DurableRunMethods}) need `api: 'platform'`.
 */
export interface AgentClient extends DurableRunMethods {
  /** The normalized base URL (no trailing slash); a path when it was given relative. */
  readonly baseUrl: string;
  /** What the query keys name the service by (`cacheKey`, else `baseUrl`). */
  readonly cacheKey?: string;
  readonly api: AgentApi;
  /** The latest deprecation notice a response carried, if any. */
  readonly deprecation: DeprecationNotice | undefined;
  /** Retrieves an agent record. */
  getAgent(agentId: string, options?: AgentRequestOptions): Promise<Agent>;
  /**
   * Searches agents by name: a case-insensitive substring; empty or blank lists every agent the
   * token can see. `POST …/agents/search` of the client's generation.
   */
  searchAgents(name?: string, options?: AgentRequestOptions): Promise<Agent[]>;
  /**
   * Starts the authorization of a tool server (after a 422): answers the URL to send the person's
   * browser to; after consent the service redirects back to `returnUrl` (which must be on the
   * tenant's allowlist). Always on the legacy path prefix
   * (`POST {base}/rest/api/v1/tool-servers/{serverId}/auth`), for both generations.
   */
  authorizeToolServer(serverId: string, options: AuthorizeToolServerOptions): Promise<string>;
  /**
   * Retrieves an agent's input and output JSON Schemas and, with `includeTools`, its tools
   * (`include_tools=true`, both generations).
   */
  getAgentSchemas(agentId: string, options?: AgentSchemasRequestOptions): Promise<AgentSchemas>;
  /**
   * Builds the HTTP request that starts a run (and streams it), asking for the token and headers
   * anew: what {@link streamRun} sends. Throws {@link AgentInputError} for a request that must not
   * be sent.
   */
  prepareRun(request: AgentRunRequest): Promise<PreparedRunRequest>;
  /**
   * One attempt of a run: builds its request ({@link prepareRun}: the agent id and the body
   * checked here, the token and headers asked for anew), sends it through this client's `fetch`
   * and redirect guard, checks the response and hands the event stream to the transport.
   * Resolves `'closed'` when the server ended the stream and `'aborted'` when `signal` did; rejects
   * with an {@link AgentInputError} (nothing sent), an `AgentHttpError` (a non-2xx status), an
   * `AgentValidationError` (a 2xx that is not `text/event-stream`, an event past `maxEventSize`),
   * an `AgentNetworkError` (no response, a drop, the idle timeout; `onOpen` tells which side of
   * the response) or what a callback threw. It never retries: `RunStream` holds that policy.
   */
  streamRun(request: AgentRunRequest, options: StreamRunOptions): Promise<SseAttemptResult>;
}

const platformRoles = new Set(['USER', 'GLEAN_AI']);

/**
 * Creates a client for one deployment of the agent service.
 *
 * @example
 * const client = createAgentClient({
 *   baseUrl: 'https://acme-be.example.com',
 *   api: 'platform',
 *   token: () => auth.getAccessToken(),
 * });
 * const agent = await client.getAgent('my-agent-id');
 */
export function createAgentClient(options: AgentClientOptions): AgentClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const api: AgentApi = options.api ?? 'rest-v1';
  if (api !== 'rest-v1' && api !== 'platform') {
    throw new TypeError(
      `createAgentClient: api must be 'rest-v1' or 'platform', not '${String(api)}'.`,
    );
  }
  // A relative baseUrl is resolved at each request: the page decides the origin, not the build.
  const root = () => resolveBaseUrl(baseUrl);
  const prefix = () =>
    api === 'rest-v1' ? `${root()}/rest/api/v1/agents` : `${root()}/api/agents`;
  const wire = createClientWire(options);
  const { send, getJson, resolveHeaders, guardedFetch, noteDeprecation } = wire;

  // The durable run wire (its schemas and errors) loads on the first durable call, so a page that
  // only streams does not carry it (docs/decisions/0014-bundle-size.md).
  const durableMethods = onDemand(() =>
    import('./durable-run-wire.js').then(({ createDurableRunMethods }) =>
      createDurableRunMethods({ api, prefix, agentIdSegment, checkRun: checkPlatformRun, send }),
    ),
  );

  const client: AgentClient = {
    baseUrl,
    cacheKey: options.cacheKey ?? baseUrl,
    api,
    get deprecation() {
      return wire.deprecation();
    },

    async getAgent(agentId, requestOptions) {
      const url = `${prefix()}/${agentIdSegment(agentId)}`;
      if (api === 'rest-v1') {
        return getJson<Agent>(url, 'agent', 'The agent record', requestOptions);
      }
      const wrapped = await getJson<{ agent: Agent; request_id?: string | undefined }>(
        url,
        'platformAgentResponse',
        'The agent response',
        requestOptions,
      );
      const { agent, request_id } = wrapped;
      return request_id === undefined ? agent : { ...agent, request_id };
    },

    async searchAgents(name, requestOptions) {
      const trimmed = name?.trim() ?? '';
      const answer = await getJson<{ agents?: Agent[] | undefined }>(
        `${prefix()}/search`,
        'agentSearchResponse',
        'The agent search answer',
        requestOptions,
        trimmed === '' ? {} : { name: trimmed },
      );
      return answer.agents ?? [];
    },

    async authorizeToolServer(serverId, authorizeOptions) {
      if (typeof serverId !== 'string' || serverId.trim() === '') {
        throw new AgentInputError('The tool server id is empty: nothing was sent.');
      }
      // Only the legacy generation has this endpoint; a platform client uses it too.
      const url = `${root()}/rest/api/v1/tool-servers/${encodeURIComponent(serverId)}/auth`;
      const answer = await getJson<ToolServerAuthorization>(
        url,
        'toolServerAuthorization',
        'The tool authorization answer',
        authorizeOptions,
        { returnUrl: authorizeOptions.returnUrl },
      );
      return answer.authorizationUrl;
    },

    async getAgentSchemas(agentId, requestOptions) {
      const includeTools = requestOptions?.includeTools === true;
      const url = `${prefix()}/${agentIdSegment(agentId)}/schemas${includeTools ? '?include_tools=true' : ''}`;
      const answer = await getJson<AgentSchemas>(
        url,
        'agentSchemas',
        'The agent schemas',
        requestOptions,
      );
      if (!includeTools || !answer.tools || answer.tools.length === 0) return answer;
      // The tools' check loads with the first answer that has tools: a page that never asks for
      // them does not carry it (docs/decisions/0014-bundle-size.md).
      const { checkToolsOf } = await import('./agent-tools-wire.js');
      return checkToolsOf(answer, 'The agent schemas');
    },

    async prepareRun(request) {
      const segment = agentIdSegment(request.agentId);
      const { input, messages, metadata } = request;
      let url: string;
      let body: Record<string, unknown>;
      if (api === 'rest-v1') {
        url = `${prefix()}/runs/stream`;
        body = { agent_id: request.agentId, ...definedOnly({ input, messages, metadata }) };
      } else {
        checkPlatformRun(request);
        url = `${prefix()}/${segment}/runs`;
        body = { ...definedOnly({ input, messages, metadata }), stream: true };
      }
      const { headers, secrets } = await resolveHeaders('text/event-stream', true);
      return { url, method: 'POST', headers, body: JSON.stringify(body), secrets };
    },

    async streamRun(request, streamOptions) {
      const prepared = await client.prepareRun(request);
      return sendStreamRequest(guardedFetch, prepared, streamOptions, (response) =>
        noteDeprecation(response, prepared.url),
      );
    },

    async startDurableRun(agentId, request, runOptions) {
      return (await durableMethods()).startDurableRun(agentId, request, runOptions);
    },
    async getDurableRun(agentId, runId, requestOptions) {
      return (await durableMethods()).getDurableRun(agentId, runId, requestOptions);
    },
    async cancelDurableRun(agentId, runId, requestOptions) {
      return (await durableMethods()).cancelDurableRun(agentId, runId, requestOptions);
    },
    async respondToDurableRun(agentId, runId, decisions, respondOptions) {
      return (await durableMethods()).respondToDurableRun(
        agentId,
        runId,
        decisions,
        respondOptions,
      );
    },
  };
  return client;
}

/** Checks an agent id and encodes it as exactly one path segment. */
export function agentIdSegment(agentId: string): string {
  if (typeof agentId !== 'string' || agentId.trim() === '') {
    throw new AgentInputError('The agent id is empty: nothing was sent.');
  }
  // URL parsing removes `.` and `..` segments (encoded too), so they can never name an agent.
  if (agentId === '.' || agentId === '..') {
    throw new AgentInputError(
      `The agent id "${agentId}" cannot be a path segment: nothing was sent.`,
    );
  }
  return encodeURIComponent(agentId);
}

function checkPlatformRun(request: Pick<AgentRunRequest, 'input' | 'messages'>) {
  if (request.input === undefined && request.messages === undefined) {
    throw new AgentInputError('A run needs `input` or `messages`: nothing was sent.');
  }
  if (request.messages === undefined) return;
  if (request.messages.length === 0) {
    throw new AgentInputError('`messages` needs at least one message: nothing was sent.');
  }
  request.messages.forEach((message, index) => {
    if (!platformRoles.has(message.role)) {
      throw new AgentInputError(
        `messages[${index}].role is "${message.role}"; the platform API takes USER or GLEAN_AI.`,
      );
    }
    if (message.content.length === 0) {
      throw new AgentInputError(`messages[${index}] has no content block.`);
    }
  });
}

function normalizeBaseUrl(baseUrl: string): string {
  if (typeof baseUrl === 'string' && baseUrl.startsWith('/') && !/^\/\/|\\/.test(baseUrl)) {
    if (/[?#]/.test(baseUrl)) {
      throw new TypeError('createAgentClient: baseUrl takes no query or fragment.');
    }
    return baseUrl.replace(/\/+$/, '');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `createAgentClient: baseUrl must be an absolute http(s) URL such as https://acme-be.example.com, or a path such as /api/agent-service, not "${String(baseUrl)}".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createAgentClient: baseUrl must use http or https, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(
      'createAgentClient: baseUrl takes no query, fragment or credentials (pass a token instead).',
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The absolute base of a request: a relative baseUrl resolved against the page's location. */
function resolveBaseUrl(baseUrl: string): string {
  if (!baseUrl.startsWith('/')) return baseUrl;
  const page: unknown = (globalThis as { location?: unknown }).location;
  const href =
    typeof page === 'object' && page !== null && 'href' in page ? String(page.href) : undefined;
  if (href === undefined) {
    throw new AgentInputError(
      `The baseUrl "${baseUrl}" is relative and there is no page to resolve it against (globalThis.location): on a server, give an absolute URL. Nothing was sent.`,
    );
  }
  const url = new URL(baseUrl, href);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
