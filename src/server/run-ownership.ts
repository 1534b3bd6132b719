/**
 * Durable runs through the proxy, per user: each durable start it forwards is recorded in the
 * store for the signed-in user, each read, response and cancel passing through keeps its state
 * current, and one of a run id not recorded for this user answers 404 without reaching the service.
 */
import { proxyProblem } from './proxy-problem.js';
import { isSafeId, type ProxyRoute } from './proxy-routes.js';
import { maxRunBodyDepth, outlineOf } from './run-body-check.js';
import type { AgentStore } from './store/agent-store.js';

/** What a guarded request does once the service answered. */
export interface RunGuard {
  /** The body to forward: the bytes checked. */
  body: Uint8Array<ArrayBuffer> | undefined;
  /** Records what the service's answer says; the answer the browser gets. */
  finish(answer: Response): Promise<Response>;
}

const titleLength = 200;

/** The operations that name a durable run by its id. */
const runOperations = new Set(['durable-run', 'durable-cancel', 'durable-respond']);

/**
 * The guard of a request the proxy is about to forward: a refusal (401 without a user for a durable
 * operation, 404 for a run not this user's, 400 for a body naming no single run), a
 * {@link RunGuard} for a durable operation, or `undefined` for anything else (forwarded as is).
 */
export async function guardDurableRequest(
  storeOf: () => Promise<AgentStore>,
  userOf: (request: Request) => Promise<string | undefined>,
  request: Request,
  route: ProxyRoute,
  body: Uint8Array<ArrayBuffer> | undefined,
): Promise<Response | RunGuard | undefined> {
  if (route.api !== 'platform') return undefined;
  const agentId = route.params['agentId'];
  if (agentId === undefined) return undefined;
  const start = route.operation === 'run' ? durableStartOf(body) : false;
  if (start === 'ambiguous') return proxyProblem(400, 'The body names execution_mode twice.');
  const isStart = start;
  if (!isStart && !runOperations.has(route.operation)) return undefined;

  const userId = await userOf(request);
  if (userId === undefined) return signInProblem();
  const store = await storeOf();

  if (isStart) {
    return {
      body,
      finish: (answer) => recordStart(store, userId, agentId, titleOfStart(body), answer),
    };
  }
  let runId = route.params['runId'];
  if (route.operation !== 'durable-run') {
    runId = runIdOfBody(body);
    if (runId === undefined) return proxyProblem(400, 'The body names no single valid run_id.');
  }
  if (runId === undefined) return proxyProblem(404, 'No run with this id.');
  const owned = await store.getRun(userId, runId);
  if (owned === undefined || owned.agentId !== agentId) {
    // As the service answers a run id of another user: nothing tells it exists.
    return proxyProblem(404, 'No run with this id.');
  }
  const ownedRunId = runId;
  return {
    body,
    finish: (answer) => recordState(store, userId, ownedRunId, answer),
  };
}

/**
 * A body's top-level object and its keys as written (duplicates kept), or `undefined` when it is
 * not one object of UTF-8 JSON that every parser reads alike.
 */
function outlinedObject(
  body: Uint8Array | undefined,
): { parsed: Record<string, unknown>; keys: string[] } | undefined {
  if (body === undefined) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed)) return undefined;
    const outline = outlineOf(text);
    return outline.depth > maxRunBodyDepth ? undefined : { parsed, keys: outline.keys };
  } catch {
    return undefined;
  }
}

/**
 * Whether a run body asks for a durable run: `'ambiguous'` when it names `execution_mode` more than
 * once, in any case (parsers would disagree which one counts; Go's decoder matches any case).
 */
function durableStartOf(body: Uint8Array | undefined): boolean | 'ambiguous' {
  const outlined = outlinedObject(body);
  if (outlined === undefined) return false;
  const keys = outlined.keys.filter((key) => key.toLowerCase() === 'execution_mode');
  if (keys.length > 1) return 'ambiguous';
  const value = keys[0] === undefined ? undefined : outlined.parsed[keys[0]];
  return typeof value === 'string' && value.toUpperCase() === 'DURABLE';
}

