/**
 * createDurableRunList with `server` (useDurableRuns across devices): this browser's run store and
 * the user's runs from the proxy's store (`createServerRunList`), against createAgentProxy({ user,
 * store }) with PGlite in front of the mock service on 127.0.0.1. A run store and a client with
 * one session are one device of that user.
 */
import { describe, expect, it } from 'vitest';
import {
  createAgentClient,
  createDurableRun,
  createDurableRunList,
  createDurableRunStore,
  createServerRunList,
  type AgentClient,
} from 'agent-console-kit/core';
import { sessionOf, serveUserStoreProxy } from '../../support/user-store-proxy.js';

const proxy = serveUserStoreProxy();

let users = 0;
const newUser = () => `runs-${++users}-${Date.now().toString(36)}`;
const ask = (text: string) => ({ messages: [{ role: 'USER', content: [{ type: 'text', text }] }] });

/** A device of `user`: its own client, run store and list of the server's runs. */
function device(user: string) {
  const client: AgentClient = createAgentClient({
    baseUrl: proxy.url,
    api: 'platform',
    headers: () => sessionOf(user),
  });
  const store = createDurableRunStore({ storage: 'memory' });
  const server = createServerRunList({
    baseUrl: proxy.url,
    headers: sessionOf(user),
    pollIntervalMs: 0,
  });
  return { client, store, server };
}

/** Starts a run on `laptop` (recorded in its run store) and reads it until it waits. */
async function startWaiting(laptop: ReturnType<typeof device>, text: string) {
  const run = createDurableRun(laptop.client, { agentId: 'approve-agent', store: laptop.store });
  await run.start(ask(text));
  const runId = run.getSnapshot().runId ?? '';
  while (run.getSnapshot().status !== 'requires-input') await run.refresh();
  run.detach();
  return runId;
}

describe('given createDurableRunList with the server’s run list', () => {
  it('lists a run started on another device of the user (once when opened here too), and none of another user', async () => {
    const user = newUser();
    const laptop = device(user);
    const phone = device(user);
    const runId = await startWaiting(laptop, 'Deploy the web service');

    const list = createDurableRunList({ store: phone.store, server: phone.server });
    const unsubscribe = list.subscribe(() => {});
    await phone.server.refresh();
    expect(list.getSnapshot()).toEqual([
      expect.objectContaining({
        agentId: 'approve-agent',
        runId,
        status: 'requires-input',
        serverState: 'REQUIRES_INPUT',
        inProgress: true,
        source: 'server',
        request: { kind: 'messages', preview: 'Deploy the web service' },
      }),
    ]);
    // Without `server`, the phone's own store knows nothing.
    expect(createDurableRunList({ store: phone.store }).getSnapshot()).toEqual([]);

    // Opened on the phone (attached: its record has no question), listed once, with the title.
    const opened = createDurableRun(phone.client, { agentId: 'approve-agent', store: phone.store });
    await opened.attach(runId);
    opened.detach();
    expect(list.getSnapshot()).toEqual([
      expect.objectContaining({
        runId,
        source: 'browser',
        request: expect.objectContaining({ preview: 'Deploy the web service' }),
      }),
    ]);

    const stranger = device(newUser());
    const theirs = createDurableRunList({ store: stranger.store, server: stranger.server });
    await stranger.server.refresh();
    expect(theirs.getSnapshot()).toEqual([]);
    unsubscribe();
  });

  it('a run both know is listed once and takes the newer state: approved on the phone, ended on the laptop', async () => {
    const user = newUser();
    const laptop = device(user);
    const phone = device(user);
    const runId = await startWaiting(laptop, 'Deploy the API');

    const list = createDurableRunList({ store: laptop.store, server: laptop.server });
    const unsubscribe = list.subscribe(() => {});
    await laptop.server.refresh();
    const [before] = list.getSnapshot();
    expect(list.getSnapshot()).toHaveLength(1);
    expect(before).toMatchObject({ runId, status: 'requires-input', source: 'browser' });

    // The phone answers; the laptop's own record still says it waits.
    const waiting = await phone.client.getDurableRun('approve-agent', runId);
    const interactionId = waiting.pendingInteractions[0]?.interactionId;
    if (interactionId === undefined) throw new Error('The run asks for no approval.');
    await phone.client.respondToDurableRun('approve-agent', runId, [
      { interactionId, decision: 'APPROVE' },
    ]);
    let ended = await phone.client.getDurableRun('approve-agent', runId);
    while (ended.state !== 'SUCCEEDED') {
      ended = await phone.client.getDurableRun('approve-agent', runId);
    }
    expect(laptop.store.list()[0]).toMatchObject({ runId, lastState: 'REQUIRES_INPUT' });

    await laptop.server.refresh();
    expect(list.getSnapshot()).toEqual([
      expect.objectContaining({
        localId: before?.localId,
        runId,
        status: 'succeeded',
        serverState: 'SUCCEEDED',
        inProgress: false,
        source: 'browser',
      }),
    ]);
    unsubscribe();
  });
});
