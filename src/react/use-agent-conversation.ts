import { useCallback, useEffect, useRef } from 'react';
import {
  AgentConversation,
  type AgentConversationOptions,
  type ConversationChangeOptions,
  type ConversationSnapshot,
} from '../core/conversation/agent-conversation.js';
import type { AgentClient } from '../core/wire/agent-client.js';
import type { DurableRunDecision } from '../core/wire/durable-run-schemas.js';
import type { RunStreamCallbacks } from '../core/stream/run-stream.js';
import { useOptionalAgentClient } from './agent-client-provider.js';
import { useEngine } from './use-engine.js';

/** Options of {@link useAgentConversation}. */
export interface UseAgentConversationOptions extends Partial<
  Omit<AgentConversationOptions, 'disposeWhenUnobserved'>
> {
  /**
   * The client of the hook's own conversation.
   * @default the client of the nearest AgentClientProvider
   */
  client?: AgentClient;
  /**
   * A conversation to share with other components (e.g. a thread and a composer far apart). The
   * hook then does not own it: unmounting does not stop its turn, and the options except the run
   * callbacks (`onEvent`, `onStatusChange`, `onDone`, `onError`) are the conversation's own.
   * @default undefined (the hook creates, owns and on unmount stops its own conversation)
   */
  conversation?: AgentConversation;
}

/** What {@link useAgentConversation} returns: the snapshot, and stable actions. */
export interface UseAgentConversationResult extends ConversationSnapshot {
  /** Sends a USER message (one POST); throws while a turn runs. Stable identity. */
  send: (text: string) => Promise<ConversationSnapshot>;
  /** Stops the turn; the partial answer stays (durable mode: cancels the run). Stable identity. */
  stop: () => void;
  /** Answers the approvals a durable turn waits for (`pendingInteractions`). Stable identity. */
  respond: (decisions: readonly DurableRunDecision[]) => Promise<ConversationSnapshot>;
  /** Runs the last USER message again (its answer kept as a version). Stable identity. */
  retry: () => Promise<ConversationSnapshot>;
  /**
   * Edits a USER message and sends again; what followed it is kept as the version before
   * (`stopRunning`: a turn under way is stopped first). Stable identity.
   */
  edit: (
    messageId: string,
    text: string,
    options?: ConversationChangeOptions,
  ) => Promise<ConversationSnapshot>;
  /** Writes an answer again (default: the last), keeping the previous one as a version. Stable identity. */
  regenerate: (
    answerId?: string,
    options?: ConversationChangeOptions,
  ) => Promise<ConversationSnapshot>;
  /** Shows another version of the thread (one of `versions`' ids). Stable identity. */
  showVersion: (messageId: string) => ConversationSnapshot;
  /** Stops the turn and empties the thread. Stable identity. */
  clear: () => void;
  /** The conversation behind the hook (pass it to another `useAgentConversation({ conversation })`). */
  conversation: AgentConversation;
}

/**
 * A multi-turn conversation with an agent that takes messages, re-rendered as answers stream in
 * (at most once per animation frame, at once when a turn settles). One POST per `send()`, also
 * under `<StrictMode>`; callbacks are read at call time, so inline functions restart nothing. The
 * hook's own conversation is created on first render (`agentId`, `initialMessages`,
 * `executionMode`, `threadStore`, `threadId` and the run options are read then: give a new `key`
 * to switch threads; a malformed `initialMessages` throws an `AgentInputError` there) and its
 * turn is stopped on unmount.
 *
 * @example
 * function Chat() {
 *   const chat = useAgentConversation({
 *     agentId: 'helpdesk',
 *     initialMessages: saved,
 *     onMessagesChange: (messages) => localStorage.setItem('thread', JSON.stringify(messages)),
 *   });
 *   return (
 *     <>
 *       <AgentThread messages={chat.messages} status={chat.status} onRetry={chat.retry} />
 *       <button onClick={() => void chat.send('Hello')} disabled={chat.status !== 'idle'}>
 *         Send
 *       </button>
 *     </>
 *   );
 * }
 */
export function useAgentConversation(
  options: UseAgentConversationOptions = {},
): UseAgentConversationResult {
  const contextClient = useOptionalAgentClient();
  const client = options.client ?? contextClient;

  // The hook's own conversation is disposed of once nothing reads it (an unmount, after
  // StrictMode's remount had its chance) and resumed when a reader comes again.
  const [snapshot, conversation] = useEngine(
    (engineOptions: AgentConversationOptions) => {
      if (client === undefined) {
        throw new Error(
          'useAgentConversation: no AgentClient. Pass `client` or `conversation`, or wrap this component in <AgentClientProvider client={createAgentClient(…)}>.',
        );
      }
      return new AgentConversation(client, engineOptions);
    },
    ownOptionsOf(options),
    { shared: options.conversation },
  );
  const owned = options.conversation === undefined;

  useEffect(() => {
    if (owned && client !== undefined) conversation.setClient(client);
  }, [owned, client, conversation]);

  // The component's run callbacks, attached while it is mounted, read at call time.
  const callbacksRef = useRef<UseAgentConversationOptions>(options);
  callbacksRef.current = options;
  useEffect(() => {
    const callbacks: RunStreamCallbacks = {
      onEvent: (event) => callbacksRef.current.onEvent?.(event),
      onStatusChange: (status, snapshot) => callbacksRef.current.onStatusChange?.(status, snapshot),
      onDone: (snapshot) => callbacksRef.current.onDone?.(snapshot),
      onError: (error, snapshot) => callbacksRef.current.onError?.(error, snapshot),
    };
    return conversation.stream.observe(callbacks);
  }, [conversation]);

  const send = useCallback((text: string) => conversation.send(text), [conversation]);
  const retry = useCallback(() => conversation.retry(), [conversation]);
  const edit = useCallback(
    (messageId: string, text: string, changeOptions?: ConversationChangeOptions) =>
      conversation.edit(messageId, text, changeOptions),
    [conversation],
  );
  const regenerate = useCallback(
    (answerId?: string, changeOptions?: ConversationChangeOptions) =>
      conversation.regenerate(answerId, changeOptions),
    [conversation],
  );
  const showVersion = useCallback(
    (messageId: string) => conversation.showVersion(messageId),
    [conversation],
  );
  const stop = useCallback(() => conversation.stop(), [conversation]);
  const respond = useCallback(
    (decisions: readonly DurableRunDecision[]) => conversation.respond(decisions),
    [conversation],
  );
  const clear = useCallback(() => conversation.clear(), [conversation]);

  return {
    ...snapshot,
    send,
    stop,
    respond,
    retry,
    edit,
    regenerate,
    showVersion,
    clear,
    conversation,
  };
}

/**
 * The options of the hook's own conversation: all but the hook's own and the run callbacks (those
 * are observed while the component is mounted); `agentId` is required.
 */
function ownOptionsOf(options: UseAgentConversationOptions): AgentConversationOptions {
  const own: UseAgentConversationOptions = { ...options };
  for (const name of notConversationOptions) delete own[name];
  if (options.conversation === undefined && options.agentId === undefined) {
    throw new Error('useAgentConversation: pass `agentId` (or a shared `conversation`).');
  }
  return { ...own, agentId: options.agentId ?? '', disposeWhenUnobserved: true };
}

const notConversationOptions = [
  'client',
  'conversation',
  'onEvent',
  'onStatusChange',
  'onDone',
  'onError',
] as const satisfies readonly (keyof UseAgentConversationOptions)[];
