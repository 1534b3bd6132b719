/**
 * Durable runs through the proxy, per user: each durable start it forwards is recorded in the
 * store for the signed-in user, each read, response and cancel passing through keeps its state
 * current, and one of a run id not recorded for this user answers 404 without reaching the service.
 */
import { proxyProblem } from './proxy-problem.js';
import { isSafeId, type ProxyRoute } from './proxy-routes.js';
import type { AgentStore } from './store/agent-store.js';

/** What a guarded request does once the service answered. */
export interface RunGuard {
  /** The body to forward (written anew from what was checked). */
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
  store: AgentStore,
  userOf: (request: Request) => Promise<string | undefined>,
  request: Request,
  route: ProxyRoute,
  body: Uint8Array<ArrayBuffer> | undefined,
): Promise<Response | RunGuard | undefined> {
  if (route.api !== 'platform') return undefined;
  const agentId = route.params['agentId'];
  if (agentId === undefined) return undefined;
  const isStart = route.operation === 'run' && isDurableStart(body);
  if (!isStart && !runOperations.has(route.operation)) return undefined;

  const userId = await userOf(request);
  if (userId === undefined) return signInProblem();

  if (isStart) {
    return {
      body,
      finish: (answer) => recordStart(store, userId, agentId, titleOfStart(body), answer),
    };
  }
  let runId = route.params['runId'];
  let forwarded = body;
  if (route.operation !== 'durable-run') {
    const named = runIdOfBody(body);
    if (named === undefined) return proxyProblem(400, 'The body names no single valid run_id.');
    runId = named.runId;
    forwarded = named.body;
  }
  if (runId === undefined) return proxyProblem(404, 'No run with this id.');
  const owned = await store.getRun(userId, runId);
  if (owned === undefined || owned.agentId !== agentId) {
    // As the service answers a run id of another user: nothing tells it exists.
    return proxyProblem(404, 'No run with this id.');
  }
  const ownedRunId = runId;
  return {
    body: forwarded,
    finish: (answer) => recordState(store, userId, ownedRunId, answer),
  };
}

/** Whether a run body asks for a durable run (a key differing only in case counts too). */
function isDurableStart(body: Uint8Array | undefined): boolean {
  const parsed = parseObject(body);
  if (parsed === undefined) return false;
  return Object.entries(parsed).some(
    ([key, value]) =>
      key.toLowerCase() === 'execution_mode' &&
      typeof value === 'string' &&
      value.toUpperCase() === 'DURABLE',
  );
}

/**
 * The run a cancel or a response names, and the body to forward written anew from the parsed one:
 * a duplicate `run_id` (one parser keeps the last, another the first) cannot name another run at
 * the service, and a key that differs only in case is refused.
 */
function runIdOfBody(
  body: Uint8Array | undefined,
): { runId: string; body: Uint8Array<ArrayBuffer> } | undefined {
  const parsed = parseObject(body);
  if (parsed === undefined) return undefined;
  const keys = Object.keys(parsed).filter((key) => key.toLowerCase() === 'run_id');
  const runId = parsed['run_id'];
  if (keys.length !== 1 || typeof runId !== 'string' || !isSafeId(runId)) return undefined;
  return { runId, body: new TextEncoder().encode(JSON.stringify(parsed)) };
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
  if (body === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
