import { useEffect, useMemo, useRef } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import {
  AgentConsoleController,
  type AgentConsoleControllerOptions,
  type AgentConsoleSnapshot,
} from '../core/console/agent-console-controller.js';
import type { AgentError } from '../core/wire/errors.js';
import type { Agent, AgentSchemas } from '../core/wire/schemas.js';
import type { ToolAuthorizationOpening } from '../core/wire/tool-authorization.js';
import { useAgentClient } from './agent-client-provider.js';
import { browserNavigation } from './browser-navigation.js';
import { useAgent, useAgentSchemas } from './use-agent.js';
import {
  isDevelopment,
  warnIgnoredOptions,
  type UseAgentRunStreamOptions,
} from './use-agent-run-stream.js';
import { useStore } from './use-store.js';

/**
 * Options of {@link useAgentConsole}: the controller's (see `AgentConsoleControllerOptions`), with
 * the hook's run options and the browser's way of opening a sign-in page.
 */
export interface UseAgentConsoleOptions extends Omit<
  AgentConsoleControllerOptions,
  'runOptions' | 'navigation'
> {
  /**
   * Options of the console's runs (`reconnect`, `maxEvents`, `throttleMs`, `idleTimeoutMs`,
   * callbacks such as `onDone`, `client`; `stream` to share a form agent's stream). Pushed to the
   * console's own stream on every render; a chat agent's conversation reads them when it is created.
   * The callbacks are read when called.
   * @default {}
   */
  runOptions?: UseAgentRunStreamOptions | undefined;
  /**
   * How the sign-in page of a tool to authorize (after a 422) is opened: `'window'` a new tab or
   * window (`noopener`), `'redirect'` this page goes there, or a function of the app's own given
   * the authorization URL (always http(s): another is refused) and the tool.
   * @default 'window'
   */
  toolAuthorization?: ToolAuthorizationOpening | undefined;
  /**
   * Where the service sends the browser back after the person allowed a tool; it must be on the
   * tenant's allowlist.
   * @default window.location.href (when the person clicks)
   */
  authorizationReturnUrl?: string | undefined;
}

/** What {@link useAgentConsole} returns: the console's state, the agent, and stable actions. */
export interface UseAgentConsoleResult extends AgentConsoleSnapshot {
  /** The agent the console is for. */
  agentId: string | undefined;
  /** The agent record, once loaded. */
  agent: Agent | undefined;
  /** The agent's query (loading, offline, error, `refetch`). */
  agentQuery: UseQueryResult<Agent, AgentError>;
  /** The agent's schemas query (a form agent's fields). */
  schemasQuery: UseQueryResult<AgentSchemas, AgentError>;
  /** Runs a form agent with the form's `input`. Stable identity. */
  start: AgentConsoleController['start'];
  /** Runs again (a form's last request, a chat's last message). Stable identity. */
  retry: AgentConsoleController['retry'];
  /** Clears the run or the thread (not while one runs). Stable identity. */
  clear: AgentConsoleController['clear'];
  /** Stops the run or turn under way. Stable identity. */
  stop: AgentConsoleController['stop'];
  /** Sends a chat message. Stable identity. */
  send: AgentConsoleController['send'];
  /** Edits a USER message and sends again (stopping a turn under way). Stable identity. */
  edit: AgentConsoleController['edit'];
  /** Writes an answer again, keeping the previous one as a version. Stable identity. */
  regenerate: AgentConsoleController['regenerate'];
  /** Shows another version of the thread (`conversation.versions`). Stable identity. */
  showVersion: AgentConsoleController['showVersion'];
  /**
   * Answers the approvals a durable turn waits for (`pendingInteractions`); how it went is
   * `approvalStatus` and `approvalError`. Stable identity.
   */
  respond: AgentConsoleController['respond'];
  /** Shows an answer's run; the same id again shows the latest turn. Stable identity. */
  selectAnswer: AgentConsoleController['selectAnswer'];
  /** Fills the form with a history entry's input. Stable identity. */
  runAgain: AgentConsoleController['runAgain'];
  /** Asks for a tool's sign-in page and opens it; its state is in `toolStates`. Stable identity. */
  authorizeTool: AgentConsoleController['authorizeTool'];
  /** The controller behind the hook. */
  controller: AgentConsoleController;
}

