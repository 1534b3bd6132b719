// In jsdom: the server thread store and run list read again when the page comes back into view,
// so a save or a run of another device shows without a reload (the proxy and its store on
// 127.0.0.1, PGlite in memory).
import { describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { createAgentClient, createServerThreadStore } from 'agent-console-kit';
import { createServerRunList } from 'agent-console-kit/core';
import type { ThreadStoreChange } from '../../../src/core/storage/thread-store.js';
import { sessionOf, serveUserStoreProxy } from '../../support/user-store-proxy.js';

const proxy = serveUserStoreProxy();

const message = (id: string, text: string) => ({
  id,
  role: 'USER' as const,
  text,
  status: 'done' as const,
  createdAt: 1,
});

describe('given a page that comes back into view', () => {
  it('the thread store tells its subscribers what another device saved or deleted', async () => {
    const user = 'focus-threads';
    const here = createServerThreadStore({ baseUrl: proxy.url, headers: sessionOf(user) });
    const there = createServerThreadStore({ baseUrl: proxy.url, headers: sessionOf(user) });
    await here.save({ id: 't-kept', agentId: 'approve-agent', messages: [message('m1', 'One')] });
    await here.save({ id: 't-gone', agentId: 'approve-agent', messages: [message('m2', 'Two')] });
    await here.list();
    const changes: ThreadStoreChange[] = [];
    const unsubscribe = here.subscribe?.((change) => changes.push(change));

    await there.save({
      id: 't-kept',
      agentId: 'approve-agent',
      messages: [message('m1', 'One'), message('m3', 'Three')],
    });
    await there.save({ id: 't-new', agentId: 'approve-agent', messages: [message('m4', 'New')] });
    await there.delete('t-gone');
    expect(changes).toEqual([]);

    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(changes).toHaveLength(3));
    expect(changes).toEqual(
      expect.arrayContaining([
        { threadId: 't-kept', revision: 2, external: true },
        { threadId: 't-new', revision: 1, external: true },
        { threadId: 't-gone', revision: undefined, external: true },
      ]),
    );
    unsubscribe?.();
    window.dispatchEvent(new Event('focus'));
    expect(changes).toHaveLength(3);
  });

  it('the run list reads again, and shows a run another device started', async () => {
    const user = 'focus-runs';
    const list = createServerRunList({
      baseUrl: proxy.url,
      headers: sessionOf(user),
      pollIntervalMs: 0,
    });
    const unsubscribe = list.subscribe(() => undefined);
    await waitFor(() => expect(list.getSnapshot().status).toBe('ready'));
    expect(list.getSnapshot().runs).toEqual([]);

    const phone = createAgentClient({
      baseUrl: proxy.url,
      api: 'platform',
      headers: () => sessionOf(user),
    });
    const run = await phone.startDurableRun('approve-agent', {
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'Deploy' }] }],
    });
    window.dispatchEvent(new Event('focus'));
    await waitFor(() =>
      expect(list.getSnapshot().runs.map((item) => item.runId)).toEqual([run.runId]),
    );
    unsubscribe();
  });
});
