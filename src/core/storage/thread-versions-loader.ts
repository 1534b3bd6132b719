import type { ConversationMessage } from './conversation-message.js';
import type { ConversationVersions } from './thread-versions.js';

/**
 * Stored versions checked and copied (see `parseConversationVersions`), by the check loaded on the
 * first thread that has versions: a thread with one version never loads it. `undefined` stays.
 */
export async function checkVersions(
  value: unknown,
  messages: readonly ConversationMessage[],
  copy?: (message: ConversationMessage) => ConversationMessage,
): Promise<ConversationVersions | undefined> {
  if (value === undefined || value === null) return undefined;
  const { parseConversationVersions } = await import('./thread-versions.js');
  return parseConversationVersions(value, messages, copy);
}

/** `thread` with its `versions` checked (dropped when none is left). */
export async function withCheckedVersions<T extends { messages: readonly ConversationMessage[] }>(
  thread: T & { versions?: unknown },
): Promise<T & { versions?: ConversationVersions | undefined }> {
  const { versions, ...rest } = thread;
  const checked = await checkVersions(versions, thread.messages);
  return (checked === undefined ? rest : { ...rest, versions: checked }) as T & {
    versions?: ConversationVersions;
  };
}
