/**
 * The endpoints of the mock agent service: what each matched route answers. A new route of
 * `mockRoutes` gets its handler in `mockEndpoints` (the type asks for one per `MockEndpoint`).
 */
import { messagePayload } from './mock-events.js';
import type { MockStreamItem } from './mock-events.js';
import type { MockRequestRecord } from './mock-agent-types.js';
import type { MockEndpoint } from './mock-agent-types.js';
import { resolveRunEvents, schemasOf, type MockAgentModel } from './mock-agent-model.js';
import {
  isPlainObject,
  missingFormFields,
  validatePlatformRun,
} from './mock-platform-validation.js';
import { completeProblem, mockProblemCodes, problemCodeFor } from './mock-problems.js';
import type { MockReply } from './mock-responses.js';
import type { MockRoute } from './mock-routes.js';
import { createStreamBody, planStream, planText } from './mock-stream.js';
import {
  invalidRespondBody,
  type DurableRun,
  type MockDurableAnswer,
} from './mock-durable-runs.js';

/** Everything a handler needs for one request. */
export interface MockEndpointContext {
  model: MockAgentModel;
  route: MockRoute;
  /** The record of the request (its parsed body in `record.body`); handlers may add to it. */
  record: MockRequestRecord;
  reply: MockReply;
  /** Who asks: a key of the request's Authorization header (never the token itself). */
  owner: string;
  /** The request's URL. */
  url: URL;
}

export type MockEndpointHandler = (context: MockEndpointContext) => Response | Promise<Response>;

function injected(
  reply: MockReply,
  model: MockAgentModel,
  agentId: string,
  endpoint: MockEndpoint,
) {
  const injection = model.takeInjection(agentId, endpoint);
  if (!injection) return undefined;
  return reply.given(injection.status, injection.body, injection.contentType, injection.headers);
}

const notFound = (reply: MockReply) =>
  reply.failure(404, 'Agent not found', { code: 'resource_not_found' });

function answerAgent({ model, route, reply }: MockEndpointContext): Response {
  const agentId = route.agentId ?? '';
  const injection = injected(reply, model, agentId, 'agent');
  if (injection) return injection;
  const definition = model.agents.get(agentId);
  if (!definition) return notFound(reply);
  return route.api === 'platform'
    ? reply.json(200, { agent: definition.agent, request_id: model.nextRequestId() })
    : reply.json(200, definition.agent);
}

/**
 * The schemas of an agent; its `tools` only with `include_tools=true` (then `[]` for an agent
 * without any), as the service does.
 */
function answerSchemas({ model, route, reply, url }: MockEndpointContext): Response {
  const agentId = route.agentId ?? '';
  const injection = injected(reply, model, agentId, 'schemas');
  if (injection) return injection;
  const definition = model.agents.get(agentId);
  if (!definition) return notFound(reply);
  const { tools, ...rest } = schemasOf(definition);
  const schemas = {
    agent_id: definition.agent.agent_id,
    output_schema: {},
    ...rest,
    ...(url.searchParams.get('include_tools') === 'true' ? { tools: tools ?? [] } : {}),
  };
  return route.api === 'platform'
    ? reply.json(200, { ...schemas, request_id: model.nextRequestId() })
    : reply.json(200, schemas);
}

