/**
 * The state of a mock agent service: its agents, per-agent counters, the requests it recorded,
 * the responses injected by a test, and the items a run of an agent streams for a request.
 */
import { demoAgents } from './demo-agents.js';
import { textEvents } from './mock-events.js';
import type { AgentApi } from '../core/wire/agent-client.js';
import type { MockStreamItem } from './mock-events.js';
import type {
  MockAgentDefinition,
  MockAgentSchemas,
  MockAgentServiceOptions,
  MockEndpoint,
  MockInjectedResponse,
  MockPreflightRecord,
  MockRequestRecord,
  MockRunRequest,
} from './mock-agent-types.js';
import { isPlainObject } from './mock-platform-validation.js';
import { MockDurableRuns } from './mock-durable-runs.js';

/** Counters of one agent, kept until `reset()`. */
export interface MockAgentState {
  /** Run POSTs received. */
  posts: number;
  /** Streaming attempts started. */
  streams: number;
}

interface Injection extends MockInjectedResponse {
  agentId: string;
  remaining: number;
}

/** A run request that passed validation (the service's view; not a public type). */
export interface MockRunContext {
  api: AgentApi;
  agentId: string;
  /** The parsed body (legacy `{agent_id, input?, messages?}`, platform `{input?, messages?, …}`). */
  body: unknown;
}

/**
 * The items a run of `definition` streams for `run`, before `repeat`: the scenario's events (or a
 * default paragraph), without those meant for the other API generation. Computing events from
 * the request (e.g. its `messages`) belongs here.
 */
export function resolveRunEvents(
  definition: MockAgentDefinition,
  run: MockRunContext,
): MockStreamItem[] {
  const events =
    definition.run?.eventsFor?.(runRequestOf(run)) ??
    definition.run?.events ??
    defaultEvents(definition);
  return events.filter((item) => item.api === undefined || item.api === run.api);
}

/** The run request a scenario's `eventsFor` sees: the body's messages and input, as sent. */
function runRequestOf({ api, body }: MockRunContext): MockRunRequest {
  const object = isPlainObject(body) ? body : {};
  const messages = Array.isArray(object['messages']) ? (object['messages'] as unknown[]) : [];
  return {
    api,
    messages: messages.map((message) => {
      const entry = isPlainObject(message) ? message : {};
      const content = Array.isArray(entry['content']) ? (entry['content'] as unknown[]) : [];
      return {
        role: typeof entry['role'] === 'string' ? entry['role'] : '',
        text: content
          .map((block) =>
            isPlainObject(block) && typeof block['text'] === 'string' ? block['text'] : '',
          )
          .join(''),
      };
    }),
    input: isPlainObject(object['input']) ? object['input'] : undefined,
  };
}

function defaultEvents({ agent }: MockAgentDefinition): MockStreamItem[] {
  return textEvents(
    `Hello from ${agent.name}. This is a mock run: the text arrives as small deltas, ` +
      'one word at a time, and the stream closes after the last one.',
  );
}

/** The schemas of an agent, defaulted. */
export function schemasOf(definition: MockAgentDefinition): MockAgentSchemas {
  return definition.schemas ?? { input_schema: {}, output_schema: {} };
}

/** The model: mutable state only; answering requests is the service's job. */
export class MockAgentModel {
  readonly agents = new Map<string, MockAgentDefinition>();
  readonly requests: MockRequestRecord[] = [];
  readonly preflights: MockPreflightRecord[] = [];
  /** Run streams created and neither ended, dropped nor cancelled. */
  openStreams = 0;
  readonly #states = new Map<string, MockAgentState>();
  #injections: Injection[] = [];
  #requestCounter = 0;
  readonly #requestIdPrefix: string;
  /** Whether the deployment has durable runs (see `MockAgentServiceOptions.durableRuns`). */
  readonly durableRuns: boolean | 'ignored';
  /** The durable runs, their clock and counters. */
  readonly durable: MockDurableRuns;
  /** Tool servers whose consent page was visited (until `reset()`). */
  readonly authorizedToolServers = new Set<string>();

  constructor(options: MockAgentServiceOptions) {
    for (const definition of options.agents ?? demoAgents) this.setAgent(definition);
    this.#requestIdPrefix = options.requestIdPrefix ?? 'req_mock_';
    this.durableRuns = options.durableRuns ?? true;
    this.durable = new MockDurableRuns(options.now);
  }

  setAgent(definition: MockAgentDefinition): void {
    this.agents.set(definition.agent.agent_id, definition);
  }

  stateOf(agentId: string): MockAgentState {
    let state = this.#states.get(agentId);
    if (!state) {
      state = { posts: 0, streams: 0 };
      this.#states.set(agentId, state);
    }
    return state;
  }

  /** A fresh `request_id` for a platform answer. */
  nextRequestId(): string {
    return `${this.#requestIdPrefix}${++this.#requestCounter}`;
  }

  inject(agentId: string, response: MockInjectedResponse): void {
    this.#injections.push({
      ...response,
      agentId,
      remaining: response.times ?? Number.POSITIVE_INFINITY,
    });
  }

  /** The first injection that answers this request, used up once. */
  takeInjection(
    agentId: string | undefined,
    endpoint: MockEndpoint,
  ): MockInjectedResponse | undefined {
    if (agentId === undefined) return undefined;
    const injection = this.#injections.find(
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
      this.#injections = this.#injections.filter((candidate) => candidate !== injection);
    return injection;
  }

  clearInjections(): void {
    this.#injections = [];
  }

  reset(): void {
    this.requests.length = 0;
    this.preflights.length = 0;
    this.#states.clear();
    this.#injections = [];
    this.#requestCounter = 0;
    this.durable.reset();
    this.authorizedToolServers.clear();
  }

  /** Record a CORS preflight. */
  recordPreflight(request: Request, url: URL): void {
    const preflight: MockPreflightRecord = { path: url.pathname, time: Date.now() };
    const origin = request.headers.get('origin');
    const requestMethod = request.headers.get('access-control-request-method');
    const requestHeaders = request.headers.get('access-control-request-headers');
    if (origin !== null) preflight.origin = origin;
    if (requestMethod !== null) preflight.requestMethod = requestMethod;
    if (requestHeaders !== null) preflight.requestHeaders = requestHeaders;
    this.preflights.push(preflight);
  }

  /** Record a request (reading its body): the token is never kept, only its last 4 characters. */
  async recordRequest(request: Request, url: URL): Promise<MockRequestRecord> {
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
    this.requests.push(record);
    return record;
  }
}
