import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from 'agent-console-kit';
import {
  branchAt,
  showVersion,
  versionsShown,
  type VersionedThread,
} from '../../../src/core/conversation/message-versions.js';
import { parseConversationVersions } from '../../../src/core/storage/thread-versions.js';

const noVersions = { forks: [], hidden: [] };

const message = (id: string, role: 'USER' | 'GLEAN_AI' = 'USER'): ConversationMessage => ({
  id,
  role,
  text: id,
  status: 'done',
  createdAt: 1,
});
const ids = (thread: VersionedThread) => thread.messages.map((item) => item.id);

/** u1 a1 u2 a2 u3 a3 */
const three: VersionedThread = {
  messages: ['u1', 'a1', 'u2', 'a2', 'u3', 'a3'].map((id) =>
    message(id, id.startsWith('u') ? 'USER' : 'GLEAN_AI'),
  ),
  versions: noVersions,
};

describe('given a thread of three turns', () => {
  it('an edit of the second question keeps it and the turns after it as version 1', () => {
    const edited = branchAt(
      three,
      2,
      [{ ...message('u2'), text: 'u2 better' }, message('b2', 'GLEAN_AI')],
      'k2',
    );

    expect(ids(edited)).toEqual(['u1', 'a1', 'u2', 'b2']);
    expect(versionsShown(edited).get('u2')).toEqual({ index: 1, count: 2, ids: ['k2', 'u2'] });
    const back = showVersion(edited, 'k2');
    expect(back && ids(back)).toEqual(['u1', 'a1', 'k2', 'a2', 'u3', 'a3']);
    expect(back?.messages[2]?.text).toBe('u2');
    expect(back && versionsShown(back).get('k2')).toEqual({
      index: 0,
      count: 2,
      ids: ['k2', 'u2'],
    });
    // And forth again: version 2 with its own answer.
    const forth = back && showVersion(back, 'u2');
    expect(forth && ids(forth)).toEqual(['u1', 'a1', 'u2', 'b2']);
    expect(forth?.messages[2]?.text).toBe('u2 better');
    expect(showVersion(edited, 'a3')).toBeUndefined();
  });

  it('a regenerate inside a version is remembered when that version is shown again', () => {
    const regenerated = branchAt(three, 3, [message('r2', 'GLEAN_AI')]);
    expect(ids(regenerated)).toEqual(['u1', 'a1', 'u2', 'r2']);
    const edited = branchAt(regenerated, 0, [message('u1'), message('b1', 'GLEAN_AI')], 'k1');
    expect(ids(edited)).toEqual(['u1', 'b1']);
    expect(versionsShown(edited).get('u1')).toMatchObject({ index: 1, count: 2 });

    const first = showVersion(edited, 'k1');
    expect(first && ids(first)).toEqual(['k1', 'a1', 'u2', 'r2']);
    const older = first && showVersion(first, 'a2');
    expect(older && ids(older)).toEqual(['k1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    expect(older && [...versionsShown(older).keys()]).toEqual(['a2', 'k1']);
  });

  it('a third version joins the same fork, and the stored form survives a JSON round trip and a check', () => {
    const two = branchAt(three, 2, [message('u2'), message('b2', 'GLEAN_AI')], 'k2');
    const threeVersions = branchAt(two, 2, [message('u2'), message('c2', 'GLEAN_AI')], 'k3');
    expect(versionsShown(threeVersions).get('u2')).toEqual({
      index: 2,
      count: 3,
      ids: ['k2', 'k3', 'u2'],
    });
    const stored: unknown = JSON.parse(JSON.stringify(threeVersions.versions));
    const parsed = parseConversationVersions(stored, threeVersions.messages);
    expect(parsed).toEqual(threeVersions.versions);
    const middle =
      parsed && showVersion({ messages: threeVersions.messages, versions: parsed }, 'k3');
    expect(middle && ids(middle)).toEqual(['u1', 'a1', 'k3', 'b2']);
  });
});

describe('parseConversationVersions', () => {
  it('takes no versions, refuses a malformed shape or an id used twice, drops a fork left with one version', () => {
    expect(parseConversationVersions(undefined, three.messages)).toBeUndefined();
    expect(() => parseConversationVersions({ forks: 1, hidden: [] }, three.messages)).toThrow(
      /versions is malformed/,
    );
    expect(() =>
      parseConversationVersions(
        { forks: [], hidden: [{ after: null, message: message('u1') }] },
        three.messages,
      ),
    ).toThrow(/hidden\[0\]\.message\.id/);
    expect(
      parseConversationVersions(
        { forks: [{ after: null, versions: ['gone', 'u1'], shown: 'u1' }], hidden: [] },
        three.messages,
      ),
    ).toBeUndefined();
  });
});
