/** The public types of the mock agent service: agents, run scenarios, and what it records. */
import type { AgentApi } from '../core/wire/agent-client.js';
import type { MockStreamItem } from './mock-events.js';

/**
 * The endpoints of the service: an agent's three (`agent`, `schemas`, `run`: stream, wait or the
 * start of a durable run), the agent search, a tool server's authorization (`tool-auth`), and the
 * durable run operations: read (`durable-run`), cancel (`durable-cancel`) and answer approvals
 * (`durable-respond`).
 */
export type MockEndpoint =
  | 'agent'
  | 'schemas'
  | 'run'
  | 'search'
  | 'tool-auth'
  | 'durable-run'
  | 'durable-cancel'
  | 'durable-respond';

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
  /**
   * The agent's tools (`ActionSummary` objects), sent only when the request asks with
   * `include_tools=true`.
   * @default [] (with `include_tools=true`)
   */
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
  api: AgentApi;
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
   * Tool server ids: `failFirst` (a 422 naming them) answers only until each is authorized, that
   * is until the person consented: the mock's `GET …/__consent?server={id}` (what the sign-in page
   * of `authorizationUrl` stands for); `GET …/tool-servers/{id}/auth` says `AUTHORIZED` then. The
   * mock keeps one user's authorizations (the consent carries no token) until `reset()`.
   * @default undefined (`failFirst` answers whatever was authorized)
   */
  failUntilAuthorized?: string[];
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
  /**
   * How a durable run (`execution_mode: 'DURABLE'`) of the agent goes, on the service's clock.
   * @default one turn of 2000 ms that writes the text its stream would send while it runs
   */
  durable?: MockDurableScenario;
}

/** A tool call a durable run pauses on, waiting for a person's approval. */
export interface MockDurableApproval {
  /** @default 'Run tool' */
  displayName?: string;
  /** @default 'The agent wants to run a tool.' */
  description?: string;
  /** @default undefined (not sent, as for some MCP tools) */
  toolId?: string;
  /**
   * The arguments: an object, or JSON text written into the answer as given (to send integers
   * above 2^53 as the service does).
   * @default {}
   */
  arguments?: Record<string, unknown> | string;
  /**
   * The approval's deadline, this many ms after the run paused (`expires_at`); a respond after it
   * answers 409.
   * @default undefined (no deadline)
   */
  expiresInMs?: number;
}

/** One turn of a durable run: the first starts with the run, each next one after an approval. */
export interface MockDurableTurn {
  /**
   * How long the turn runs before it ends, pauses or fails.
   * @default 2000
   */
  runningMs?: number;
  /**
   * The text the turn writes, in chunks spread evenly over `runningMs`.
   * @default '' for turns after the first; the agent's stream text for the first
   */
  text?: string | string[];
  /**
   * A batch of approvals the run pauses on when the turn ends (`REQUIRES_INPUT`).
   * @default undefined (the run ends SUCCEEDED after the last turn)
   */
  approvals?: MockDurableApproval[];
  /**
   * The turn fails at its end with this `error`.
   * @default undefined
   */
  fail?: { code: string; message: string };
}

