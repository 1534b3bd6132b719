import type { ConversationMessage } from '../storage/conversation-message.js';
import { AgentInputError } from '../wire/errors.js';
import type { AgentMessage } from '../wire/schemas.js';
import type { AgentConversationOptions } from './conversation-options.js';

/** The `messages` of the run that answers the last message of `thread`, in the wire shape. */
export function historyOf(
  thread: readonly ConversationMessage[],
  options: Pick<
    AgentConversationOptions,
    'sendStoppedAnswers' | 'sendFailedAnswers' | 'maxHistoryMessages'
  >,
): AgentMessage[] {
  const { sendStoppedAnswers = true, sendFailedAnswers = false, maxHistoryMessages } = options;
  const sent = thread.filter((message) => {
    if (message.role === 'USER') return true;
    if (message.text === '') return false;
    if (message.status === 'done') return true;
    if (message.status === 'stopped') return sendStoppedAnswers;
    if (message.status === 'error') return sendFailedAnswers;
    return false;
  });
  const limited =
    maxHistoryMessages !== undefined && maxHistoryMessages > 0
      ? sent.slice(-Math.floor(maxHistoryMessages))
      : sent;
  return limited.map((message) => ({
    role: message.role,
    content: [{ type: 'text', text: message.text }],
  }));
}

/** The thread up to its last USER message (what a retry sends again); `undefined` without one. */
export function retriedThread(
  messages: readonly ConversationMessage[],
): readonly ConversationMessage[] | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role === 'USER') return messages.slice(0, index + 1);
  }
  return undefined;
}

/**
 * The thread up to a USER message whose text is replaced (what an edit sends). Throws an
 * `AgentInputError` for an unknown id, an agent message or blank text.
 */
export function editedThread(
  messages: readonly ConversationMessage[],
  messageId: string,
  text: string,
  now: number,
): readonly ConversationMessage[] {
  const index = messages.findIndex((message) => message.id === messageId);
  const message = messages[index];
  if (message === undefined) {
    throw new AgentInputError(`No message has the id "${messageId}": nothing was sent.`);
  }
  if (message.role !== 'USER') {
    throw new AgentInputError('Only a USER message can be edited: nothing was sent.');
  }
  const trimmed = text.trim();
  if (trimmed === '') throw new AgentInputError('The message is empty: nothing was sent.');
  return [...messages.slice(0, index), { ...message, text: trimmed, createdAt: now }];
}
