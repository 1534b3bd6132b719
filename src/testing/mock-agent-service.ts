/**
 * The model of a mock agent service: one fetch-style handler (`handle(request) => Response`) that
 * serves both API generations (legacy `rest-v1` and the replacement `platform`) for a set of agents,
 * runs scripted streams, and records every request. Adapters (node:http, msw) only convert bytes.
 *
 * Built on Web `Request`/`Response`/`ReadableStream` only: it runs in Node 20 and in browsers.
 */
import { demoAgents } from './demo-agents.js';
import { encodeStreamItem, isEventItem, messagePayload, textEvents } from './mock-events.js';
import type { MockApiGeneration, MockProblem, MockStreamItem } from './mock-events.js';
import type {
  MockAgentDefinition,
  MockAgentRecord,
  MockAgentSchemas,
  MockAgentService,
  MockAgentServiceOptions,
  MockEndpoint,
  MockInjectedResponse,
  MockPreflightRecord,
  MockRequestRecord,
  MockRunRequest,
  MockRunScenario,
} from './mock-agent-types.js';

const legacyMarker = ['rest', 'api', 'v1', 'agents'] as const;
const platformMarker = ['api', 'agents'] as const;
const allowedHeaders = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Last-Event-ID',
  'X-Glean-ActAs',
  'X-Glean-Auth-Type',
];
const platformRunFields = new Set(['input', 'messages', 'metadata', 'stream']);
const platformRoles = new Set(['USER', 'GLEAN_AI']);
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

type Route =
  | { api: MockApiGeneration; endpoint: 'agent' | 'schemas'; agentId: string }
  | { api: 'platform'; endpoint: 'run'; agentId: string }
  | { api: 'rest-v1'; endpoint: 'run'; agentId?: undefined };

interface AgentState {
  posts: number;
  streams: number;
}

