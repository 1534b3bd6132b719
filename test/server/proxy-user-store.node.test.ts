// The proxy's store routes and run ownership on a real socket: the proxy (toNodeHandler on
// node:http) in front of the mock service, the store on PGlite in memory. The user comes from the
// app's session (a cookie the test's `user` function reads), never from a header of the browser.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  createAgentProxy,
  createPgliteStore,
  toNodeHandler,
  type AgentProxyOptions,
  type AgentStore,
} from 'agent-console-kit/server';
import { setUpMockServer } from '../support/mock-server.js';

const service = setUpMockServer({
  agents: [
    {
      agent: {
        agent_id: 'approve-agent',
        name: 'Approve',
        capabilities: { 'ap.io.messages': true },
      },
      durable: {
        turns: [
          {
            runningMs: 0,
            text: 'Approve the deploy?',
            approvals: [{ displayName: 'Deploy', arguments: { service: 'web' } }],
          },
          { runningMs: 0, text: 'Deployed.' },
        ],
      },
    },
  ],
});

let store: AgentStore;
beforeAll(async () => {
  store = await createPgliteStore();
});
afterAll(() => store.close());

/** The app's session: `session=<user>` in a cookie (a stand-in for a signed session). */
function sessionUser(request: Request): string | undefined {
  const cookie = request.headers.get('cookie') ?? '';
  return /(?:^|;\s*)session=([\w-]+)/.exec(cookie)?.[1];
}

async function serveProxy(options: Partial<AgentProxyOptions> = {}): Promise<string> {
  const proxy = createAgentProxy({ baseUrl: service.url, token: 'server-token', ...options });
  const server: Server = createServer(toNodeHandler(proxy));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent-service`;
}

let userCounter = 0;
function newUser() {
  userCounter += 1;
  return `user-${Date.now().toString(36)}-${userCounter}`;
}

function as(user: string | undefined, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (user !== undefined) headers.set('cookie', `session=${user}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  return { ...init, headers };
}

const question = (id: string, text: string) => ({
  id,
  role: 'USER',
  text,
  status: 'done',
  createdAt: 1,
});

function saveBody(messages: unknown[], expectedRevision?: number) {
  return JSON.stringify({ thread: { agentId: 'approve-agent', messages }, expectedRevision });
}

const startBody = JSON.stringify({
  messages: [{ role: 'USER', content: [{ type: 'text', text: 'Deploy the web service' }] }],
  stream: false,
  execution_mode: 'DURABLE',
});

async function startRun(base: string, user: string) {
  const answer = await fetch(
    `${base}/api/agents/approve-agent/runs`,
    as(user, { method: 'POST', body: startBody }),
  );
  expect(answer.status).toBe(201);
  const { run } = (await answer.json()) as { run: { run_id: string; state: string } };
  return run.run_id;
}

