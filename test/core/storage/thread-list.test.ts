import { describe, expect, it, vi } from 'vitest';
import { createMemoryThreadStore } from 'agent-console-kit';
import { ThreadList } from '../../../src/core/storage/thread-list.js';

const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

function setUp() {
  const threadStore = createMemoryThreadStore();
  const list = vi.spyOn(threadStore, 'list');
  const threads = new ThreadList({ threadStore, agentId: 'chat' });
  const save = (id: string) =>
    threadStore.save({ id, agentId: 'chat', title: id, messages: [] }, { expectedRevision: 0 });
  return { threadStore, list, threads, save };
}

describe('given a thread list', () => {
  it('lists on the first subscriber and follows the store until the last one left', async () => {
    const { list, threads, save } = setUp();
    expect(list).not.toHaveBeenCalled();

    const unsubscribe = threads.subscribe(() => undefined);
    await expect.poll(() => threads.getSnapshot().status).toBe('ready');
    await save('one');
    await expect.poll(() => threads.getSnapshot().threads).toHaveLength(1);

    unsubscribe();
    await microtask();
    const calls = list.mock.calls.length;
    await save('two');
    expect(list.mock.calls.length).toBe(calls);
  });

  it('a subscriber back within the grace (a StrictMode remount) lists once', async () => {
    const { list, threads } = setUp();
    threads.subscribe(() => undefined)();
    threads.subscribe(() => undefined);
    await microtask();
    await expect.poll(() => threads.getSnapshot().status).toBe('ready');
    expect(list).toHaveBeenCalledTimes(1);
  });

  it('create selects the new thread; remove clears the selection', async () => {
    const { threads } = setUp();
    threads.subscribe(() => undefined);
    const id = await threads.create({ title: 'New' });
    expect(threads.getSnapshot().selectedThreadId).toBe(id);
    await expect.poll(() => threads.getSnapshot().threads).toHaveLength(1);
    await threads.remove(id);
    expect(threads.getSnapshot().selectedThreadId).toBeUndefined();
    await expect.poll(() => threads.getSnapshot().threads).toHaveLength(0);
  });
});
