/**
 * The mock agent service: one fetch-style handler (`handle(request) => Response`) that serves both
 * API generations (legacy `rest-v1` and the replacement `platform`) for a set of agents, runs
 * scripted streams, and records every request. Adapters (node:http, msw) only convert bytes.
 *
 * Built on Web `Request`/`Response`/`ReadableStream` only: it runs in Node 20 and in browsers.
 * The parts: `mock-agent-model.ts` (state), `mock-routes.ts` (paths), `mock-endpoints.ts` (what
 * each route answers), `mock-platform-validation.ts` (refused run bodies), `mock-stream.ts`
 * (scenario to SSE bytes), `mock-responses.ts` (headers and error bodies), `mock-problems.ts` (the
 * service's problem codes, statuses and titles: the one table of them).
 */
import { MockAgentModel } from './mock-agent-model.js';
import { mockEndpoints } from './mock-endpoints.js';
import { createReply, legacySunset, type MockResponderOptions } from './mock-responses.js';
import { matchRoute, routeAllows } from './mock-routes.js';
import { ownerKey } from './mock-durable-runs.js';
import type {
  MockAgentService,
  MockAgentServiceOptions,
  MockRequestRecord,
} from './mock-agent-types.js';

/** Create the service. */
export function createMockAgentService(options: MockAgentServiceOptions = {}): MockAgentService {
  const model = new MockAgentModel(options);
  const context: ServiceContext = {
    model,
    token: options.token,
    responder: {
      deprecationHeaders: options.deprecationHeaders === true,
      sunset: options.sunset ?? legacySunset,
      nextRequestId: () => model.nextRequestId(),
    },
  };

  const service: MockAgentService = {
    async handle(request) {
      return handle(context, request);
    },
    matches(url) {
      const pathname = (typeof url === 'string' ? new URL(url) : url).pathname;
      return matchRoute(pathname) !== undefined || controlPath.test(pathname);
    },
    get requests() {
      return model.requests;
    },
    get preflights() {
      return model.preflights;
    },
    runRequests(agentId) {
      return runRequestsOf(model, agentId);
    },
    postCount(agentId) {
      return service.runRequests(agentId).length;
    },
    get openStreams() {
      return model.openStreams;
    },
    inject(agentId, response) {
      model.inject(agentId, response);
    },
    clearInjections() {
      model.clearInjections();
    },
    reset() {
      model.reset();
    },
    setAgent(definition) {
      model.setAgent(definition);
    },
    now: () => model.durable.now(),
    advance(ms) {
      model.durable.advance(ms);
    },
    get durableStats() {
      return { ...model.durable.stats };
    },
    durableRun: (runId) => model.durable.stateOf(runId),
    waitFor,
  };
  return service;
}

/** What every request of one service shares. */
interface ServiceContext {
  model: MockAgentModel;
  responder: MockResponderOptions;
  token: string | undefined;
}

/** The paths of the test controls (see {@link answerControl}). */
const controlPath = /\/__(clock|stats|consent|runs\/([^/]+))$/;

async function handle(context: ServiceContext, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== 'OPTIONS') {
    const controlled = await answerControl(context, request, url);
    if (controlled !== undefined) return controlled;
  }
  if (request.method === 'OPTIONS') {
    context.model.recordPreflight(request, url);
    return createReply(context.responder, request, matchRoute(url.pathname)).send(204, null);
  }
  const record = await context.model.recordRequest(request, url);
  const response = await answer(context, request, url, record);
  record.status = response.status;
  return response;
}

function bringsToken(request: Request, token: string): boolean {
  const [scheme, ...rest] = (request.headers.get('authorization') ?? '').trim().split(/\s+/);
  return scheme?.toLowerCase() === 'bearer' && rest.join(' ') === token;
}

/** The answer of a recorded request: token, route, method, then the route's endpoint. */
async function answer(
  { model, responder, token }: ServiceContext,
  request: Request,
  url: URL,
  record: MockRequestRecord,
): Promise<Response> {
  const route = matchRoute(url.pathname);
  const reply = createReply(responder, request, route);
  if (token !== undefined && !bringsToken(request, token)) {
    return reply.failure(401, 'A valid token is required.');
  }
  if (!route) return reply.json(404, 'Not found');
  record.api = route.api;
  record.endpoint = route.endpoint;
  if (route.agentId !== undefined) record.agentId = route.agentId;
  if (!routeAllows(route, request.method)) {
    return reply.failure(
      405,
      'Method not allowed',
      {},
      { Allow: [...route.methods, 'OPTIONS'].join(', ') },
    );
  }
  const owner = ownerKey(request.headers.get('authorization'));
  return mockEndpoints[route.endpoint]({ model, route, record, reply, owner, url });
}

/**
 * The test controls over HTTP, for a page that cannot reach the service object (a browser test
 * against the node server): `GET|POST …/__clock` (`{ advanceMs }` moves the clock),
 * `GET …/__stats`, `GET …/__runs/{run_id}`, and the consent page of a tool server
 * (`GET …/__consent?server=…&return_to=…`: authorizes it, then redirects to `return_to`). Not
 * recorded among the requests.
 */
async function answerControl(
  { model, responder }: ServiceContext,
  request: Request,
  url: URL,
): Promise<Response | undefined> {
  const match = controlPath.exec(url.pathname);
  if (match === null) return undefined;
  const reply = createReply(responder, request, undefined);
  if (match[1] === 'clock') {
    if (request.method === 'POST') {
      let advanceMs: unknown;
      try {
        advanceMs = ((await request.json()) as { advanceMs?: unknown }).advanceMs;
      } catch {
        advanceMs = undefined;
      }
      if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
        return reply.json(400, 'advanceMs must be a number >= 0');
      }
      model.durable.advance(advanceMs);
    }
    const now = model.durable.now();
    return reply.json(200, { now, iso: new Date(now).toISOString() });
  }
  if (match[1] === 'consent') {
    // The person allowed the tool server: the runs that waited for it go ahead from now on.
    const serverId = url.searchParams.get('server') ?? '';
    if (serverId === '') return reply.json(400, 'server is required');
    model.authorizedToolServers.add(serverId);
    const returnTo = url.searchParams.get('return_to') ?? '';
    if (!/^https?:\/\//i.test(returnTo)) return reply.json(200, { authorized: serverId });
    const back = new URL(returnTo);
    back.searchParams.set('tool_server', serverId);
    back.searchParams.set('status', 'authorized');
    return reply.send(302, null, undefined, { Location: back.href });
  }
  if (match[1] === 'stats') {
    return reply.json(200, {
      requests: model.requests.length,
      posts: runRequestsOf(model, undefined).length,
      durable: { ...model.durable.stats },
    });
  }
  let runId = match[2] ?? '';
  try {
    runId = decodeURIComponent(runId);
  } catch {
    // kept as sent
  }
  const state = model.durable.stateOf(runId);
  return state === undefined ? reply.json(404, 'No such run') : reply.json(200, state);
}

function runRequestsOf(model: MockAgentModel, agentId: string | undefined): MockRequestRecord[] {
  return model.requests.filter(
    (record) =>
      record.endpoint === 'run' &&
      record.method === 'POST' &&
      (agentId === undefined || record.agentId === agentId),
  );
}

function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
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
}
