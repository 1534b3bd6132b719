import type { ConversationMessage } from '../storage/conversation-message.js';
import type { ConversationVersions } from '../storage/thread-versions.js';
import type { RunSnapshot } from '../stream/run-types.js';
import type { DurableInteraction } from '../wire/durable-run-schemas.js';
import type { AgentError } from '../wire/errors.js';
import type { ConversationSnapshot } from './conversation-options.js';
import type { ThreadSync } from './thread-sync.js';
import type { TurnSnapshot } from './turn-driver.js';
import { AgentInputError } from '../wire/errors.js';
import type { MessageVersion, VersionedThread } from './message-versions.js';
import { loadedVersionTree, versionTree } from './message-versions-loader.js';
import { editedThread, retriedThread } from './thread-edits.js';

/** A thread with no other version. */
const noVersions: ConversationVersions = Object.freeze({ forks: [], hidden: [] });

const noShown: ReadonlyMap<string, MessageVersion> = new Map();

/** What a turn answers: the thread before its answer, and from where the thread shown was kept. */
export interface TurnThread {
  thread: readonly ConversationMessage[];
  branch?: { index: number; keptId?: string | undefined } | undefined;
}

/**
 * A conversation's thread: the messages shown, the other versions (what edits and regenerates
 * kept), and the runs of this session's answers. Each change replaces the arrays (a snapshot reads
 * them as they are).
 */
export class ConversationThread {
  messages: readonly ConversationMessage[];
  versions: ConversationVersions = noVersions;
  runs: ReadonlyMap<string, RunSnapshot> = new Map();
  #shown: { of: VersionedThread; map: ReadonlyMap<string, MessageVersion> } | undefined;

  constructor(messages: readonly ConversationMessage[]) {
    this.messages = Object.freeze(messages);
  }

  /** The messages shown that begin one of several versions (the same map until they change). */
  get shownVersions(): ReadonlyMap<string, MessageVersion> {
    const { messages, versions } = this;
    // Without the tree (its load failed), the versions are kept but not offered.
    if (versions.forks.length === 0 || loadedVersionTree() === undefined) return noShown;
    if (this.#shown?.of.messages !== messages || this.#shown.of.versions !== versions) {
      const map = versionTree().versionsShown({ messages, versions });
      this.#shown = { of: { messages, versions }, map };
    }
    return this.#shown.map;
  }

  /** The versions a thread store saves (`undefined`: one version). */
  get stored(): ConversationVersions | undefined {
    return this.versions.forks.length === 0 ? undefined : this.versions;
  }

  /** The thread shows `turn.thread` then `answer`; the runs of answers no version keeps go. */
  answer(turn: TurnThread, answer: ConversationMessage): void {
    const { thread, branch } = turn;
    const next =
      branch === undefined
        ? { messages: [...thread, answer], versions: this.versions }
        : versionTree().branchAt(
            this,
            branch.index,
            [...thread.slice(branch.index), answer],
            branch.keptId,
          );
    this.messages = Object.freeze(next.messages);
    this.versions = next.versions;
    const kept = new Set(
      [...next.messages, ...next.versions.hidden.map((item) => item.message)].map((m) => m.id),
    );
    this.runs = new Map([...this.runs].filter(([id]) => kept.has(id)));
  }

  /** The answer `answerId` as `write` makes it. */
  write(answerId: string, write: (message: ConversationMessage) => ConversationMessage): void {
    this.messages = Object.freeze(
      this.messages.map((message) => (message.id === answerId ? write(message) : message)),
    );
  }

  keepRun(answerId: string, run: RunSnapshot): void {
    this.runs = new Map(this.runs).set(answerId, run);
  }

  clear(): void {
    this.set([]);
    this.runs = new Map();
  }

  set(messages: readonly ConversationMessage[], versions: ConversationVersions = noVersions) {
    this.messages = Object.freeze(messages);
    this.versions = versions;
  }

  /** Shows the version that begins with `id`; `false` when it is shown already. */
  show(id: string): boolean {
    const shown =
      this.versions.forks.length === 0 ? undefined : versionTree().showVersion(this, id);
    if (shown === undefined)
      throw new AgentInputError(`No version begins with the message "${id}".`);
    if (shown.messages === this.messages) return false;
    this.set(shown.messages, shown.versions);
    return true;
  }

  /** A retry: the last USER message again (`undefined` without one). */
  retried(): TurnThread | undefined {
    const thread = retriedThread(this.messages);
    return thread && { thread, branch: this.#keeps(thread.length) };
  }

  /** A regenerate of the answer `answerId` (default: the last answer), and its id. */
  regenerated(answerId: string | undefined): TurnThread & { id: string } {
    const { messages } = this;
    const index =
      answerId === undefined
        ? messages.findLastIndex((message) => message.role === 'GLEAN_AI')
        : messages.findIndex((message) => message.id === answerId);
    if (messages[index]?.role !== 'GLEAN_AI' || index < 1) {
      throw new AgentInputError('Only an answer can be written again: nothing was sent.');
    }
    const id = (messages[index] as ConversationMessage).id;
    return { id, thread: messages.slice(0, index), branch: this.#keeps(index) };
  }

  /** An edit of a USER message (it keeps its id; the message kept takes `keptId`). */
  edited(messageId: string, text: string, now: number, keptId: string): TurnThread {
    const thread = editedThread(this.messages, messageId, text, now);
    return { thread, branch: { index: thread.length - 1, keptId } };
  }

  /** The answer at `index` is kept as a version when a new one replaces it, unless it is empty. */
  #keeps(index: number): { index: number } | undefined {
    const answer = this.messages[index];
    return answer === undefined || (answer.text === '' && index === this.messages.length - 1)
      ? undefined
      : { index };
  }
}

const noApprovals: readonly DurableInteraction[] = Object.freeze([]);

/** The conversation's snapshot: its thread, its store's state, and its turns'. */
export function conversationSnapshot(
  thread: ConversationThread,
  sync: ThreadSync | undefined,
  turns: {
    active: boolean;
    /** The turn under way. */
    running: TurnSnapshot | undefined;
    /** The current or last turn. */
    shown: TurnSnapshot | undefined;
    error: AgentError | undefined;
    run: RunSnapshot;
    executionMode: ConversationSnapshot['executionMode'];
  },
): ConversationSnapshot {
  const { running, shown } = turns;
  return {
    messages: thread.messages,
    versions: thread.shownVersions,
    status:
      sync?.loading !== undefined || sync?.pending === true
        ? 'loading'
        : !turns.active
          ? 'idle'
          : (running?.phase ?? 'connecting'),
    error: turns.error,
    run: turns.run,
    runs: thread.runs,
    executionMode: turns.executionMode,
    durableRun: shown?.durableRun,
    pendingInteractions: running?.pendingInteractions ?? noApprovals,
    approvalStatus: running?.approvalStatus ?? 'idle',
    approvalError: running?.approvalError,
    turnStatus: shown?.status ?? 'idle',
    threadId: sync?.threadId,
    threadRevision: sync?.revision ?? 0,
    threadError: sync?.error,
  };
}
