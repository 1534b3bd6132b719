/**
 * Routing of the mock agent service: the route table of both API generations and the path
 * matcher. Routes match the END of a path, so a deployment behind a path prefix
 * (`https://host/proxy/api/agents/…`) is served as well.
 */
import type { AgentApi } from '../core/wire/agent-client.js';
import type { MockEndpoint } from './mock-agent-types.js';

/** A method a route answers (HEAD is answered wherever GET is). */
export type MockRouteMethod = 'GET' | 'POST';

/** One row of the route table. */
export interface MockRouteDefinition {
  api: AgentApi;
  endpoint: MockEndpoint;
  methods: readonly MockRouteMethod[];
  /**
   * The last path segments, in order. `:name` captures one non-empty segment, percent-decoded,
   * into `params.name`; any other segment must match exactly.
   */
  path: readonly string[];
  /** A run answered as one JSON body once done (legacy `runs/wait`), never streamed. */
  wait?: true;
}

/** A matched request path. */
export interface MockRoute extends MockRouteDefinition {
  /** The captured segments, decoded. */
  params: Readonly<Record<string, string>>;
  /** `params.agentId`: the agent named by the path (a legacy run names it in its body). */
  agentId: string | undefined;
}

const legacy = ['rest', 'api', 'v1', 'agents'] as const;
const platform = ['api', 'agents'] as const;

/** Every route, tried in order; the first match wins. Add a new endpoint here. */
export const mockRoutes: readonly MockRouteDefinition[] = [
  // Before the agent rows, whose `:agentId` would take `search`.
  { api: 'rest-v1', endpoint: 'search', methods: ['POST'], path: [...legacy, 'search'] },
  { api: 'platform', endpoint: 'search', methods: ['POST'], path: [...platform, 'search'] },
  {
    api: 'rest-v1',
    endpoint: 'tool-auth',
    methods: ['GET', 'POST'],
    path: ['rest', 'api', 'v1', 'tool-servers', ':serverId', 'auth'],
  },
  { api: 'rest-v1', endpoint: 'run', methods: ['POST'], path: [...legacy, 'runs', 'stream'] },
  {
    api: 'rest-v1',
    endpoint: 'run',
    methods: ['POST'],
    path: [...legacy, 'runs', 'wait'],
    wait: true,
  },
  {
    api: 'rest-v1',
    endpoint: 'schemas',
    methods: ['GET'],
    path: [...legacy, ':agentId', 'schemas'],
  },
  {
    api: 'platform',
    endpoint: 'schemas',
    methods: ['GET'],
    path: [...platform, ':agentId', 'schemas'],
  },
  { api: 'platform', endpoint: 'run', methods: ['POST'], path: [...platform, ':agentId', 'runs'] },
  // Durable runs: read, cancel, answer approvals (the start is the `run` row above).
  {
    api: 'platform',
    endpoint: 'durable-run',
    methods: ['GET'],
    path: [...platform, ':agentId', 'runs', ':runId'],
  },
  {
    api: 'platform',
    endpoint: 'durable-cancel',
    methods: ['POST'],
    path: [...platform, ':agentId', 'cancellations'],
  },
  {
    api: 'platform',
    endpoint: 'durable-respond',
    methods: ['POST'],
    path: [...platform, ':agentId', 'responses'],
  },
  { api: 'rest-v1', endpoint: 'agent', methods: ['GET'], path: [...legacy, ':agentId'] },
  { api: 'platform', endpoint: 'agent', methods: ['GET'], path: [...platform, ':agentId'] },
];

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function matchDefinition(
  definition: MockRouteDefinition,
  segments: readonly string[],
): MockRoute | undefined {
  const start = segments.length - definition.path.length;
  if (start < 0) return undefined;
  const params: Record<string, string> = {};
  for (const [offset, expected] of definition.path.entries()) {
    const segment = segments[start + offset] ?? '';
    if (expected.startsWith(':')) {
      if (segment === '') return undefined;
      params[expected.slice(1)] = decodeSegment(segment);
    } else if (segment !== expected) {
      return undefined;
    }
  }
  return { ...definition, params, agentId: params['agentId'] };
}

/** Match a raw pathname (split on '/' before decoding, so `%2F` stays inside an id). */
export function matchRoute(pathname: string): MockRoute | undefined {
  const segments = pathname.split('/');
  for (const definition of mockRoutes) {
    const route = matchDefinition(definition, segments);
    if (route) return route;
  }
  return undefined;
}

/** Whether the route answers `method` (HEAD counts as GET). */
export function routeAllows(route: MockRouteDefinition, method: string): boolean {
  const asked = method === 'HEAD' ? 'GET' : method;
  return route.methods.some((allowed) => allowed === asked);
}