function answerRun({ model, route, record, reply, owner }: MockEndpointContext): Response {
  const body = record.body;
  let agentId = route.agentId;
  if (route.api === 'rest-v1') {
    if (!isPlainObject(body)) return reply.json(400, 'Request body must be a JSON object');
    if (typeof body.agent_id !== 'string') return reply.json(400, 'agent_id is required');
    agentId = body.agent_id;
    record.agentId = agentId;
  }
  if (agentId === undefined) return reply.json(400, 'agent_id is required');
  const state = model.stateOf(agentId);
  state.posts++;
  record.attempt = state.posts;

  const injection = injected(reply, model, agentId, 'run');
  if (injection) return injection;
  const definition = model.agents.get(agentId);
  if (!definition) return notFound(reply);
  if (route.api === 'platform') {
    const invalid = validatePlatformRun(body, model.durableRuns);
    if (invalid) return reply.problem(400, invalid);
  }
  const missing = missingFormFields(
    schemasOf(definition),
    isPlainObject(body) ? body.input : undefined,
  );
  if (missing.length > 0) {
    return reply.failure(
      500,
      'Internal server error',
      { code: 'internal_error' },
      { 'X-Mock-Reason': `input lacks form field(s): ${missing.join(', ')}` },
    );
  }
  const scenario = definition.run ?? {};
  const failFirst = scenario.failFirst;
  const authorized = scenario.failUntilAuthorized?.every((serverId) =>
    model.authorizedToolServers.has(serverId),
  );
  if (failFirst && state.posts <= failFirst.attempts && authorized !== true) {
    const extra: Record<string, string> = {};
    if (failFirst.retryAfter !== undefined) extra['Retry-After'] = failFirst.retryAfter;
    const given =
      (route.api === 'platform' ? failFirst.platformBody : failFirst.legacyBody) ?? failFirst.body;
    if (given !== undefined) {
      if (route.api === 'platform' && isPlainObject(given)) {
        return reply.problem(failFirst.status, given, extra);
      }
      return reply.given(failFirst.status, given, undefined, extra);
    }
    if (failFirst.status === 422) {
      return route.api === 'platform'
        ? reply.problem(
            422,
            { detail: 'Tool authorization required', authentication_suggestions: [] },
            extra,
          )
        : reply.json(
            422,
            { message: 'Tool authorization required', authenticationSuggestions: [] },
            extra,
          );
    }
    const code = problemCodeFor(failFirst.status);
    const detail = code ? mockProblemCodes[code].title : `Status ${failFirst.status}`;
    return reply.failure(failFirst.status, detail, {}, extra);
  }

  const events = completeRunFailures(
    resolveRunEvents(definition, { api: route.api, agentId, body }),
    model,
  );
  if (
    route.api === 'platform' &&
    model.durableRuns === true &&
    isPlainObject(body) &&
    body.execution_mode === 'DURABLE'
  ) {
    const text = planText(planStream(events, scenario, undefined, Number.POSITIVE_INFINITY));
    return durableReply(
      reply,
      model.durable.start(agentId, owner, definition.durable ?? {}, text, model.nextRequestId()),
    );
  }
  if (
    route.wait === true ||
    (route.api === 'platform' && isPlainObject(body) && body.stream !== true)
  ) {
    const text = planText(planStream(events, scenario, undefined, Number.POSITIVE_INFINITY));
    const failed = events.some((item) => 'event' in item && item.event === 'run.failed');
    const run = { agent_id: agentId, status: failed ? 'error' : 'success' };
    return route.api === 'platform'
      ? reply.json(200, { run, ...messagePayload(text), request_id: model.nextRequestId() })
      : reply.json(200, { run, ...messagePayload(text) });
  }
  state.streams++;
  const plan = planStream(events, scenario, record.lastEventId, state.streams);
  record.eventsSent = 0;
  model.openStreams++;
  const stream = createStreamBody(plan, {
    onEvent() {
      record.eventsSent = (record.eventsSent ?? 0) + 1;
    },
    onEnd(how) {
      model.openStreams--;
      record[how] = true;
    },
  });
  return reply.send(200, stream, 'text/event-stream; charset=utf-8', {
    'Cache-Control': 'no-cache',
  });
}

/**
 * The `run.failed` events of a run with whole problems: what a scenario leaves out of an `error`
 * (its `request_id` above all, fresh for each run) filled in from its code.
 */
function completeRunFailures(events: MockStreamItem[], model: MockAgentModel): MockStreamItem[] {
  return events.map((item) => {
    if (!('event' in item) || item.event !== 'run.failed' || !isPlainObject(item.data)) return item;
    const error = item.data['error'];
    if (!isPlainObject(error)) return item;
    return {
      ...item,
      data: { ...item.data, error: completeProblem(error, model.nextRequestId()) },
    };
  });
}

/**
 * A search: `{ name? }` is a case-insensitive substring of the agent's name (empty or absent: every
 * agent); the platform rejects other fields with 400 and adds `request_id`.
 */
function answerSearch({ model, route, record, reply }: MockEndpointContext): Response {
  const given = record.body === undefined ? {} : record.body;
  if (!isPlainObject(given)) return reply.failure(400, 'Request body must be a JSON object');
  if (route.api === 'platform') {
    const unknown = Object.keys(given).filter((key) => key !== 'name');
    if (unknown.length > 0) {
      return reply.failure(400, `Unknown field: ${unknown.join(', ')}`, {
        errors: unknown.map((field) => ({
          pointer: `/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`,
          detail: 'This field is not allowed.',
          code: 'invalid_parameter',
        })),
      });
    }
  }
  const name = given['name'];
  if (name !== undefined && typeof name !== 'string') {
    return reply.failure(400, 'name must be a string');
  }
  const needle = (name ?? '').toLowerCase();
  const found = [...model.agents.values()]
    .map((definition) => definition.agent)
    .filter((agent) => agent.name.toLowerCase().includes(needle));
  return route.api === 'platform'
    ? reply.json(200, { agents: found, request_id: model.nextRequestId() })
    : reply.json(200, { agents: found });
}

