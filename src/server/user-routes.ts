/**
 * The proxy's own routes over the store, for the signed-in user only: the threads (list, load,
 * save with the revision its writer saw, rename, delete) and the durable runs for an inbox. Served
 * only when the app gives both `user` and `store`; else these paths answer 404 as any other.
 */
import { proxyProblem } from './proxy-problem.js';
import { readCapped } from './redact-answer.js';
import { isSafeId, type ProxyRoute } from './proxy-routes.js';
import { guardDurableRequest, signInProblem, type RunGuard } from './run-ownership.js';
import {
  AgentStoreConflictError,
  type AgentStore,
  type StoredRun,
  type StoredRunGroup,
} from './store/agent-store.js';
import { AgentInputError } from '../core/wire/errors.js';

/** The store options of `createAgentProxy`. */
export interface AgentProxyStoreOptions {
  /**
   * Who the request's user is: the app's session decides (a cookie it checks, its auth library),
   * never a header or a value the browser sets. `undefined` (not signed in) answers the store's
   * routes and every durable operation 401. With `store`, it turns on the thread routes
   * (`{basePath}/threads…`), the run list (`{basePath}/runs`), and run ownership: each durable
   * start is recorded for this user, and a read, response or cancel of a run id not recorded for
   * this user answers 404 without reaching the service.
   * @default undefined (no store routes: they answer 404; durable runs forwarded as they come)
   */
  user?: ((request: Request) => string | undefined | Promise<string | undefined>) | undefined;
  /**
   * Where each user's threads and durable runs are kept: `createPgliteStore(…)` or
   * `createPostgresStore(…)`, or the promise of one (the store opens on the proxy's first request
   * that needs it; if it fails to open, those requests answer 500). Used only together with `user`.
   * @default undefined
   */
  store?: AgentStore | Promise<AgentStore> | undefined;
}

/** What `createAgentProxy` asks of its store, when it has one. */
export interface ProxyStoreHook {
  /** The answer of a store route, or `undefined` when the path is not one. */
  route(request: Request, url: URL): Promise<Response | undefined>;
  /** The guard of a request about to be forwarded (see {@link guardDurableRequest}). */
  guard(
    request: Request,
    route: ProxyRoute,
    body: Uint8Array<ArrayBuffer> | undefined,
  ): Promise<Response | RunGuard | undefined>;
}

/** Options of {@link createProxyStoreHook} besides the store's own. */
interface HookSettings {
  basePath: string;
  maxBodyBytes: number;
  authorize?: ((request: Request) => boolean | Response | Promise<boolean | Response>) | undefined;
}

/** The hook of a proxy given `user` and `store`; `undefined` (nothing served) without both. */
export function createProxyStoreHook(
  options: AgentProxyStoreOptions,
  settings: HookSettings,
): ProxyStoreHook | undefined {
  const { user } = options;
  if (user === undefined || options.store === undefined) return undefined;
  const opened = options.store;
  const storeOf = () => Promise.resolve(opened);
  const userOf = async (request: Request) => {
    const id = await user(request);
    return typeof id === 'string' && id !== '' ? id : undefined;
  };
  return {
    async route(request, url) {
      const target = matchStoreRoute(request.method, url.pathname, settings.basePath);
      if (target === undefined) return undefined;
      try {
        if (settings.authorize) {
          const verdict = await settings.authorize(request);
          if (verdict instanceof Response) return verdict;
          if (verdict !== true) return proxyProblem(403, 'The request is not authorized.');
        }
        const userId = await userOf(request);
        if (userId === undefined) return signInProblem();
        const store = await storeOf();
        return await answerStoreRoute(store, userId, target, request, url, settings.maxBodyBytes);
      } catch (error) {
        if (error instanceof AgentInputError) return proxyProblem(400, error.message);
        // The store's or the app's error stays on the server.
        return proxyProblem(500, 'The store could not answer.');
      }
    },
    guard: (request, route, body) => guardDurableRequest(storeOf, userOf, request, route, body),
  };
}

type StoreRoute =
  | { kind: 'threads' }
  | { kind: 'thread'; method: 'GET' | 'PUT' | 'PATCH' | 'DELETE'; threadId: string }
  | { kind: 'runs' };

function matchStoreRoute(
  method: string,
  pathname: string,
  basePath: string,
): StoreRoute | undefined {
  if (basePath !== '' && !pathname.startsWith(`${basePath}/`)) return undefined;
  const segments = pathname.slice(basePath.length + 1).split('/');
  const [first, second, ...rest] = segments;
  if (rest.length > 0) return undefined;
  if (second === undefined) {
    if (method !== 'GET') return undefined;
    if (first === 'threads') return { kind: 'threads' };
    if (first === 'runs') return { kind: 'runs' };
    return undefined;
  }
  if (first !== 'threads') return undefined;
  let threadId: string;
  try {
    threadId = decodeURIComponent(second);
  } catch {
    return undefined;
  }
  if (!isSafeId(threadId)) return undefined;
  if (method === 'GET' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') {
    return { kind: 'thread', method, threadId };
  }
  return undefined;
}

