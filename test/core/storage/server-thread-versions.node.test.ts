// A thread's versions through the server thread store: createServerThreadStore over the proxy's
// routes on a real socket, the store on PGlite (its migration 3 adds the column that keeps them).
import { describe, expect, it } from 'vitest';
import { createServerThreadStore, type ConversationMessage } from 'agent-console-kit/core';
import type { ConversationVersions } from '../../../src/core/storage/thread-versions.js';
import { sessionOf, serveUserStoreProxy } from '../../support/user-store-proxy.js';

const proxy = serveUserStoreProxy();

const device = (user: string) =>
  createServerThreadStore({ baseUrl: proxy.url, headers: sessionOf(user) });
const message = (id: string, text: string, role: 'USER' | 'GLEAN_AI' = 'USER') =>
  ({ id, role, text, status: 'done', createdAt: 1 }) as ConversationMessage;

const shown = [message('m1', 'Where is it?'), message('m3', 'On its way.', 'GLEAN_AI')];
const versions: ConversationVersions = {
  forks: [{ after: 'm1', versions: ['m2', 'm3'], shown: 'm3' }],
  hidden: [{ after: 'm1', message: message('m2', 'Shipped yesterday.', 'GLEAN_AI') }],
};

describe('createServerThreadStore and the proxy’s store', () => {
  it('keep the versions of a thread across devices; a save without them leaves one version', async () => {
    const user = `user-versions-${Date.now().toString(36)}`;
    const laptop = device(user);
    const phone = device(user);
    await laptop.save({ id: 't-v', agentId: 'approve-agent', messages: shown, versions });

    const loaded = await phone.load('t-v');
    expect(loaded?.messages).toEqual(shown);
    expect(loaded?.versions).toEqual(versions);

    await phone.save({ id: 't-v', agentId: 'approve-agent', messages: shown });
    const again = await laptop.load('t-v');
    expect(again?.messages).toEqual(shown);
    expect(again && 'versions' in again).toBe(false);
  });

  it('refuses malformed versions (nothing written)', async () => {
    const store = device(`user-bad-${Date.now().toString(36)}`);
    const malformed = { forks: 'no', hidden: [] } as unknown as ConversationVersions;
    const saving = store.save({
      id: 't-bad',
      agentId: 'approve-agent',
      messages: shown,
      versions: malformed,
    });
    await expect(saving).rejects.toThrow();
    // Refused by the proxy for the versions, not for any other reason a save can fail.
    await expect(saving).rejects.toMatchObject({
      name: 'AgentHttpError',
      status: 400,
      detail: 'versions is malformed.',
    });
    expect(await store.load('t-bad')).toBeUndefined();
  });
});