/**
 * A tool server's authorization: GET its state (`AUTHORIZED` once the person consented, else
 * `AWAITING_AUTH`); POST `{ returnUrl }` (an absolute http(s) URL, else 400) the URL of a consent
 * page that names the server and the return URL. That page is not a real one: the person's
 * consent is the mock's `GET …/__consent?server=…&return_to=…` (a test or a story visits it).
 * Any server id is known to the mock.
 */
function answerToolAuth({ model, route, record, reply }: MockEndpointContext): Response {
  const serverId = route.params['serverId'] ?? '';
  if (record.method === 'GET' || record.method === 'HEAD') {
    return reply.json(200, {
      displayName: serverId,
      authStatus: model.authorizedToolServers.has(serverId) ? 'AUTHORIZED' : 'AWAITING_AUTH',
      authType: 'AUTH_USER_OAUTH',
    });
  }
  const returnUrl = isPlainObject(record.body) ? record.body['returnUrl'] : undefined;
  if (typeof returnUrl !== 'string' || !/^https?:\/\//i.test(returnUrl)) {
    return reply.failure(400, 'returnUrl must be an absolute http(s) URL on the allowlist');
  }
  const consent = new URL('https://auth.mock.test/oauth/authorize');
  consent.searchParams.set('server', serverId);
  consent.searchParams.set('return_to', returnUrl);
  return reply.json(200, { authorizationUrl: consent.href });
}

function durableReply(reply: MockReply, answer: MockDurableAnswer): Response {
  return answer.ok
    ? reply.send(answer.status, answer.text, 'application/json')
    : reply.problem(answer.status, answer.problem);
}

const runNotFound = (reply: MockReply) =>
  reply.failure(404, 'Run not found', { code: 'resource_not_found' });

/**
 * The run a durable operation names, or the 404 the service answers: for an unknown run, another
 * user's (another token) or another agent's, and for every run on a deployment without them.
 */
function durableRunOf(
  { model, route, reply, owner }: MockEndpointContext,
  runId: string,
): DurableRun | Response {
  const agentId = route.agentId ?? '';
  if (!model.agents.has(agentId)) return notFound(reply);
  const run = model.durableRuns === true ? model.durable.find(runId, agentId, owner) : undefined;
  return run ?? runNotFound(reply);
}

/** `GET …/runs/{run_id}`: the run, its deadline applied when overdue (expiry is read-triggered). */
function answerDurableRun(context: MockEndpointContext): Response {
  const { model, route, reply } = context;
  const injection = injected(reply, model, route.agentId ?? '', 'durable-run');
  if (injection) return injection;
  model.durable.stats.polls++;
  const run = durableRunOf(context, route.params['runId'] ?? '');
  if (run instanceof Response) return run;
  return durableReply(reply, model.durable.read(run, model.nextRequestId()));
}

/** `POST …/cancellations { run_id }`: cooperative and idempotent. */
function answerDurableCancel(context: MockEndpointContext): Response {
  const { model, route, record, reply } = context;
  const injection = injected(reply, model, route.agentId ?? '', 'durable-cancel');
  if (injection) return injection;
  const runId = isPlainObject(record.body) ? record.body['run_id'] : undefined;
  if (typeof runId !== 'string' || runId === '') {
    return reply.problem(400, {
      code: 'missing_required_field',
      detail: 'run_id is required.',
      errors: [
        { pointer: '/run_id', detail: 'run_id is required.', code: 'missing_required_field' },
      ],
    });
  }
  const run = durableRunOf(context, runId);
  if (run instanceof Response) return run;
  return durableReply(reply, model.durable.cancel(run, model.nextRequestId()));
}

/** `POST …/responses { run_id, responses }`: the whole pending batch, each id once. */
function answerDurableRespond(context: MockEndpointContext): Response {
  const { model, route, record, reply } = context;
  const injection = injected(reply, model, route.agentId ?? '', 'durable-respond');
  if (injection) return injection;
  const invalid = invalidRespondBody(record.body);
  if (invalid) return reply.problem(400, invalid);
  const body = record.body as Record<string, unknown>;
  const run = durableRunOf(context, body['run_id'] as string);
  if (run instanceof Response) return run;
  return durableReply(reply, model.durable.respond(run, body, model.nextRequestId()));
}

/** The handler of each endpoint. */
export const mockEndpoints: { readonly [Endpoint in MockEndpoint]: MockEndpointHandler } = {
  agent: answerAgent,
  schemas: answerSchemas,
  run: answerRun,
  search: answerSearch,
  'tool-auth': answerToolAuth,
  'durable-run': answerDurableRun,
  'durable-cancel': answerDurableCancel,
  'durable-respond': answerDurableRespond,
};