const listQuery = {
  limit: (url: URL) => {
    const value = url.searchParams.get('limit');
    if (value === null) return undefined;
    const limit = Number(value);
    if (!Number.isInteger(limit) || limit < 1) throw new AgentInputError('limit: a whole number.');
    return limit;
  },
  text: (url: URL, name: string) => url.searchParams.get(name) ?? undefined,
};

const groups = new Set<string>(['waiting', 'running', 'ended']);

// zod is loaded with the first body to check: the proxy without a store stays a small edge module.
const bodySchemas = () => import('./user-route-bodies.js');

async function answerStoreRoute(
  store: AgentStore,
  userId: string,
  target: StoreRoute,
  request: Request,
  url: URL,
  maxBodyBytes: number,
): Promise<Response> {
  if (target.kind === 'threads') {
    const page = await store.listThreads(userId, {
      agentId: listQuery.text(url, 'agentId'),
      limit: listQuery.limit(url),
      cursor: listQuery.text(url, 'cursor'),
    });
    return json(200, page);
  }
  if (target.kind === 'runs') {
    const group = listQuery.text(url, 'group');
    if (group !== undefined && !groups.has(group)) {
      throw new AgentInputError('group: waiting, running or ended.');
    }
    const page = await store.listRuns(userId, {
      group: group as StoredRunGroup | undefined,
      agentId: listQuery.text(url, 'agentId'),
      limit: listQuery.limit(url),
      cursor: listQuery.text(url, 'cursor'),
    });
    return json(200, { runs: page.runs.map(runOfUser), nextCursor: page.nextCursor });
  }
  const { threadId } = target;
  switch (target.method) {
    case 'GET': {
      // None for this user (another user's, or not saved yet): `null`, not a 404, so that opening
      // a new thread does not log a failed request in every browser console.
      const thread = await store.loadThread(userId, threadId);
      return json(200, { thread: thread ?? null });
    }
    case 'DELETE':
      return (await store.deleteThread(userId, threadId))
        ? new Response(null, { status: 204, headers: noStore })
        : proxyProblem(404, 'No thread with this id.');
    case 'PATCH': {
      const { renameBodySchema } = await bodySchemas();
      const body = renameBodySchema.safeParse(await readJson(request, maxBodyBytes));
      if (!body.success) throw new AgentInputError('The body must be { title }.');
      const renamed = await store.renameThread(userId, threadId, body.data.title);
      return renamed === undefined
        ? proxyProblem(404, 'No thread with this id.')
        : json(200, renamed);
    }
    case 'PUT': {
      const { saveBodySchema } = await bodySchemas();
      const body = saveBodySchema.safeParse(await readJson(request, maxBodyBytes));
      if (!body.success) {
        throw new AgentInputError('The body must be { thread: { agentId, messages }, … }.');
      }
      const { thread, expectedRevision } = body.data;
      try {
        const saved = await store.saveThread(
          userId,
          {
            id: threadId,
            agentId: thread.agentId,
            title: thread.title,
            // The store checks each message and keeps only its own fields.
            messages: thread.messages as never,
            // Checked (and copied) by the store, as the messages are.
            versions: thread['versions'] as never,
          },
          { expectedRevision },
        );
        return json(200, saved);
      } catch (error) {
        if (!(error instanceof AgentStoreConflictError)) throw error;
        return conflictProblem(error);
      }
    }
  }
}

/** A run as the browser sees it: the user id is the session's, not the browser's business. */
function runOfUser(run: StoredRun) {
  const { agentId, runId, state, group, title, createdAt, updatedAt } = run;
  return { agentId, runId, state, group, title, createdAt, updatedAt };
}

/** 409 with the thread as stored, so the device that lost can show it or merge. */
function conflictProblem(error: AgentStoreConflictError): Response {
  return new Response(
    JSON.stringify({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      code: 'thread_conflict',
      detail: 'The thread was saved elsewhere: nothing was written.',
      request_id: `proxy_${globalThis.crypto.randomUUID()}`,
      expectedRevision: error.expectedRevision,
      storedRevision: error.storedRevision,
      current: error.current ?? null,
    }),
    { status: 409, headers: { 'content-type': 'application/problem+json', ...noStore } },
  );
}

const noStore = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...noStore },
  });
}

/** The request's JSON body, at most `limit` bytes: a bad one is an AgentInputError (400). */
async function readJson(request: Request, limit: number): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new AgentInputError('The body must be application/json.');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > limit) {
    throw new AgentInputError(`The body is larger than ${limit} bytes.`);
  }
  const bytes = await readCapped(request.body, limit);
  if (bytes === 'too-large') throw new AgentInputError(`The body is larger than ${limit} bytes.`);
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AgentInputError('The body is not JSON.');
  }
}