/**
 * The behaviour of `AgentConsole` without its layout: loads the agent and its schemas, picks the
 * mode (`'form'` or `'chat'`) and creates only that mode's engine (a run stream and its run history,
 * or a conversation), and owns the shown run, retry, clear, field errors, tool authorizations and
 * focus intents (`focus`: where the view should move focus, with a version). One POST per run, also
 * under `<StrictMode>`; what runs is stopped on unmount. Needs an `AgentClientProvider` inside a
 * TanStack `QueryClientProvider`; another `agentId` (or `threadId`) starts a new controller.
 *
 * @example
 * function MyConsole({ agentId }: { agentId: string }) {
 *   const console = useAgentConsole(agentId, { toolAuthorization: 'redirect' });
 *   if (console.mode === 'chat') {
 *     return (
 *       <>
 *         <AgentThread messages={console.conversation?.messages ?? []} onRetry={console.retry} />
 *         <AgentThreadComposer status={console.conversation?.status} onSend={console.send} onStop={console.stop} />
 *       </>
 *     );
 *   }
 *   if (console.mode === 'form') {
 *     return (
 *       <AgentInputForm
 *         fields={console.fields}
 *         disabled={console.active}
 *         errors={console.form.errors}
 *         onSubmit={console.start}
 *       />
 *     );
 *   }
 *   return <p>Loading…</p>;
 * }
 */
export function useAgentConsole(
  agentId: string | undefined,
  options: UseAgentConsoleOptions = {},
): UseAgentConsoleResult {
  const client = useAgentClient();
  const agentQuery = useAgent(agentId);
  const schemasQuery = useAgentSchemas(agentId);
  const controllerOptions: AgentConsoleControllerOptions = {
    ...options,
    navigation: browserNavigation,
  };

  // Created during render (it sends nothing until asked), once per agent and thread: another
  // thread is another conversation (the old one is disposed by the effect's cleanup).
  const controllerRef = useRef<AgentConsoleController | undefined>(undefined);
  const threadIdRef = useRef(options.threadId);
  if (
    controllerRef.current?.agentId !== agentId ||
    controllerRef.current === undefined ||
    threadIdRef.current !== options.threadId
  ) {
    controllerRef.current = new AgentConsoleController(client, agentId, controllerOptions);
    threadIdRef.current = options.threadId;
  }
  const controller = controllerRef.current;
  // The mode is known as soon as the data is: its engine exists for this very render.
  controller.setAgent(agentQuery.data, schemasQuery.data);

  useEffect(() => {
    controller.setOptions(controllerOptions);
  });
  const runClient = options.runOptions?.client;
  useEffect(() => {
    controller.setClient(client);
  }, [controller, client, runClient]);

  // As useAgentRunStream: a shared stream keeps its own options, which the developer should know.
  const warnedRef = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    const runOptions = options.runOptions;
    if (runOptions?.stream === undefined || !isDevelopment()) return;
    const ignored: Record<string, unknown> = { ...runOptions };
    for (const name of ['stream', 'onEvent', 'onStatusChange', 'onDone', 'onError']) {
      delete ignored[name];
    }
    warnedRef.current ??= new Set();
    warnIgnoredOptions(ignored, warnedRef.current);
  });

  const snapshot = useStore(controller);
  return useMemo(
    () => ({
      ...snapshot,
      agentId,
      agent: agentQuery.data,
      agentQuery,
      schemasQuery,
      start: controller.start,
      retry: controller.retry,
      clear: controller.clear,
      stop: controller.stop,
      send: controller.send,
      edit: controller.edit,
      regenerate: controller.regenerate,
      showVersion: controller.showVersion,
      respond: controller.respond,
      selectAnswer: controller.selectAnswer,
      runAgain: controller.runAgain,
      authorizeTool: controller.authorizeTool,
      controller,
    }),
    [snapshot, agentId, agentQuery, schemasQuery, controller],
  );
}
