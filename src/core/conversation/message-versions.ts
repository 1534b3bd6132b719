import type { ConversationMessage } from '../storage/conversation-message.js';
import type {
  ConversationFork,
  ConversationVersions,
  HiddenConversationMessage,
} from '../storage/thread-versions.js';

/**
 * The version a message begins, as a branch picker shows it: `index` of `count` (from 0), and the
 * first message of each version (`ids`, the oldest first; `showVersion` takes one).
 */
export interface MessageVersion {
  index: number;
  count: number;
  ids: readonly string[];
}

/** A thread as shown (`messages`) and its other versions: what the operations below return. */
export interface VersionedThread {
  messages: readonly ConversationMessage[];
  versions: ConversationVersions;
}

/** The tail `messages[index…]` as hidden messages (the first follows `after`). */
function hide(
  messages: readonly ConversationMessage[],
  index: number,
  after: string | null,
): HiddenConversationMessage[] {
  return messages.slice(index).map((message, offset) => ({
    after: offset === 0 ? after : (messages[index + offset - 1] as ConversationMessage).id,
    message,
  }));
}

const afterOf = (messages: readonly ConversationMessage[], index: number) =>
  index === 0 ? null : (messages[index - 1]?.id ?? null);

/**
 * From `messages[index]` on, the thread shows `tail` (whose first message begins a new version);
 * what it showed there is kept as the version before it. `keptId`: a new id for the message kept
 * (when `tail` begins with a message of the same id, an edit). Pure.
 */
export function branchAt(
  thread: VersionedThread,
  index: number,
  tail: readonly ConversationMessage[],
  keptId?: string,
): VersionedThread {
  let { messages, versions } = thread;
  const first = tail[0];
  const old = messages[index];
  if (first === undefined || old === undefined) {
    return { messages: [...messages.slice(0, index), ...tail], versions };
  }
  if (keptId !== undefined) {
    // The message kept takes the new id, with all that follows it.
    const rename = (id: string | null) => (id === old.id ? keptId : id);
    messages = messages.map((m) => (m === old ? { ...m, id: keptId } : m));
    versions = {
      forks: versions.forks.map((fork) => ({
        ...fork,
        after: rename(fork.after),
        versions: fork.versions.map((id) => rename(id) as string),
        shown: rename(fork.shown) as string,
      })),
      hidden: versions.hidden.map((item) => ({ ...item, after: rename(item.after) })),
    };
  }
  const after = afterOf(messages, index);
  const kept = messages[index] as ConversationMessage;
  const fork = versions.forks.find((item) => item.after === after);
  const next: ConversationFork = {
    after,
    versions: [...(fork?.versions ?? [kept.id]), first.id],
    shown: first.id,
  };
  return {
    messages: [...messages.slice(0, index), ...tail],
    versions: {
      forks: fork === undefined ? [...versions.forks, next] : replace(versions.forks, fork, next),
      hidden: [...versions.hidden, ...hide(messages, index, after)],
    },
  };
}

/**
 * Shows the version that begins with `id` (a message of `versions`' forks, whose fork is on the
 * thread shown), with the later turns it had; the version shown there is kept. `undefined` when
 * no such version is there. Pure.
 */
export function showVersion(thread: VersionedThread, id: string): VersionedThread | undefined {
  const { messages, versions } = thread;
  const fork = versions.forks.find((item) => item.versions.includes(id));
  if (fork === undefined) return undefined;
  const index = fork.after === null ? 0 : messages.findIndex((m) => m.id === fork.after) + 1;
  if (index === 0 && fork.after !== null) return undefined;
  if (messages[index]?.id === id) return thread;
  let hidden = [...versions.hidden, ...hide(messages, index, fork.after)];
  const forks = replace(versions.forks, fork, { ...fork, shown: id });
  const tail: ConversationMessage[] = [];
  // Down the version: at each fork the version it showed, else the one message after.
  for (let next: string | undefined = id; next !== undefined;) {
    const current: string = next;
    const node = hidden.find((item) => item.message.id === current);
    if (node === undefined) break;
    tail.push(node.message);
    hidden = hidden.filter((item) => item !== node);
    next =
      forks.find((item) => item.after === current)?.shown ??
      hidden.find((item) => item.after === current)?.message.id;
  }
  return { messages: [...messages.slice(0, index), ...tail], versions: { forks, hidden } };
}

/** The version each message shown begins (only those at a fork). */
export function versionsShown(thread: VersionedThread): ReadonlyMap<string, MessageVersion> {
  const shown = new Map<string, MessageVersion>();
  for (const fork of thread.versions.forks) {
    const message = thread.messages.find((item) => item.id === fork.shown);
    if (message === undefined) continue;
    const index = fork.versions.indexOf(message.id);
    shown.set(message.id, { index, count: fork.versions.length, ids: fork.versions });
  }
  return shown;
}

function replace<T>(items: readonly T[], old: T, next: T): T[] {
  return items.map((item) => (item === old ? next : item));
}
