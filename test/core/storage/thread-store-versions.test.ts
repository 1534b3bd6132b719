/**
 * A thread's versions in the browser's thread stores: saved and loaded with it, checked, copied
 * field by field; a thread saved before versions existed (the fixture) still loads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentInputError,
  createThreadStore,
  createMemoryThreadStore,
  type ConversationMessage,
} from 'agent-console-kit';
import type { ConversationVersions } from '../../../src/core/storage/thread-versions.js';
import before from '../../fixtures/thread-before-versions.json';

const message = (id: string, role: 'USER' | 'GLEAN_AI', text: string): ConversationMessage => ({
  id,
  role,
  text,
  status: 'done',
  createdAt: 1,
});
const shown = [message('m1', 'USER', 'Where is it?'), message('m3', 'GLEAN_AI', 'On its way.')];
const versions: ConversationVersions = {
  forks: [{ after: 'm1', versions: ['m2', 'm3'], shown: 'm3' }],
  hidden: [{ after: 'm1', message: message('m2', 'GLEAN_AI', 'Shipped yesterday.') }],
};

afterEach(() => localStorage.clear());

describe('given a thread saved before versions (no versions field) in localStorage', () => {
  it('loads as a thread with one version, and is saved again as it was', async () => {
    localStorage.setItem('agent-console-kit:v1:default:thread:t-old', JSON.stringify(before));
    localStorage.setItem('agent-console-kit:v1:default:threads', JSON.stringify(['t-old']));
    const store = createThreadStore();

    const loaded = await store.load('t-old');

    expect(loaded).toEqual(before);
    expect(loaded && 'versions' in loaded).toBe(false);
    await store.save({ id: 't-old', agentId: 'chat', messages: loaded?.messages ?? [] });
    const raw = JSON.parse(localStorage.getItem('agent-console-kit:v1:default:thread:t-old') ?? '');
    expect(raw).not.toHaveProperty('versions');
  });
});

describe.each([
  ['localStorage', () => createThreadStore()],
  ['memory', () => createMemoryThreadStore()],
])('given the %s thread store', (_name, make) => {
  it('keeps the versions of a thread, each hidden message with its own fields only', async () => {
    const store = make();
    const riding = {
      ...versions,
      hidden: [
        { ...versions.hidden[0]!, message: { ...versions.hidden[0]!.message, headers: 'x' } },
      ],
    };
    await store.save({ id: 't1', agentId: 'chat', messages: shown, versions: riding });

    const loaded = await store.load('t1');

    expect(loaded?.versions).toEqual(versions);
    expect(loaded?.messages).toEqual(shown);
  });

  it('refuses malformed versions with an AgentInputError and writes nothing', async () => {
    const store = make();
    const malformed = { forks: [{ after: 'm1', versions: 'm2', shown: 'm3' }], hidden: [] };
    await expect(
      store.save({ id: 't1', agentId: 'chat', messages: shown, versions: malformed as never }),
    ).rejects.toThrow(AgentInputError);
    expect(await store.load('t1')).toBeUndefined();
  });
});