interface Injection extends MockInjectedResponse {
  agentId: string;
  remaining: number;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function markerAt(segments: string[], marker: readonly string[], at: number): boolean {
  if (at < 0) return false;
  return marker.every((part, offset) => segments[at + offset] === part);
}

/** Match a raw pathname (split on '/' before decoding so `%2F` stays inside an id). */
function matchRoute(pathname: string): Route | undefined {
  const segments = pathname.split('/');
  const count = segments.length;
  const last = segments[count - 1] ?? '';
  const beforeLast = segments[count - 2] ?? '';
  // legacy run: .../rest/api/v1/agents/runs/stream
  if (beforeLast === 'runs' && last === 'stream' && markerAt(segments, legacyMarker, count - 6)) {
    return { api: 'rest-v1', endpoint: 'run' };
  }
  // .../{marker}/{id}/schemas, .../api/agents/{id}/runs
  if (beforeLast !== '' && last === 'schemas') {
    const agentId = decodeSegment(beforeLast);
    if (markerAt(segments, legacyMarker, count - 6))
      return { api: 'rest-v1', endpoint: 'schemas', agentId };
    if (markerAt(segments, platformMarker, count - 4))
      return { api: 'platform', endpoint: 'schemas', agentId };
  }
  if (beforeLast !== '' && last === 'runs' && markerAt(segments, platformMarker, count - 4)) {
    return { api: 'platform', endpoint: 'run', agentId: decodeSegment(beforeLast) };
  }
  // .../{marker}/{id}
  if (last !== '') {
    const agentId = decodeSegment(last);
    if (markerAt(segments, legacyMarker, count - 5))
      return { api: 'rest-v1', endpoint: 'agent', agentId };
    if (markerAt(segments, platformMarker, count - 3))
      return { api: 'platform', endpoint: 'agent', agentId };
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Abortable wait; resolves early (never rejects) on abort and leaves no timer behind. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A macrotask gap, so separate writes really leave separately. */
function macrotask(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown })
    .setImmediate;
  return new Promise((resolve) => {
    if (immediate) immediate(resolve);
    else setTimeout(resolve, 0);
  });
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

const drop = Symbol('drop');

/** The run request a scenario's `eventsFor` sees: the body's messages and input, as sent. */
function runRequestOf(body: unknown, api: MockApiGeneration): MockRunRequest {
  const object = isPlainObject(body) ? body : {};
  const messages = Array.isArray(object.messages) ? object.messages : [];
  return {
    api,
    messages: messages.map((message: unknown) => {
      const entry = isPlainObject(message) ? message : {};
      const content = Array.isArray(entry.content) ? entry.content : [];
      return {
        role: typeof entry.role === 'string' ? entry.role : '',
        text: content
          .map((block: unknown) =>
            isPlainObject(block) && typeof block.text === 'string' ? block.text : '',
          )
          .join(''),
      };
    }),
    input: isPlainObject(object.input) ? object.input : undefined,
  };
}

interface StreamPlan {
  items: MockStreamItem[];
  /** Assigned event position (1-based) of each item; 0 for comments and raw items. */
  ids: number[];
  startIndex: number;
  scenario: MockRunScenario;
  drops: boolean;
}

async function* produceStream(
  plan: StreamPlan,
  signal: AbortSignal,
  onEvent: () => void,
): AsyncGenerator<Uint8Array | typeof drop> {
  const { scenario } = plan;
  const encoder = new TextEncoder();
  const lineEnding = scenario.lineEnding ?? '\n';
  const chunkSize =
    scenario.chunkSize !== undefined ? Math.max(1, Math.floor(scenario.chunkSize)) : undefined;
  let eventsSent = 0;
  let firstEvent = true;

  async function* pieces(text: string): AsyncGenerator<Uint8Array> {
    const bytes = encoder.encode(text);
    if (chunkSize === undefined || bytes.length <= chunkSize) {
      yield bytes;
      return;
    }
    for (let offset = 0; offset < bytes.length; offset += chunkSize) {
      if (offset > 0) await macrotask();
      if (signal.aborted) return;
      yield bytes.slice(offset, offset + chunkSize);
    }
  }

  async function* pause(ms: number): AsyncGenerator<Uint8Array> {
    const heartbeat = scenario.heartbeatEveryMs;
    if (heartbeat === undefined || heartbeat <= 0) {
      if (ms > 0) await sleep(ms, signal);
      return;
    }
    let remaining = ms;
    while (remaining > 0 && !signal.aborted) {
      const step = Math.min(heartbeat, remaining);
      await sleep(step, signal);
      remaining -= step;
      if (remaining > 0 && !signal.aborted) yield* pieces(`: keep-alive${lineEnding}`);
    }
  }

  if (scenario.retryField !== undefined)
    yield* pieces(`retry: ${scenario.retryField}${lineEnding}`);

  for (let index = plan.startIndex; index < plan.items.length; index++) {
    const item = plan.items[index];
    if (item === undefined || signal.aborted) return;
    const isEvent = isEventItem(item);
    if (isEvent) {
      if (plan.drops && scenario.dropAfter !== undefined && eventsSent >= scenario.dropAfter) {
        yield drop;
        return;
      }
      if (scenario.halfOpenAfter !== undefined && eventsSent >= scenario.halfOpenAfter) {
        await waitForAbort(signal);
        return;
      }
      yield* pause(firstEvent ? (scenario.firstEventDelayMs ?? 0) : (scenario.delayMs ?? 0));
      if (signal.aborted) return;
      firstEvent = false;
      // counted when handed over (before its first byte is read)
      eventsSent++;
      onEvent();
    }
    yield* pieces(encodeStreamItem(item, plan.ids[index] ?? 0, lineEnding));
  }
  if (signal.aborted) return;
  if (plan.drops && scenario.dropAfter !== undefined && eventsSent >= scenario.dropAfter) {
    yield drop;
    return;
  }
  if (
    scenario.neverEnd === true ||
    (scenario.halfOpenAfter !== undefined && eventsSent >= scenario.halfOpenAfter)
  ) {
    await waitForAbort(signal);
  }
}

function defaultEvents(agent: MockAgentRecord): MockStreamItem[] {
  return textEvents(
    `Hello from ${agent.name}. This is a mock run: the text arrives as small deltas, ` +
      'one word at a time, and the stream closes after the last one.',
  );
}

/** Create the model. */
export function createMockAgentService(options: MockAgentServiceOptions = {}): MockAgentService {
  const agents = new Map<string, MockAgentDefinition>();
  for (const definition of options.agents ?? demoAgents)
    agents.set(definition.agent.agent_id, definition);
  const requestIdPrefix = options.requestIdPrefix ?? 'req_mock_';
  const sunset = options.sunset ?? 'Thu, 31 Dec 2026 23:59:59 GMT';
  const requests: MockRequestRecord[] = [];
  const preflights: MockPreflightRecord[] = [];
  const states = new Map<string, AgentState>();
  let injections: Injection[] = [];
  let requestCounter = 0;
  let openStreams = 0;

  const stateOf = (agentId: string): AgentState => {
    let state = states.get(agentId);
    if (!state) {
      state = { posts: 0, streams: 0 };
      states.set(agentId, state);
    }
    return state;
  };
  const nextRequestId = () => `${requestIdPrefix}${++requestCounter}`;

  const corsHeaders = (request: Request): Headers => {
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
  };

  const respond = (
    request: Request,
    route: Route | undefined,
    status: number,
    body: BodyInit | null,
    contentType?: string,
    extra?: Record<string, string>,
  ): Response => {
    const headers = corsHeaders(request);
    if (contentType !== undefined) headers.set('Content-Type', contentType);
    if (route?.api === 'rest-v1' && options.deprecationHeaders === true) {
      headers.set('Deprecation', 'true');
      headers.set('Sunset', sunset);
      headers.set('Link', '</api/agents>; rel="successor-version"');
    }
    for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    const nullBody = status === 204 || status === 205 || status === 304;
    return new Response(nullBody ? null : body, { status, headers });
  };

  const json = (
    request: Request,
    route: Route | undefined,
    status: number,
    value: unknown,
    extra?: Record<string, string>,
  ) => respond(request, route, status, JSON.stringify(value), 'application/json', extra);

  const problem = (
    request: Request,
    route: Route | undefined,
    status: number,
    fields: MockProblem,
    extra?: Record<string, string>,
  ) =>
    respond(
      request,
      route,
      status,
      JSON.stringify({
        type: 'about:blank',
        title: statusTitles[status] ?? 'Error',
        status,
        code: statusCodes[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request'),
        ...fields,
        request_id: nextRequestId(),
      }),
      'application/problem+json',
      extra,
    );

  /** An error in the style of the generation: problem+json on platform, a bare JSON string on legacy. */
  const failure = (
    request: Request,
    route: Route,
    status: number,
    detail: string,
    fields: MockProblem = {},
    extra?: Record<string, string>,
  ) =>
    route.api === 'platform'
      ? problem(request, route, status, { detail, ...fields }, extra)
      : json(request, route, status, detail, extra);

  const bodyResponse = (
    request: Request,
    route: Route | undefined,
    status: number,
    body: unknown,
    contentType: string | undefined,
    extra?: Record<string, string>,
  ) => {
    if (body === undefined || body === null)
      return respond(request, route, status, null, contentType, extra);
    if (typeof body === 'string') {
      return respond(
        request,
        route,
        status,
        body,
        contentType ?? 'text/plain; charset=utf-8',
        extra,
      );
    }
    return respond(
      request,
      route,
      status,
      JSON.stringify(body),
      contentType ?? 'application/json',
      extra,
    );
  };

  const takeInjection = (agentId: string | undefined, endpoint: MockEndpoint) => {
    if (agentId === undefined) return undefined;
    const injection = injections.find(
      (candidate) =>
        candidate.agentId === agentId &&
        candidate.remaining > 0 &&
        (candidate.endpoint === undefined ||
          candidate.endpoint === 'any' ||
          candidate.endpoint === endpoint),
    );
    if (!injection) return undefined;
    injection.remaining--;
    if (injection.remaining <= 0)
      injections = injections.filter((candidate) => candidate !== injection);
    return injection;
  };

  const recordRequest = async (request: Request, url: URL): Promise<MockRequestRecord> => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      const lower = name.toLowerCase();
      headers[lower] = lower === 'authorization' || lower === 'cookie' ? '[redacted]' : value;
    });
    const authorization = request.headers.get('authorization');
    const record: MockRequestRecord = {
      method: request.method,
      path: url.pathname,
      search: url.search,
      headers,
      hasAuthorization: authorization !== null,
      time: Date.now(),
    };
    if (authorization !== null) {
      const [scheme, ...rest] = authorization.trim().split(/\s+/);
      const token = rest.join(' ');
      if (scheme) record.authorizationScheme = scheme;
      if (token.length > 4) record.tokenFingerprint = token.slice(-4);
    }
    const lastEventId = request.headers.get('last-event-id');
    if (lastEventId !== null) record.lastEventId = lastEventId;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const text = await request.text();
      if (text !== '') {
        try {
          record.body = JSON.parse(text) as unknown;
        } catch {
          record.body = text;
        }
      }
    }
    return record;
  };

  const schemasOf = (definition: MockAgentDefinition): MockAgentSchemas =>
    definition.schemas ?? { input_schema: {}, output_schema: {} };

  const validatePlatformRun = (body: unknown): MockProblem | undefined => {
    if (!isPlainObject(body)) {
      return {
        code: 'invalid_request',
        detail: 'The request body must be a JSON object.',
        errors: [{ pointer: '', detail: 'Expected a JSON object.', code: 'invalid_type' }],
      };
    }
    const unknownFields = Object.keys(body).filter((key) => !platformRunFields.has(key));
    if (unknownFields.length > 0) {
      return {
        code: 'invalid_request',
        detail: `Unknown field${unknownFields.length > 1 ? 's' : ''}: ${unknownFields.join(', ')}.`,
        errors: unknownFields.map((field) => ({
          pointer: `/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`,
          detail: 'This field is not allowed.',
          code: 'unknown_field',
        })),
      };
    }
    if (body.messages === undefined && body.input === undefined) {
      return {
        code: 'missing_required_field',
        detail: 'The request must carry messages or input.',
        errors: [
          {
            pointer: '/messages',
            detail: 'messages or input is required.',
            code: 'missing_required_field',
          },
        ],
      };
    }
    if (body.stream !== undefined && typeof body.stream !== 'boolean') {
      return {
        code: 'invalid_request',
        detail: 'stream must be a boolean.',
        errors: [{ pointer: '/stream', detail: 'Expected a boolean.', code: 'invalid_type' }],
      };
    }
    if (body.input !== undefined && !isPlainObject(body.input)) {
      return {
        code: 'invalid_request',
        detail: 'input must be an object.',
        errors: [{ pointer: '/input', detail: 'Expected an object.', code: 'invalid_type' }],
      };
    }
    if (body.messages !== undefined) {
      if (!Array.isArray(body.messages) || body.messages.length === 0) {
        return {
          code: 'invalid_request',
          detail: 'messages must hold at least one message.',
          errors: [
            { pointer: '/messages', detail: 'Expected a non-empty array.', code: 'invalid_value' },
          ],
        };
      }
      const errors: NonNullable<MockProblem['errors']> = [];
      body.messages.forEach((message: unknown, index: number) => {
        const role = isPlainObject(message) ? message.role : undefined;
        if (typeof role !== 'string' || !platformRoles.has(role)) {
          errors.push({
            pointer: `/messages/${index}/role`,
            detail: 'role must be USER or GLEAN_AI.',
            code: 'invalid_value',
          });
        }
        const content = isPlainObject(message) ? message.content : undefined;
        if (!Array.isArray(content) || content.length === 0) {
          errors.push({
            pointer: `/messages/${index}/content`,
            detail: 'content must hold at least one block.',
            code: 'invalid_value',
          });
        }
      });
      if (errors.length > 0)
        return { code: 'invalid_request', detail: 'Invalid messages.', errors };
    }
    return undefined;
  };

  const missingFormFields = (definition: MockAgentDefinition, input: unknown): string[] => {
    const properties = schemasOf(definition).input_schema.properties;
    if (!isPlainObject(properties)) return [];
    const keys = Object.keys(properties);
    if (keys.length === 0) return [];
    const given = isPlainObject(input) ? input : {};
    return keys.filter((key) => !(key in given));
  };

  const planFor = (
    definition: MockAgentDefinition,
    route: Route,
    lastEventId: string | undefined,
    streamNumber: number,
    body: unknown,
  ): StreamPlan => {
    const scenario = definition.run ?? {};
    const computed = scenario.eventsFor?.(runRequestOf(body, route.api));
    const base = (computed ?? scenario.events ?? defaultEvents(definition.agent)).filter(
      (item) => item.api === undefined || item.api === route.api,
    );
    const repeat = Math.max(1, Math.floor(scenario.repeat ?? 1));
    const items = repeat === 1 ? base : Array.from({ length: repeat }, () => base).flat();
    const ids: number[] = [];
    let counter = 0;
    for (const item of items) ids.push(isEventItem(item) ? ++counter : 0);
    let startIndex = 0;
    if ((scenario.onReconnect ?? 'restart') === 'resume' && lastEventId !== undefined) {
      const last = Number.parseInt(lastEventId, 10);
      if (Number.isFinite(last) && last > 0) {
        const found = ids.indexOf(last);
        startIndex = found >= 0 ? found + 1 : last >= counter ? items.length : 0;
      }
    }
    const dropTimes = scenario.dropTimes ?? 1;
    return { items, ids, startIndex, scenario, drops: streamNumber <= dropTimes };
  };

  const streamResponse = (
    request: Request,
    route: Route,
    plan: StreamPlan,
    record: MockRequestRecord,
  ) => {
    const abort = new AbortController();
    let finished = false;
    record.eventsSent = 0;
    const finish = (how: 'completed' | 'dropped' | 'closedByClient') => {
      if (finished) return;
      finished = true;
      openStreams--;
      record[how] = true;
    };
    const generator = produceStream(plan, abort.signal, () => {
      record.eventsSent = (record.eventsSent ?? 0) + 1;
    });
    openStreams++;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const next = await generator.next();
            if (finished) return;
            if (next.done) {
              finish('completed');
              controller.close();
            } else if (next.value === drop) {
              finish('dropped');
              controller.error(
                new TypeError('mock agent service: connection dropped by the scenario'),
              );
            } else {
              controller.enqueue(next.value);
            }
          } catch (error) {
            if (finished) return;
            finish('dropped');
            controller.error(error);
          }
        },
        cancel() {
          finish('closedByClient');
          abort.abort();
          void generator.return(undefined).catch(() => undefined);
        },
      },
      { highWaterMark: 0 },
    );
    return respond(request, route, 200, body, 'text/event-stream; charset=utf-8', {
      'Cache-Control': 'no-cache',
    });
  };

  const handleRun = async (
    request: Request,
    route: Route,
    record: MockRequestRecord,
  ): Promise<Response> => {
    const body = record.body;
    let agentId: string | undefined = route.agentId;
    if (route.api === 'rest-v1') {
      if (!isPlainObject(body))
        return json(request, route, 400, 'Request body must be a JSON object');
      if (typeof body.agent_id !== 'string')
        return json(request, route, 400, 'agent_id is required');
      agentId = body.agent_id;
      record.agentId = agentId;
    }
    if (agentId === undefined) return json(request, route, 400, 'agent_id is required');
    const state = stateOf(agentId);
    state.posts++;
    record.attempt = state.posts;

    const injection = takeInjection(agentId, 'run');
    if (injection) {
      return bodyResponse(
        request,
        route,
        injection.status,
        injection.body,
        injection.contentType,
        injection.headers,
      );
    }
    const definition = agents.get(agentId);
    if (!definition) {
      return failure(request, route, 404, 'Agent not found', { code: 'resource_not_found' });
    }
    if (route.api === 'platform') {
      const invalid = validatePlatformRun(body);
      if (invalid) return problem(request, route, 400, invalid);
    }
    const input = isPlainObject(body) ? body.input : undefined;
    const missing = missingFormFields(definition, input);
    if (missing.length > 0) {
      return failure(
        request,
        route,
        500,
        'Internal server error',
        { code: 'internal_error' },
        {
          'X-Mock-Reason': `input lacks form field(s): ${missing.join(', ')}`,
        },
      );
    }
    const scenario = definition.run ?? {};
    const failFirst = scenario.failFirst;
    if (failFirst && state.posts <= failFirst.attempts) {
      const extra: Record<string, string> = {};
      if (failFirst.retryAfter !== undefined) extra['Retry-After'] = failFirst.retryAfter;
      const given =
        (route.api === 'platform' ? failFirst.platformBody : failFirst.legacyBody) ??
        failFirst.body;
      if (given !== undefined) {
        const contentType =
          route.api === 'platform' && isPlainObject(given) ? 'application/problem+json' : undefined;
        return bodyResponse(request, route, failFirst.status, given, contentType, extra);
      }
      if (route.api === 'rest-v1' && failFirst.status === 422) {
        return json(
          request,
          route,
          422,
          { message: 'Tool authorization required', authenticationSuggestions: [] },
          extra,
        );
      }
      return failure(
        request,
        route,
        failFirst.status,
        statusTitles[failFirst.status] ?? 'Error',
        {},
        extra,
      );
    }
    if (route.api === 'platform' && isPlainObject(body) && body.stream !== true) {
      const plan = planFor(definition, route, undefined, Number.POSITIVE_INFINITY, body);
      const text = plan.items
        .map((item) => ('text' in item && !('data' in item) ? item.text : ''))
        .join('');
      return json(request, route, 200, { ...messagePayload(text), request_id: nextRequestId() });
    }
    state.streams++;
    return streamResponse(
      request,
      route,
      planFor(definition, route, record.lastEventId, state.streams, body),
      record,
    );
  };

  const route = async (
    request: Request,
    url: URL,
    record: MockRequestRecord,
  ): Promise<Response> => {
    const matched = matchRoute(url.pathname);
    if (!matched) return json(request, undefined, 404, 'Not found');
    record.api = matched.api;
    record.endpoint = matched.endpoint;
    if (matched.agentId !== undefined) record.agentId = matched.agentId;
    const expected = matched.endpoint === 'run' ? 'POST' : 'GET';
    if (request.method !== expected && !(expected === 'GET' && request.method === 'HEAD')) {
      return failure(
        request,
        matched,
        405,
        'Method not allowed',
        {},
        { Allow: `${expected}, OPTIONS` },
      );
    }
    if (matched.endpoint === 'run') return handleRun(request, matched, record);

    const injection = takeInjection(matched.agentId, matched.endpoint);
    if (injection) {
      return bodyResponse(
        request,
        matched,
        injection.status,
        injection.body,
        injection.contentType,
        injection.headers,
      );
    }
    const definition = agents.get(matched.agentId);
    if (!definition)
      return failure(request, matched, 404, 'Agent not found', { code: 'resource_not_found' });
    if (matched.endpoint === 'agent') {
      return matched.api === 'platform'
        ? json(request, matched, 200, { agent: definition.agent, request_id: nextRequestId() })
        : json(request, matched, 200, definition.agent);
    }
    const schemas = {
      agent_id: definition.agent.agent_id,
      output_schema: {},
      ...schemasOf(definition),
    };
    return matched.api === 'platform'
      ? json(request, matched, 200, { ...schemas, request_id: nextRequestId() })
      : json(request, matched, 200, schemas);
  };

  const service: MockAgentService = {
    async handle(request) {
      const url = new URL(request.url);
      if (request.method === 'OPTIONS') {
        const preflight: MockPreflightRecord = { path: url.pathname, time: Date.now() };
        const origin = request.headers.get('origin');
        const requestMethod = request.headers.get('access-control-request-method');
        const requestHeaders = request.headers.get('access-control-request-headers');
        if (origin !== null) preflight.origin = origin;
        if (requestMethod !== null) preflight.requestMethod = requestMethod;
        if (requestHeaders !== null) preflight.requestHeaders = requestHeaders;
        preflights.push(preflight);
        return respond(request, matchRoute(url.pathname), 204, null);
      }
      const record = await recordRequest(request, url);
      requests.push(record);
      const response = await route(request, url, record);
      record.status = response.status;
      return response;
    },
    matches(url) {
      const pathname = (typeof url === 'string' ? new URL(url) : url).pathname;
      return matchRoute(pathname) !== undefined;
    },
    get requests() {
      return requests;
    },
    get preflights() {
      return preflights;
    },
    runRequests(agentId) {
      return requests.filter(
        (record) =>
          record.endpoint === 'run' &&
          record.method === 'POST' &&
          (agentId === undefined || record.agentId === agentId),
      );
    },
    postCount(agentId) {
      return service.runRequests(agentId).length;
    },
    get openStreams() {
      return openStreams;
    },
    inject(agentId, response) {
      injections.push({
        ...response,
        agentId,
        remaining: response.times ?? Number.POSITIVE_INFINITY,
      });
    },
    clearInjections() {
      injections = [];
    },
    reset() {
      requests.length = 0;
      preflights.length = 0;
      states.clear();
      injections = [];
    },
    setAgent(definition) {
      agents.set(definition.agent.agent_id, definition);
    },
    waitFor(predicate, timeoutMs = 2000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const check = () => {
          let done = false;
          try {
            done = predicate();
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
            return;
          }
          if (done) resolve();
          else if (Date.now() - started >= timeoutMs) {
            reject(new Error(`waitFor: condition not met within ${timeoutMs} ms`));
          } else setTimeout(check, 5);
        };
        check();
      });
    },
  };
  return service;
}
