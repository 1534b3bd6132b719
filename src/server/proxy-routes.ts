/**
 * The route table of the proxy: the agent operations of both generations of the service, and
 * nothing else. A path is decoded once, segment by segment, and every segment is checked against
 * the table (literal segments exactly, ids against a safe character set), so a dot segment, an
 * encoded slash or backslash, a doubled slash or an absolute URL never matches.
 */

/** A method the proxy forwards. */
export type ProxyMethod = 'GET' | 'POST';

/** The operations the proxy forwards. */
export type ProxyOperation =
  | 'agent'
  | 'schemas'
  | 'search'
  | 'run'
  | 'run-wait'
  | 'tool-auth'
  | 'durable-run'
  | 'durable-cancel'
  | 'durable-respond';

/** One row of the route table. */
export interface ProxyRouteDefinition {
  operation: ProxyOperation;
  api: 'rest-v1' | 'platform';
  method: ProxyMethod;
  /** Every segment of the service's path: `:name` is an id, anything else a literal. */
  path: readonly string[];
  /** The query parameters forwarded, each with the values it may take; others are dropped. */
  query?: Readonly<Record<string, readonly string[]>>;
  /** Where the agent id is: the `:agentId` segment, the `agent_id` of the JSON body, or nowhere. */
  agentFrom: 'path' | 'body' | 'none';
}

/** A request matched to a row. */
export interface ProxyRoute extends ProxyRouteDefinition {
  /** The decoded ids of the path. */
  params: Readonly<Record<string, string>>;
  /** The service path to request, every segment encoded again. */
  servicePath: string;
}

const legacy = ['rest', 'api', 'v1', 'agents'] as const;
const platform = ['api', 'agents'] as const;

/** Every route; literal rows first, so `search` is never read as an agent id. */
export const proxyRoutes: readonly ProxyRouteDefinition[] = [
  {
    operation: 'search',
    api: 'rest-v1',
    method: 'POST',
    path: [...legacy, 'search'],
    agentFrom: 'none',
  },
  {
    operation: 'run',
    api: 'rest-v1',
    method: 'POST',
    path: [...legacy, 'runs', 'stream'],
    agentFrom: 'body',
  },
  {
    operation: 'run-wait',
    api: 'rest-v1',
    method: 'POST',
    path: [...legacy, 'runs', 'wait'],
    agentFrom: 'body',
  },
  {
    operation: 'agent',
    api: 'rest-v1',
    method: 'GET',
    path: [...legacy, ':agentId'],
    agentFrom: 'path',
  },
  {
    operation: 'schemas',
    api: 'rest-v1',
    method: 'GET',
    path: [...legacy, ':agentId', 'schemas'],
    agentFrom: 'path',
  },
  ...(['GET', 'POST'] as const).map((method): ProxyRouteDefinition => ({
    operation: 'tool-auth',
    api: 'rest-v1',
    method,
    path: ['rest', 'api', 'v1', 'tool-servers', ':serverId', 'auth'],
    agentFrom: 'none',
  })),
  {
    operation: 'search',
    api: 'platform',
    method: 'POST',
    path: [...platform, 'search'],
    agentFrom: 'none',
  },
  {
    operation: 'agent',
    api: 'platform',
    method: 'GET',
    path: [...platform, ':agentId'],
    agentFrom: 'path',
  },
  {
    operation: 'schemas',
    api: 'platform',
    method: 'GET',
    path: [...platform, ':agentId', 'schemas'],
    query: { include_tools: ['true', 'false'] },
    agentFrom: 'path',
  },
  {
    operation: 'run',
    api: 'platform',
    method: 'POST',
    path: [...platform, ':agentId', 'runs'],
    agentFrom: 'path',
  },
  {
    operation: 'durable-run',
    api: 'platform',
    method: 'GET',
    path: [...platform, ':agentId', 'runs', ':runId'],
    agentFrom: 'path',
  },
  {
    operation: 'durable-cancel',
    api: 'platform',
    method: 'POST',
    path: [...platform, ':agentId', 'cancellations'],
    agentFrom: 'path',
  },
  {
    operation: 'durable-respond',
    api: 'platform',
    method: 'POST',
    path: [...platform, ':agentId', 'responses'],
    agentFrom: 'path',
  },
];

/**
 * The characters an id may have once decoded: letters, digits and `_ - . ~ : @`, not starting with
 * a dot (so never `.` or `..`), at most 256 of them. No `/`, `\`, `%`, NUL, space or control.
 */
const safeId = /^[A-Za-z0-9_~:@-][A-Za-z0-9._~:@-]{0,255}$/;

/** Whether `value` may be an id in a forwarded path (an agent, a run or a tool server). */
export function isSafeId(value: string): boolean {
  return safeId.test(value);
}

/** `.`, `..` and their percent-encoded spellings, as a whole segment. */
const dotSegment = /^(?:\.|%2e){1,2}$/i;

/**
 * Whether a raw request target (before any URL parsing) has a dot segment, a backslash or an
 * encoded one: URL parsing would resolve them away, so an adapter that sees the raw target refuses
 * it rather than forward what the resolution made of it.
 */
export function hasUnsafeRawPath(target: string): boolean {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  if (path.includes('\\')) return true;
  return path.split('/').some((segment) => dotSegment.test(segment));
}

function decodeOnce(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Matches a request to a route: `pathname` is the request's (still encoded) pathname, `basePath`
 * where the proxy is mounted. Undefined for anything that is not exactly one of the agent
 * operations.
 */
export function matchProxyRoute(
  method: string,
  pathname: string,
  basePath: string,
): ProxyRoute | undefined {
  if (basePath !== '' && !pathname.startsWith(`${basePath}/`)) return undefined;
  const rest = pathname.slice(basePath.length);
  if (!rest.startsWith('/')) return undefined;
  const decoded: string[] = [];
  for (const raw of rest.slice(1).split('/')) {
    const segment = decodeOnce(raw);
    if (segment === undefined || segment === '') return undefined;
    decoded.push(segment);
  }
  for (const definition of proxyRoutes) {
    if (definition.method !== method || definition.path.length !== decoded.length) continue;
    const params: Record<string, string> = {};
    const matches = definition.path.every((expected, index) => {
      const segment = decoded[index] ?? '';
      if (!expected.startsWith(':')) return segment === expected;
      if (!isSafeId(segment)) return false;
      params[expected.slice(1)] = segment;
      return true;
    });
    if (!matches) continue;
    const servicePath = `/${decoded.map((segment) => encodeURIComponent(segment)).join('/')}`;
    return { ...definition, params, servicePath };
  }
  return undefined;
}

/** The query string to forward: only the route's known parameters with a known value. */
export function forwardedQuery(route: ProxyRouteDefinition, search: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const [name, allowed] of Object.entries(route.query ?? {})) {
    const value = search.get(name);
    if (value !== null && allowed.includes(value)) kept.set(name, value);
  }
  const text = kept.toString();
  return text === '' ? '' : `?${text}`;
}