/**
 * The run a cancel or a response names. The body is forwarded byte for byte, so what parsers
 * could read differently is refused: a duplicate `run_id` (one keeps the last, another the first),
 * a key that differs only in case.
 */
function runIdOfBody(body: Uint8Array | undefined): string | undefined {
  const outlined = outlinedObject(body);
  if (outlined === undefined) return undefined;
  const keys = outlined.keys.filter((key) => key.toLowerCase() === 'run_id');
  const runId = outlined.parsed['run_id'];
  if (keys.length !== 1 || typeof runId !== 'string' || !isSafeId(runId)) return undefined;
  return runId;
}

/** What the inbox shows of a start: the first question, else the form's values. */
function titleOfStart(body: Uint8Array | undefined): string {
  const parsed = parseObject(body) ?? {};
  const messages = Array.isArray(parsed['messages']) ? (parsed['messages'] as unknown[]) : [];
  const question = messages.find((message) => isRecord(message) && message['role'] === 'USER');
  let text = '';
  if (isRecord(question) && Array.isArray(question['content'])) {
    text = (question['content'] as unknown[])
      .map((block) => (isRecord(block) && typeof block['text'] === 'string' ? block['text'] : ''))
      .join(' ');
  } else if (isRecord(parsed['input'])) {
    text = Object.values(parsed['input'])
      .filter((value) => typeof value === 'string' || typeof value === 'number')
      .join(' · ');
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, titleLength);
}

/** The run of a durable answer (`{ run: { run_id, agent_id, state } }`), if it is one. */
async function runOfAnswer(
  answer: Response,
): Promise<{ runId: string; agentId: string; state: string } | undefined> {
  if (!answer.ok || answer.body === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await answer.clone().text());
  } catch {
    return undefined;
  }
  const run = isRecord(parsed) ? parsed['run'] : undefined;
  if (!isRecord(run)) return undefined;
  const { run_id: runId, agent_id: agentId, state } = run;
  if (typeof runId !== 'string' || typeof agentId !== 'string' || typeof state !== 'string') {
    return undefined;
  }
  return { runId, agentId, state };
}

async function recordStart(
  store: AgentStore,
  userId: string,
  agentId: string,
  title: string,
  answer: Response,
): Promise<Response> {
  const run = await runOfAnswer(answer);
  if (run === undefined || run.agentId !== agentId || !isSafeId(run.runId)) return answer;
  try {
    const recorded = await store.recordRun({
      userId,
      agentId,
      runId: run.runId,
      state: run.state,
      title,
    });
    if (recorded === undefined) throw new Error('The run id is recorded for another user.');
    return answer;
  } catch {
    await answer.body?.cancel().catch(() => undefined);
    // The run started, and this user could not reach it: the client says it may have started
    // and does not send it again (a 502 is such an answer to a start).
    return proxyProblem(502, 'The run started, but the proxy could not record it.');
  }
}

async function recordState(
  store: AgentStore,
  userId: string,
  runId: string,
  answer: Response,
): Promise<Response> {
  const run = await runOfAnswer(answer);
  if (run !== undefined && run.runId === runId) {
    // The answer goes to the browser even when the store could not take the state: the next
    // read passing through brings it.
    await store.updateRun(userId, runId, { state: run.state }).catch(() => undefined);
  }
  return answer;
}

/** 401: the app's `user(request)` knows no user for this request. */
export function signInProblem(): Response {
  return new Response(
    JSON.stringify({
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      code: 'unauthenticated',
      detail: 'Sign in to use your threads and runs.',
      request_id: `proxy_${globalThis.crypto.randomUUID()}`,
    }),
    {
      status: 401,
      headers: {
        'content-type': 'application/problem+json',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    },
  );
}

function parseObject(body: Uint8Array | undefined): Record<string, unknown> | undefined {
  return outlinedObject(body)?.parsed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