/** The durable runs of an agent on the mock service's clock. */
export interface MockDurableScenario {
  /**
   * The state of the 201 (the service was seen answering RUNNING).
   * @default 'RUNNING'
   */
  acceptAs?: 'QUEUED' | 'RUNNING';
  /**
   * How long a run accepted as QUEUED waits before it runs.
   * @default 500
   */
  queuedMs?: number;
  /**
   * The turns, in order. After an accepted approval batch the next turn runs (a default 1000 ms
   * turn when there is none).
   * @default [{}] (one turn)
   */
  turns?: MockDurableTurn[];
  /**
   * `'while-running'`: the output grows while the run is RUNNING. `'at-end'`: it appears only
   * when the run succeeds (whether the service shows it while running is not documented).
   * @default 'while-running'
   */
  output?: 'while-running' | 'at-end';
  /**
   * Whether `output` holds only the current turn's text (as one capture of the service showed)
   * rather than everything so far.
   * @default false
   */
  outputPerTurn?: boolean;
  /**
   * What a rejected approval does: `'continue'` runs the next turn (without the tool),
   * `'fail'` ends the run FAILED.
   * @default 'continue'
   */
  onReject?: 'continue' | 'fail';
  /**
   * The execution timeout of a turn: a turn longer than this never finishes by itself (it stays
   * RUNNING until a GET after `executionTimeoutMs + graceMs` marks it FAILED).
   * @default 1_800_000 (30 minutes)
   */
  executionTimeoutMs?: number;
  /**
   * The grace after the execution timeout before a GET marks the turn FAILED.
   * @default 600_000 (10 minutes)
   */
  graceMs?: number;
  /**
   * The state a GET gives an overdue turn (the service documents FAILED).
   * @default 'FAILED'
   */
  expiredState?: 'FAILED' | 'EXPIRED';
  /**
   * How a cancellation goes: `registration: false` answers 409 for an active run;
   * `cancellingMs` is how long an active run shows CANCELLING before it is CANCELLED (a turn that
   * ends first wins: SUCCEEDED).
   * @default { registration: true, cancellingMs: 1000 }
   */
  cancel?: { registration?: boolean; cancellingMs?: number };
  /**
   * Answers to approvals that fail before anything is accepted: `'503-once'` answers the first
   * respond of each run 503.
   * @default []
   */
  respondFaults?: '503-once'[];
}

/** What the mock counted of durable runs (since the last `reset()`). */
export interface MockDurableStats {
  /** Durable runs started (201s). */
  runsStarted: number;
  /** Approved tool calls executed (each accepted APPROVE once; an identical retry adds none). */
  toolsExecuted: number;
  /** GETs of durable runs (answered, 404s included). */
  polls: number;
  /** Cancellation requests answered 200. */
  cancels: number;
  /** Approval batches accepted (identical retries not counted). */
  responsesAccepted: number;
}

/** The mock's whole state of a durable run (introspection for tests; no token in it). */
export interface MockDurableRunState {
  runId: string;
  agentId: string;
  /** The state stored now (expiry is applied only by a GET). */
  state: string;
  /** The index of the current turn (0 before any approval). */
  turn: number;
  /** GETs of this run. */
  polls: number;
  /** Approved tool calls this run executed. */
  toolsExecuted: number;
  /** When a cancellation was asked (mock clock ms). */
  cancelRequestedAt: number | undefined;
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
   * Whether the deployment has durable runs: `false` answers `execution_mode: 'DURABLE'` with a
   * 400 naming `/execution_mode` (a deployment that predates them) and the durable operations with
   * 404; `'ignored'` runs it as an ordinary request-bound run (200 wait body).
   * @default true
   */
  durableRuns?: boolean | 'ignored';
  /**
   * The clock of durable runs (ms since the epoch); `advance(ms)` moves it forward.
   * @default Date.now
   */
  now?: () => number;
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
  api?: AgentApi;
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
  /**
   * Answer one request (any method, any path; unknown paths get 404). Besides the service's
   * routes it answers test controls, never recorded: `GET …/__clock`, `POST …/__clock`
   * `{ advanceMs }` (moves the clock of durable runs), `GET …/__stats` (`{ requests, posts,
   * durable }`), `GET …/__runs/{run_id}` (the mock's whole state of a durable run) and
   * `GET …/__consent?server=…&return_to=…` (a tool server's consent page: authorizes it, then
   * redirects to `return_to`).
   */
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
  /**
   * Clear records, per-agent counters (the `request_id` counter too), injections, durable runs,
   * their counters and the clock's advance (run ids keep counting).
   */
  reset(): void;
  /** Add or replace an agent. */
  setAgent(definition: MockAgentDefinition): void;
  /** The clock of durable runs, in ms (the `now` option plus every `advance`). */
  now(): number;
  /** Moves the clock of durable runs forward by `ms` (reset() sets it back). */
  advance(ms: number): void;
  /** What the mock counted of durable runs. */
  readonly durableStats: MockDurableStats;
  /** The whole state of a durable run; undefined for an unknown id. */
  durableRun(runId: string): MockDurableRunState | undefined;
  /** Resolve once `predicate` is true (polled every 5 ms); reject after `timeoutMs` (default 2000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
}
