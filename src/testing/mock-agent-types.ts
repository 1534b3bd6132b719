/** The public types of the mock agent service: agents, run scenarios, and what it records. */
import type { MockApiGeneration, MockStreamItem } from './mock-events.js';

/**
 * The endpoints of the service: an agent's three (`agent`, `schemas`, `run`: stream or wait), the
 * agent search, a tool server's authorization (`tool-auth`), and the durable run operations
 * (`durable-run`: read, cancel, respond), which answer 404 for every run: durable runs are not
 * built yet.
 */
export type MockEndpoint = 'agent' | 'schemas' | 'run' | 'search' | 'tool-auth' | 'durable-run';

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
   * The body for both generations (objects as JSON, strings as given). On `platform` an object is
   * sent as a problem+json, its missing required fields (`type`, `title`, `status`, `detail`,
   * `code`, `request_id`) filled in from its code or the status.
   * @default on platform the problem of the status's code (a gateway's HTML page for 502 and 504);
   * on legacy a bare JSON string, or the 422 tool shape
   */
  body?: unknown;
  /** The body on `rest-v1` only; wins over `body`. @default undefined */
  legacyBody?: unknown;
  /** The body on `platform` only (objects completed as for `body`); wins over `body`. @default undefined */
  platformBody?: unknown;
}

/** What a scenario's `eventsFor` is told about the run request (both generations alike). */
export interface MockRunRequest {
  api: MockApiGeneration;
  /** The body's `messages`, each as its role and its text blocks joined; `[]` when none. */
  messages: { role: string; text: string }[];
  /** The body's `input`, when it is an object. */
  input: Record<string, unknown> | undefined;
}

/** How a run of an agent streams. */
export interface MockRunScenario {
  /**
   * The items of the stream computed from the run request (e.g. an answer that depends on the
   * conversation so far); wins over `events`. Called once per POST, reconnects included.
   * @default undefined (use `events`)
   */
  eventsFor?: (request: MockRunRequest) => MockStreamItem[];
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
   * Send `Deprecation: @1787616000` (RFC 9745: deprecated on 2026-08-25), `Sunset` and a
   * successor `Link` on legacy (`rest-v1`) responses.
   * @default false
   */
  deprecationHeaders?: boolean;
  /**
   * The `Sunset` date (an HTTP-date, RFC 8594) sent with `deprecationHeaders`.
   * @default 'Thu, 15 Apr 2027 00:00:00 GMT' (the removal date the service's SDK gives)
   */
  sunset?: string;
  /**
   * Prefix of the `request_id`s of platform answers (followed by a counter).
   * @default 'req_mock_'
   */
  requestIdPrefix?: string;
  /**
   * The token every request must bring as `Authorization: Bearer <token>`; any other request
   * answers 401 (a problem on the platform prefix, a bare JSON string on the legacy one) and is
   * recorded with that status.
   * @default undefined (requests without a token are served)
   */
  token?: string;
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
  /** Clear records, per-agent counters (the `request_id` counter too) and injections. */
  reset(): void;
  /** Add or replace an agent. */
  setAgent(definition: MockAgentDefinition): void;
  /** Resolve once `predicate` is true (polled every 5 ms); reject after `timeoutMs` (default 2000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
}
