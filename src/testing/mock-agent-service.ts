/**
 * The model of a mock agent service: one fetch-style handler (`handle(request) => Response`) that
 * serves both API generations (legacy `rest-v1` and the replacement `platform`) for a set of agents,
 * runs scripted streams, and records every request. Adapters (node:http, msw) only convert bytes.
 *
 * Built on Web `Request`/`Response`/`ReadableStream` only: it runs in Node 20 and in browsers.
 */
import {
  encodeStreamItem,
  isEventItem,
  manyEvents,
  messagePayload,
  runFailedEvent,
  textEvents,
} from './mock-events.js';
import type { MockApiGeneration, MockProblem, MockStreamItem } from './mock-events.js';

export type { MockApiGeneration } from './mock-events.js';

/** The three endpoints of an agent. */
export type MockEndpoint = 'agent' | 'schemas' | 'run';

/** `capabilities` of an agent record; other keys are allowed. */
export interface MockAgentCapabilities {
  'ap.io.messages'?: boolean;
  'ap.io.streaming'?: boolean;
  [key: string]: unknown;
}

/** The agent record as the service answers it (legacy bare, platform wrapped in `{agent}`). */
export interface MockAgentRecord {
  agent_id: string;
  name: string;
  description?: string;
  capabilities: MockAgentCapabilities;
  [key: string]: unknown;
}

/** The schemas answer (`agent_id` and, on platform, `request_id` are added). */
export interface MockAgentSchemas {
  /** JSON Schema of the input form. `properties` makes it a form agent. */
  input_schema: Record<string, unknown>;
  /** @default {} */
  output_schema?: Record<string, unknown>;
  /** @default undefined (not sent) */
  tools?: unknown[];
  [key: string]: unknown;
}

/** A scripted failure of the first run attempts of an agent. */
export interface MockFailFirst {
  /** How many POSTs (counted per agent, from 1) answer `status`. `Infinity` = every POST. */
  attempts: number;
  /** The HTTP status, e.g. 429, 503, 422. */
  status: number;
  /**
   * The `Retry-After` header value (seconds or an HTTP date).
   * @default undefined (no header)
   */
  retryAfter?: string;
  /**
   * The body for both generations (objects as JSON, strings as given).
   * @default a problem+json on platform, a bare JSON string (or the 422 tool shape) on legacy
   */
  body?: unknown;
  /** The body on `rest-v1` only; wins over `body`. @default undefined */
  legacyBody?: unknown;
  /** The body on `platform` only; wins over `body`. @default undefined */
  platformBody?: unknown;
}

/** How a run of an agent streams. */
export interface MockRunScenario {
  /**
   * The items of the stream, in order.
   * @default a short paragraph naming the agent, one word per delta
   */
  events?: MockStreamItem[];
  /**
   * Send `events` this many times in a row (ids keep counting).
   * @default 1
   */
  repeat?: number;
  /**
   * Milliseconds to wait before every event but the first.
   * @default 0
   */
  delayMs?: number;
  /**
   * Milliseconds to wait before the first event (after the headers).
   * @default 0
   */
  firstEventDelayMs?: number;
  /**
   * Send `: keep-alive` comments every this many ms while waiting between events.
   * @default undefined (no heartbeats)
   */
  heartbeatEveryMs?: number;
  /**
   * Drop the connection abruptly after this many events of the attempt (the body stream errors;
   * the node adapter destroys the socket, so the client sees a network error mid-body).
   * @default undefined (never drops)
   */
  dropAfter?: number;
  /**
   * How many streaming attempts of the agent drop (counted per agent from 1); later ones finish.
   * @default 1
   */
  dropTimes?: number;
  /**
   * What a POST carrying `Last-Event-ID: n` gets: `'resume'` continues after event n,
   * `'restart'` starts over at id 1 (a server that ignores the header).
   * @default 'restart'
   */
  onReconnect?: 'resume' | 'restart';
  /**
   * The first POSTs of the agent fail with a status before any stream.
   * @default undefined
   */
  failFirst?: MockFailFirst;
  /**
   * The line ending of every line (raw items excepted).
   * @default '\n'
   */
  lineEnding?: '\n' | '\r\n';
  /**
   * Send a `retry: N` line before the first event.
   * @default undefined (none)
   */
  retryField?: number;
  /**
   * Write the encoded bytes in chunks of this many BYTES, each a separate write with a macrotask
   * gap between them (1 = single bytes: multi-byte characters are split across chunks).
   * @default undefined (one write per item)
   */
  chunkSize?: number;
  /**
   * After the last event keep the stream open, sending nothing, until the client goes away.
   * @default false
   */
  neverEnd?: boolean;
  /**
   * After this many events go silent forever without closing (a half-open connection).
   * @default undefined
   */
  halfOpenAfter?: number;
  /**
   * How the stream ends after the last event: `'close'` closes it (there is no end event).
   * @default 'close'
   */
  end?: 'close';
}

