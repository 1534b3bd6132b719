import {
  parseStoredConversationMessages,
  type ConversationMessage,
} from './conversation-message.js';
import { AgentInputError } from '../wire/errors.js';

/**
 * A place where a thread has more than one version: after the message `after` (`null`: at the
 * thread's start), each version begins with one of `versions` (the oldest first); `shown` is the
 * one the thread shows there (or showed, for a fork inside a version not shown).
 */
export interface ConversationFork {
  after: string | null;
  versions: readonly string[];
  shown: string;
}

/** A message of a version not shown, and the message it follows (`null`: the thread's start). */
export interface HiddenConversationMessage {
  after: string | null;
  message: ConversationMessage;
}

/**
 * The versions of a thread besides the one it shows (`messages`): what an edit or a regenerate
 * kept. Plain JSON, saved with the thread; a thread without it has one version.
 */
export interface ConversationVersions {
  forks: readonly ConversationFork[];
  hidden: readonly HiddenConversationMessage[];
}

const isId = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isAfter = (value: unknown): value is string | null => value === null || isId(value);

/**
 * Checks stored versions (`undefined`: none) against the thread's `messages` and copies their own
 * fields. Throws an `AgentInputError` when malformed; a fork none of whose versions is kept is
 * dropped. Internal: the thread stores read and write them so.
 */
export function parseConversationVersions(
  value: unknown,
  messages: readonly ConversationMessage[],
  copy: (message: ConversationMessage) => ConversationMessage = (message) => message,
): ConversationVersions | undefined {
  if (value === undefined || value === null) return undefined;
  const malformed = (where: string) => new AgentInputError(`versions${where} is malformed.`);
  const { forks, hidden } = value as Partial<Record<string, unknown>>;
  if (!Array.isArray(forks) || !Array.isArray(hidden)) throw malformed('');
  const hiddenMessages = parseStoredConversationMessages(
    hidden.map((entry: unknown, index) => {
      const item = entry as Partial<HiddenConversationMessage> | null;
      if (typeof item !== 'object' || item === null || !isAfter(item.after)) {
        throw malformed(`.hidden[${index}]`);
      }
      return item.message;
    }),
  ).map(copy);
  const ids = new Set(messages.map((message) => message.id));
  const kept: HiddenConversationMessage[] = hiddenMessages.map((message, index) => {
    if (ids.has(message.id)) throw malformed(`.hidden[${index}].message.id`);
    ids.add(message.id);
    return { after: (hidden[index] as HiddenConversationMessage).after, message };
  });
  const keptForks = forks.flatMap((entry: unknown, index): ConversationFork[] => {
    const fork = entry as Partial<ConversationFork> | null;
    if (
      typeof fork !== 'object' ||
      fork === null ||
      !isAfter(fork.after) ||
      !Array.isArray(fork.versions) ||
      !fork.versions.every(isId) ||
      !isId(fork.shown)
    ) {
      throw malformed(`.forks[${index}]`);
    }
    const versions = fork.versions.filter((id) => ids.has(id));
    if (versions.length < 2) return [];
    const shown = versions.includes(fork.shown) ? fork.shown : (versions.at(-1) as string);
    return [{ after: fork.after, versions, shown }];
  });
  return keptForks.length === 0 ? undefined : { forks: keptForks, hidden: kept };
}