describe('the store routes, default-deny', () => {
  it('answer 404 without `user`, without `store`, and with neither: exactly as any unknown path', async () => {
    for (const options of [{ store }, { user: sessionUser }, {}]) {
      const base = await serveProxy(options);
      for (const [path, method] of [
        ['/threads', 'GET'],
        ['/threads/t-1', 'GET'],
        ['/threads/t-1', 'PUT'],
        ['/threads/t-1', 'DELETE'],
        ['/runs', 'GET'],
      ] as const) {
        const answer = await fetch(
          `${base}${path}`,
          as('alice', method === 'PUT' ? { method, body: saveBody([]) } : { method }),
        );
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(((await answer.json()) as { detail: string }).detail).toBe(
          'Not an agent operation.',
        );
      }
    }
    expect(service.requests).toHaveLength(0);
  });

  it('answer 401 when the session has no user; a header the browser sets names no one', async () => {
    const base = await serveProxy({ store, user: sessionUser });
    for (const init of [{}, { headers: { 'x-user': 'alice', 'x-user-id': 'alice' } }]) {
      expect((await fetch(`${base}/threads`, init)).status).toBe(401);
      expect((await fetch(`${base}/runs`, init)).status).toBe(401);
    }
    // A durable operation without a user is refused too, before the service.
    const start = await fetch(`${base}/api/agents/approve-agent/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: startBody,
    });
    expect(start.status).toBe(401);
    expect(service.requests).toHaveLength(0);
  });
});

describe('a store given as a promise (opened on the first request)', () => {
  it('serves once it resolves; one that fails to open answers 500 and reaches nothing', async () => {
    const base = await serveProxy({ store: Promise.resolve(store), user: sessionUser });
    const alice = newUser();
    const saved = await fetch(
      `${base}/threads/t-p`,
      as(alice, { method: 'PUT', body: saveBody([question('m1', 'Hi')], 0) }),
    );
    expect(saved.status).toBe(200);
    const failing = Promise.reject(new Error('no database here'));
    failing.catch(() => undefined);
    const broken = await serveProxy({ store: failing, user: sessionUser });
    const answer = await fetch(`${broken}/threads`, as(alice));
    expect(answer.status).toBe(500);
    expect(await answer.text()).not.toContain('no database here');
    const start = await fetch(
      `${broken}/api/agents/approve-agent/runs`,
      as(alice, { method: 'POST', body: startBody }),
    );
    expect(start.status).toBe(500);
    expect(service.requests).toHaveLength(0);
  });
});

describe('the thread routes', () => {
  it('save, list (newest first), load, rename and delete, each user only their own', async () => {
    const base = await serveProxy({ store, user: sessionUser });
    const alice = newUser();
    const bob = newUser();
    const put = (user: string, id: string, body: string) =>
      fetch(`${base}/threads/${id}`, as(user, { method: 'PUT', body }));

    expect((await put(alice, 't-1', saveBody([question('m1', 'First')], 0))).status).toBe(200);
    const second = await put(alice, 't-2', saveBody([question('m2', 'Second')], 0));
    expect(await second.json()).toMatchObject({ revision: 1 });

    const list = (await (await fetch(`${base}/threads`, as(alice))).json()) as {
      threads: { id: string; title: string; messageCount: number }[];
    };
    expect(list.threads.map((thread) => [thread.id, thread.title])).toEqual([
      ['t-2', 'Second'],
      ['t-1', 'First'],
    ]);
    const paged = (await (await fetch(`${base}/threads?limit=1`, as(alice))).json()) as {
      threads: { id: string }[];
      nextCursor: string;
    };
    expect(paged.threads.map((thread) => thread.id)).toEqual(['t-2']);
    const next = (await (
      await fetch(
        `${base}/threads?limit=1&cursor=${encodeURIComponent(paged.nextCursor)}`,
        as(alice),
      )
    ).json()) as { threads: { id: string }[] };
    expect(next.threads.map((thread) => thread.id)).toEqual(['t-1']);

    const loaded = (await (await fetch(`${base}/threads/t-1`, as(alice))).json()) as {
      thread: { messages: { text: string }[]; revision: number };
    };
    expect(loaded.thread).toMatchObject({ revision: 1, messages: [{ text: 'First' }] });

    const renamed = await fetch(
      `${base}/threads/t-1`,
      as(alice, { method: 'PATCH', body: JSON.stringify({ title: 'Renamed' }) }),
    );
    expect(await renamed.json()).toMatchObject({ revision: 2 });

    // Bob: none of it, as if it did not exist.
    expect((await (await fetch(`${base}/threads`, as(bob))).json()) as unknown).toEqual({
      threads: [],
    });
    // Another user's thread loads as none, exactly as one never saved.
    expect(await (await fetch(`${base}/threads/t-1`, as(bob))).json()).toEqual({ thread: null });
    expect(await (await fetch(`${base}/threads/never-saved`, as(bob))).json()).toEqual({
      thread: null,
    });
    expect((await fetch(`${base}/threads/t-1`, as(bob, { method: 'DELETE' }))).status).toBe(404);
    expect(
      (
        await fetch(
          `${base}/threads/t-1`,
          as(bob, { method: 'PATCH', body: JSON.stringify({ title: 'Bob was here' }) }),
        )
      ).status,
    ).toBe(404);

    expect((await fetch(`${base}/threads/t-1`, as(alice, { method: 'DELETE' }))).status).toBe(204);
    expect(await (await fetch(`${base}/threads/t-1`, as(alice))).json()).toEqual({ thread: null });
    expect(service.requests).toHaveLength(0);
  });

  it('a save on an old revision answers 409 with the thread as stored, and writes nothing', async () => {
    const base = await serveProxy({ store, user: sessionUser });
    const alice = newUser();
    const put = (body: string) => fetch(`${base}/threads/t-c`, as(alice, { method: 'PUT', body }));
    expect((await put(saveBody([question('m1', 'Hello')], 0))).status).toBe(200);
    // Two devices both saw revision 1.
    const [a, b] = await Promise.all([
      put(saveBody([question('m1', 'Hello'), question('a2', 'From A')], 1)),
      put(saveBody([question('m1', 'Hello'), question('b2', 'From B')], 1)),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await loser.json()) as {
      status: number;
      code: string;
      storedRevision: number;
      current: { revision: number; messages: { id: string }[] };
    };
    expect(problem).toMatchObject({ status: 409, code: 'thread_conflict', storedRevision: 2 });
    const winnerId = a.status === 200 ? 'a2' : 'b2';
    expect(problem.current.messages.map((message) => message.id)).toEqual(['m1', winnerId]);
    const stored = (await (await fetch(`${base}/threads/t-c`, as(alice))).json()) as {
      thread: { revision: number; messages: { id: string }[] };
    };
    expect(stored.thread.revision).toBe(2);
    expect(stored.thread.messages.map((message) => message.id)).toEqual(['m1', winnerId]);
  });

  it('refuses a body that is not a thread, and an id that is not safe', async () => {
    const base = await serveProxy({ store, user: sessionUser });
    const alice = newUser();
    const bad = await fetch(
      `${base}/threads/t-x`,
      as(alice, { method: 'PUT', body: JSON.stringify({ thread: { messages: 'no' } }) }),
    );
    expect(bad.status).toBe(400);
    const notMessages = await fetch(
      `${base}/threads/t-x`,
      as(alice, { method: 'PUT', body: saveBody([{ role: 'USER' }]) }),
    );
    expect(notMessages.status).toBe(400);
    expect((await fetch(`${base}/threads/..`, as(alice))).status).toBe(404);
    expect((await fetch(`${base}/threads/a%2Fb`, as(alice))).status).toBe(404);
  });
});

describe('durable runs through the proxy, per user', () => {
  it('records each start, keeps its state from the reads and the answer, and lists it for the inbox', async () => {
    const base = await serveProxy({ store, user: sessionUser });
    const alice = newUser();
    const runId = await startRun(base, alice);
    const listed = async (group?: string) =>
      (
        (await (
          await fetch(`${base}/runs${group === undefined ? '' : `?group=${group}`}`, as(alice))
        ).json()) as { runs: { runId: string; state: string; group: string; title: string }[] }
      ).runs;
    expect(await listed()).toEqual([
      expect.objectContaining({ runId, agentId: 'approve-agent', title: 'Deploy the web service' }),
    ]);

    // The read that finds it waiting files it under `waiting`.
    const read = await fetch(`${base}/api/agents/approve-agent/runs/${runId}`, as(alice));
    const { run } = (await read.json()) as {
      run: { state: string; pending_interactions: { interaction_id: string }[] };
    };
    expect(run.state).toBe('REQUIRES_INPUT');
    expect(await listed('waiting')).toEqual([
      expect.objectContaining({ runId, state: 'REQUIRES_INPUT', group: 'waiting' }),
    ]);
    const interactionId = run.pending_interactions[0]?.interaction_id ?? '';
    const respond = await fetch(
      `${base}/api/agents/approve-agent/responses`,
      as(alice, {
        method: 'POST',
        body: JSON.stringify({
          run_id: runId,
          responses: [{ interaction_id: interactionId, decision: 'APPROVE' }],
        }),
      }),
    );
    expect(respond.status).toBe(200);
    expect(await listed('waiting')).toEqual([]);
    // The user id is the session's business: the browser's list does not carry it.
    expect(JSON.stringify(await listed())).not.toContain(alice);
  });

  it("answers 404 for another user's run: read, respond and cancel never reach the service", async () => {
    const base = await serveProxy({ store, user: sessionUser });
    const alice = newUser();
    const bob = newUser();
    const runId = await startRun(base, alice);
    const before = service.requests.length;

    const attempts = [
      fetch(`${base}/api/agents/approve-agent/runs/${runId}`, as(bob)),
      fetch(
        `${base}/api/agents/approve-agent/cancellations`,
        as(bob, { method: 'POST', body: JSON.stringify({ run_id: runId }) }),
      ),
      fetch(
        `${base}/api/agents/approve-agent/responses`,
        as(bob, {
          method: 'POST',
          body: JSON.stringify({
            run_id: runId,
            responses: [{ interaction_id: 'x', decision: 'APPROVE' }],
          }),
        }),
      ),
      // A run id nobody recorded (the service's own id space), and a run under another agent.
      fetch(`${base}/api/agents/approve-agent/runs/d1-not-recorded`, as(alice)),
      fetch(`${base}/api/agents/other-agent/runs/${runId}`, as(alice)),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { code: string }).code).toBe('resource_not_found');
    }
    expect(service.requests.length).toBe(before);
    expect(((await (await fetch(`${base}/runs`, as(bob))).json()) as { runs: [] }).runs).toEqual(
      [],
    );

    // The owner's read reaches it.
    expect((await fetch(`${base}/api/agents/approve-agent/runs/${runId}`, as(alice))).status).toBe(
      200,
    );
    expect(service.requests.length).toBe(before + 1);
  });

  it('refuses a cancel or a response whose body names no single run_id, before the service', async () => {
    const base = await serveProxy({ store, user: sessionUser });
    const alice = newUser();
    const runId = await startRun(base, alice);
    const before = service.requests.length;
    for (const body of [
      `{"run_id":"${runId}","Run_Id":"d9-other"}`,
      `{"run_id":"d9-other","run_id":"${runId}"}`,
      '{"run_id":42}',
      'not json',
      '{}',
    ]) {
      const answer = await fetch(
        `${base}/api/agents/approve-agent/cancellations`,
        as(alice, { method: 'POST', body }),
      );
      expect(answer.status, body).toBe(400);
    }
    expect(service.requests.length).toBe(before);
    // A start that names its execution mode twice could be durable for the service and not for
    // the proxy: refused.
    const ambiguous = await fetch(
      `${base}/api/agents/approve-agent/runs`,
      as(alice, {
        method: 'POST',
        body: '{"messages":[],"execution_mode":"STREAMING","Execution_Mode":"DURABLE"}',
      }),
    );
    expect(ambiguous.status).toBe(400);
    expect(service.requests.length).toBe(before);
  });

  it('without a store, durable runs go through as before (no ownership, nothing recorded)', async () => {
    const base = await serveProxy();
    const runId = await startRun(base, 'anyone');
    expect((await fetch(`${base}/api/agents/approve-agent/runs/${runId}`)).status).toBe(200);
    expect((await store.listRuns('anyone')).runs).toEqual([]);
  });
});