/** One agent of the mock service. */
export interface MockAgentDefinition {
  /** The agent record. */
  agent: MockAgentRecord;
  /** @default { input_schema: {}, output_schema: {} } */
  schemas?: MockAgentSchemas;
  /** @default a short paragraph delivered as word deltas */
  run?: MockRunScenario;
}

/** Options of {@link createMockAgentService}. */
export interface MockAgentServiceOptions {
  /**
   * The agents served.
   * @default demoAgents
   */
  agents?: MockAgentDefinition[];
  /**
   * Send `Deprecation: true`, `Sunset` and a successor `Link` on legacy (`rest-v1`) responses.
   * @default false
   */
  deprecationHeaders?: boolean;
  /**
   * The `Sunset` date sent with `deprecationHeaders`.
   * @default 'Thu, 31 Dec 2026 23:59:59 GMT'
   */
  sunset?: string;
  /**
   * Prefix of the `request_id`s of platform answers (followed by a counter).
   * @default 'req_mock_'
   */
  requestIdPrefix?: string;
}

/** A response forced by {@link MockAgentService.inject}. */
export interface MockInjectedResponse {
  /** The HTTP status (200 to 599). */
  status: number;
  /**
   * The body: objects are sent as JSON, strings as the text given.
   * @default undefined (empty body)
   */
  body?: unknown;
  /**
   * The Content-Type.
   * @default 'application/json' for an object body, 'text/plain; charset=utf-8' for a string
   */
  contentType?: string;
  /** Extra headers. @default {} */
  headers?: Record<string, string>;
  /**
   * Which requests of the agent it answers.
   * @default 'any'
   */
  endpoint?: MockEndpoint | 'any';
  /**
   * How many requests it answers.
   * @default Infinity
   */
  times?: number;
}

/** What the service recorded about one request. */
export interface MockRequestRecord {
  method: string;
  /** The raw (still percent-encoded) pathname. */
  path: string;
  /** The query string, with its `?`, or ''. */
  search: string;
  /** The decoded agent id (from the path, or `agent_id` of a legacy run body). */
  agentId?: string;
  /** The generation of the matched route; undefined when no route matched. */
  api?: MockApiGeneration;
  /** The matched endpoint; undefined when no route matched. */
  endpoint?: MockEndpoint;
  /** Lower-cased header names; the authorization value is replaced by '[redacted]'. */
  headers: Record<string, string>;
  hasAuthorization: boolean;
  /** The first word of the Authorization header, e.g. 'Bearer'. */
  authorizationScheme?: string;
  /** The last 4 characters of the token (never the token), to tell tokens apart. */
  tokenFingerprint?: string;
  /** The body: parsed JSON, else the text; undefined when empty. */
  body?: unknown;
  /** The `Last-Event-ID` header. */
  lastEventId?: string;
  /** For run POSTs: the agent's POST count including this one (1, 2, ...). */
  attempt?: number;
  /** Date.now() when received. */
  time: number;
  /** The status answered. */
  status?: number;
  /** For streams: events sent so far. */
  eventsSent?: number;
  /** For streams: the client went away before the stream ended. */
  closedByClient?: true;
  /** For streams: the scenario dropped the connection. */
  dropped?: true;
  /** For streams: the stream ended normally. */
  completed?: true;
}

/** A recorded CORS preflight (OPTIONS). */
export interface MockPreflightRecord {
  path: string;
  origin?: string;
  requestMethod?: string;
  requestHeaders?: string;
  time: number;
}

/** The model. */
export interface MockAgentService {
  /** Answer one request (any method, any path; unknown paths get 404). */
  handle(request: Request): Promise<Response>;
  /** True when the URL's path is one of the service's routes (adapters pass the rest through). */
  matches(url: string | URL): boolean;
  /** Every request but preflights, in arrival order (a live array). */
  readonly requests: readonly MockRequestRecord[];
  /** The recorded OPTIONS preflights. */
  readonly preflights: readonly MockPreflightRecord[];
  /** Run POSTs (of one agent when given). */
  runRequests(agentId?: string): MockRequestRecord[];
  /** How many run POSTs (of one agent when given). */
  postCount(agentId?: string): number;
  /** Run streams currently open (created and neither ended, dropped nor cancelled). */
  readonly openStreams: number;
  /** Force the next responses for an agent (FIFO among injections that match the endpoint). */
  inject(agentId: string, response: MockInjectedResponse): void;
  /** Remove every injection. */
  clearInjections(): void;
  /** Clear records, per-agent counters and injections. */
  reset(): void;
  /** Add or replace an agent. */
  setAgent(definition: MockAgentDefinition): void;
  /** Resolve once `predicate` is true (polled every 5 ms); reject after `timeoutMs` (default 2000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
}

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

/** The ready-made agents (used by Storybook and demos). */
export const demoAgents: MockAgentDefinition[] = createDemoAgents();

function createDemoAgents(): MockAgentDefinition[] {
  const paragraph = (subject: string) =>
    textEvents(
      `${subject} Here is a short summary: the request was understood, ` +
        'three sources were checked, and the answer is ready for review.',
    );
  const xss = '<img src=x onerror=alert(1)>';
  const script = '<script>alert(1)</script>';
  const link = 'javascript:alert(1)';
  return [
    {
      agent: {
        agent_id: 'form-agent',
        name: 'Project intake',
        description: 'Started by an input form with every kind of field.',
        capabilities: { 'ap.io.messages': false, 'ap.io.streaming': true },
      },
      schemas: {
        input_schema: {
          type: 'object',
          properties: {
            title: {
              type: 'string',
              title: 'Title',
              description: 'A short name for the project.',
              maxLength: 80,
            },
            details: {
              type: 'string',
              title: 'Details',
              description: 'What should be done, and why.',
              format: 'textarea',
              maxLength: 4000,
            },
            budget: { type: 'number', title: 'Budget (EUR)', minimum: 0 },
            headcount: {
              type: 'integer',
              title: 'Headcount',
              default: 3,
              minimum: 1,
              maximum: 50,
            },
            urgent: { type: 'boolean', title: 'Urgent', default: false },
            priority: {
              type: 'string',
              title: 'Priority',
              enum: ['low', 'medium', 'high'],
              default: 'medium',
            },
            due_date: { type: 'string', title: 'Due date', format: 'date' },
            kickoff_at: {
              type: 'string',
              title: 'Kick-off',
              description: 'Date and time of the first meeting.',
              format: 'date-time',
            },
          },
          required: ['title', 'priority', 'due_date'],
        },
        output_schema: {},
      },
      run: { events: paragraph('Thanks, the project intake is filed.') },
    },
    {
      agent: {
        agent_id: 'chat-agent',
        name: 'Helpdesk chat',
        description: 'A chat agent: it takes messages.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: { events: paragraph('Hello! I can help with that.') },
    },
    {
      agent: {
        agent_id: 'slow-agent',
        name: 'Slow thinker',
        description: 'Waits 300 ms before each delta.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: { events: paragraph('Let me think about it.'), delayMs: 300, firstEventDelayMs: 300 },
    },
    {
      agent: {
        agent_id: 'flaky-agent',
        name: 'Flaky connection',
        description: 'Drops after 3 events once; a reconnect with Last-Event-ID resumes.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: paragraph('The connection may drop.'),
        dropAfter: 3,
        dropTimes: 1,
        onReconnect: 'resume',
      },
    },
    {
      agent: {
        agent_id: 'restarting-agent',
        name: 'Restarting run',
        description: 'Drops after 3 events once; a reconnect starts over at id 1.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: paragraph('Every reconnect starts a new run.'),
        dropAfter: 3,
        dropTimes: 1,
        onReconnect: 'restart',
      },
    },
    {
      agent: {
        agent_id: 'rate-limited-agent',
        name: 'Rate limited',
        description: 'The first run attempt answers 429 with Retry-After: 2.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: paragraph('Worth the wait.'),
        failFirst: { attempts: 1, status: 429, retryAfter: '2' },
      },
    },
    {
      agent: {
        agent_id: 'tool-auth-agent',
        name: 'Needs Jira',
        description: 'Every run asks for tool authorization (422).',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: paragraph('Jira is connected.'),
        failFirst: {
          attempts: Infinity,
          status: 422,
          legacyBody: {
            message: 'Authorize the Jira tool to run this agent.',
            authenticationSuggestions: [
              {
                toolName: 'Jira',
                authUrl: 'https://example.com/oauth/jira',
                description: 'Read and create Jira issues.',
              },
            ],
          },
          platformBody: {
            type: 'about:blank',
            title: 'Unprocessable Content',
            status: 422,
            detail: 'Authorize the Jira tool to run this agent.',
            code: 'tools_unauthorized',
            tools: [{ name: 'Jira', auth_url: 'https://example.com/oauth/jira' }],
          },
        },
      },
    },
    {
      agent: {
        agent_id: 'failing-agent',
        name: 'Failing run',
        description: 'A few deltas, then the run fails.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: [
          ...textEvents('Starting the analysis of the '),
          {
            ...runFailedEvent({
              title: 'Internal Server Error',
              status: 500,
              code: 'internal_error',
              detail: 'The agent failed while calling a tool.',
            }),
            api: 'platform',
          },
          {
            event: 'message',
            data: {
              error: {
                message: 'The agent failed while calling a tool.',
                errorCode: 'AGENT_FAILED',
              },
            },
            api: 'rest-v1',
          },
        ],
      },
    },
    {
      agent: {
        agent_id: 'ten-thousand-agent',
        name: 'Ten thousand events',
        description: 'A run of 10,000 deltas.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: { events: manyEvents(10_000) },
    },
    {
      agent: {
        agent_id: 'xss-agent',
        name: `Hostile ${xss}`,
        description: `${script} ${link}`,
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      schemas: {
        input_schema: {},
        output_schema: { title: script, description: xss },
      },
      run: {
        events: textEvents(
          `Rendered as text, never as HTML: ${xss} ${script} [click me](${link}) ${link} done.`,
        ),
      },
    },
  ];
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
  ): StreamPlan => {
    const scenario = definition.run ?? {};
    const base = (scenario.events ?? defaultEvents(definition.agent)).filter(
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
      const plan = planFor(definition, route, undefined, Number.POSITIVE_INFINITY);
      const text = plan.items
        .map((item) => ('text' in item && !('data' in item) ? item.text : ''))
        .join('');
      return json(request, route, 200, { ...messagePayload(text), request_id: nextRequestId() });
    }
    state.streams++;
    return streamResponse(
      request,
      route,
      planFor(definition, route, record.lastEventId, state.streams),
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
