import {
  forwardRef,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ComponentType,
  type ForwardedRef,
  type RefAttributes,
  type ReactNode,
  type RefObject,
} from 'react';
import type {
  AgentConversationOptions,
  ConversationExecutionMode,
  ConversationMessage,
  ConversationSnapshot,
} from '../core/agent-conversation.js';
import type { ThreadStore } from '../core/thread-store.js';
import type { Agent, AgentTool } from '../core/schemas.js';
import { useAgentConsole, type UseAgentConsoleResult } from '../react/use-agent-console.js';
import type { AgentErrorTool } from '../core/tool-authorization.js';
import type { UseAgentRunStreamOptions } from '../react/use-agent-run-stream.js';
import type { AgentApprovalCardProps } from './agent-approval-card.js';
import { AgentDetails, type AgentDetailsProps } from './agent-details.js';
import { AgentErrorMessage, type AgentErrorMessageProps } from './agent-error-message.js';
import type { AgentEventLogProps } from './agent-event-log.js';
import type { AgentInputFormProps } from './agent-input-form.js';
import { AgentPicker } from './agent-picker.js';
import { AgentRunOutput, type AgentRunOutputProps } from './agent-run-output.js';
import type { AgentRunHistoryProps } from './agent-run-history.js';
import { AgentRunStatus, type AgentRunStatusProps } from './agent-run-status.js';
import { AgentThread, type AgentThreadProps } from './agent-thread.js';
import { AgentThreadComposer, type AgentThreadComposerProps } from './agent-thread-composer.js';
import type { AgentThreadListProps } from './agent-thread-list.js';
import type { AgentToolsProps } from './agent-tools.js';
import { useConfirmedStop } from './agent-cancel-confirm.js';
import { ConsoleApproval } from './console-approval.js';
import { useFocusIntent, usePickerRefocus } from './console-focus.js';
import {
  lazyApprovalCard,
  lazyEventLog,
  lazyInputForm,
  lazyRunHistory,
  lazyThreadList,
  usePreloadedParts,
} from './console-lazy-parts.js';
import { useConsoleToolsSlot } from './console-tools-slot.js';
import { useConsoleThreads } from './console-threads.js';
import { ClearIcon, RetryIcon, StopIcon } from './icons.js';
import { classNames, named } from './part-helpers.js';

/**
 * The parts of an {@link AgentConsole}, to hide or replace: leave a key out (or `undefined`) for
 * the default part, set it to `null` to hide the part, or to a component to replace it. A
 * replacement receives the same props as the default part.
 */
export interface AgentConsoleComponents {
  /**
   * The agent's name, description and capabilities; its `children` are the tools part.
   * @default AgentDetails
   */
  Details?: ComponentType<AgentDetailsProps> | null;
  /**
   * The agent's tools (what it reads, what it can change, what is not set up, what may ask for the
   * person's authorization), in the details; `null` also skips their retrieval.
   * @default AgentTools
   */
  Tools?: ComponentType<AgentToolsProps> | null;
  /** The form of an agent started by an input form. @default AgentInputForm */
  InputForm?: ComponentType<AgentInputFormProps> | null;
  /**
   * The composer of an agent that takes messages (under the thread).
   * @default AgentThreadComposer
   */
  Composer?: ComponentType<AgentThreadComposerProps> | null;
  /** The conversation of an agent that takes messages. @default AgentThread */
  Thread?: ComponentType<AgentThreadProps> | null;
  /**
   * The approvals a chat agent's durable turn waits for (under the thread, above the composer).
   * @default AgentApprovalCard
   */
  ApprovalCard?: ComponentType<AgentApprovalCardProps> | null;
  /**
   * The saved threads of a chat agent, shown when the console has a `threadStore`.
   * @default AgentThreadList
   */
  ThreadList?: ComponentType<AgentThreadListProps> | null;
  /** The runs of a form agent. @default AgentRunHistory */
  RunHistory?: ComponentType<AgentRunHistoryProps> | null;
  /** The status line. @default AgentRunStatus */
  Status?: ComponentType<AgentRunStatusProps> | null;
  /** The explanation of an error. @default AgentErrorMessage */
  Error?: ComponentType<AgentErrorMessageProps> | null;
  /** A form agent's output (a chat agent's answers are in the thread). @default AgentRunOutput */
  Output?: ComponentType<AgentRunOutputProps> | null;
  /**
   * The event log, shown only with `showEventLog` (set it to replace the log shown there).
   * @default AgentEventLog
   */
  EventLog?: ComponentType<AgentEventLogProps> | null;
}

/** Props of {@link AgentConsole}. */
export interface AgentConsoleProps
  extends Omit<ComponentPropsWithoutRef<'section'>, 'children'>, RefAttributes<HTMLElement> {
  /**
   * The agent to show and run. Without it the console offers an {@link AgentPicker} to choose one.
   * @default undefined (the person picks)
   */
  agentId?: string | undefined;
  /**
   * Show the agent picker above the console, so the person can switch agents (the picked agent
   * replaces `agentId`; a run under way is stopped).
   * @default true when `agentId` is undefined, else false
   */
  picker?: boolean;
  /**
   * Renders the agent's text (a form agent's output, a chat agent's answers), e.g. as Markdown:
   * `renderMarkdown` from `agent-console-kit/markdown`.
   * @default undefined (plain text)
   */
  renderText?: (text: string) => ReactNode;
  /**
   * Called with the agent the person picked.
   * @default undefined
   */
  onAgentChange?: (agent: Agent) => void;
  /**
   * Show the developer's event log of the run (every event as it arrived, with its timing) under
   * the output, and a "Show run" on each chat answer to see that answer's events. It is for the
   * people who build and debug an agent: a console shown to end users leaves it off.
   * @default false (no log, no "Show run")
   */
  showEventLog?: boolean;
  /**
   * Parts to hide (`null`) or replace (a component taking the default part's props), e.g.
   * `{ EventLog: null, Output: MyOutput }`.
   * @default {} (every default part)
   */
  components?: AgentConsoleComponents;
  /**
   * Options of the console's run stream (`reconnect`, `maxEvents`, `throttleMs`, `idleTimeoutMs`,
   * callbacks such as `onDone`); read when the console mounts, except the callbacks.
   * @default {}
   */
  runOptions?: UseAgentRunStreamOptions;
  /**
   * `metadata` sent with every run.
   * @default undefined
   */
  metadata?: Record<string, unknown>;
  /**
   * A chat agent's thread to restore (e.g. saved from `onMessagesChange`); read once the chat
   * agent has loaded (again when the agent changes). A malformed one throws an `AgentInputError`
   * then; a form agent's console never reads it.
   * @default []
   */
  initialMessages?: readonly ConversationMessage[];
  /**
   * Called with a chat agent's thread when a turn settles and when it is cleared.
   * @default undefined
   */
  onMessagesChange?: (messages: readonly ConversationMessage[]) => void;
  /**
   * How a chat agent's turns run: `'stream'` (one SSE response) or `'durable'` (a durable run,
   * polled: survives a reload, waits for approvals, Stop cancels it; `api: 'platform'` only). Read
   * once the chat agent has loaded.
   * @default 'stream'
   */
  executionMode?: ConversationExecutionMode;
  /**
   * Where a chat agent's thread is kept (loaded, then saved when a turn settles or a durable turn
   * is accepted). The console then shows its threads beside the conversation (above it in a
   * narrow console): new, switch, rename and delete (`components.ThreadList` replaces or hides it).
   * @default undefined
   */
  threadStore?: ThreadStore;
  /**
   * The thread to show first from `threadStore`, read on mount (the thread list switches threads
   * afterwards).
   * @default a new random id, when there is a `threadStore`
   */
  threadId?: string;
  /**
   * A durable conversation's run store, poll schedule and environment.
   * @default {}
   */
  durableRun?: AgentConversationOptions['durableRun'];
  /**
   * How many of a chat thread's newest messages are shown; "Show 50 earlier messages" reveals the
   * others a page at a time (`visibleMessages` of {@link AgentThread}). `Infinity` shows them all.
   * @default 100
   */
  visibleMessages?: number;
  /**
   * How many earlier messages of the thread each "Show earlier messages" reveals
   * (`earlierPageSize` of {@link AgentThread}).
   * @default 50
   */
  earlierPageSize?: number;
  /**
   * How many runs a form agent's run history keeps (the newest).
   * @default 20
   */
  runHistoryLimit?: number;
  /**
   * Force a color theme on the console (`data-theme`); by default it follows an ancestor's
   * `data-theme`, else `prefers-color-scheme`.
   * @default undefined
   */
  theme?: 'light' | 'dark';
  /**
   * The heading level of the agent's name; the event log's heading is one below.
   * @default 2
   */
  headingLevel?: 2 | 3 | 4 | 5;
  /**
   * How the sign-in page of a tool to authorize (after a 422) is opened: `'window'` a new tab or
   * window (the console stays, and Retry runs again once the person is back), `'redirect'` this
   * page goes there (the service sends it back to `authorizationReturnUrl`), or a function of the
   * app's own (a popup, a router) given the authorization URL and the tool.
   * @default 'window'
   */
  toolAuthorization?:
    'window' | 'redirect' | ((authorizationUrl: string, tool: AgentErrorTool) => void);
  /**
   * Where the service sends the browser back after the person allowed a tool; it must be on the
   * tenant's allowlist.
   * @default window.location.href
   */
  authorizationReturnUrl?: string;
  /**
   * The tool server of each of the agent's tools, so that a tool that may ask for the person's
   * authorization (`OAUTH_USER`) offers Authorize in the tools part before the first question
   * (the flow a run's 422 offers). The service does not say which tool server a tool belongs to:
   * only the app can. Without it such a tool says it may ask for authorization, and the run's 422
   * still offers the button.
   * @default undefined (no Authorize ahead of a run)
   */
  toolServerId?: (tool: AgentTool) => string | undefined;
}

/**
 * The whole console for one agent: its details and status badge; for a form agent its input form,
 * the streamed output and the run history; for a chat agent (`capabilities['ap.io.messages']`, or
 * no form fields) the conversation thread and its composer (and, while a durable turn waits for
 * approval, the approval card between them); Stop / Retry / Clear in the action
 * bar, errors a person can act on (tools to authorize included) and, with `showEventLog`, the
 * developer's event log of the run (or of the chosen answer). Without `agentId`, a picker chooses the agent; another agent starts a new
 * conversation. Needs an `AgentClientProvider` inside a TanStack `QueryClientProvider`.
 *
 * Focus: when a form run starts, the disabled form hands focus to Stop; when it ends, focus goes
 * back to the control that started it. The chat composer keeps focus while an answer streams
 * and when an approval card appears; a card that goes away with focus in it hands focus back to
 * the composer.
 * Choosing another agent in the picker keeps focus in the picker.
 *
 * @example
 * <QueryClientProvider client={queryClient}>
 *   <AgentClientProvider client={agentClient}>
 *     <AgentConsole agentId="my-agent" />
 *   </AgentClientProvider>
 * </QueryClientProvider>
 *
 * @example
 * // For developers: the event log of each run, and a custom output
 * <AgentConsole agentId="my-agent" showEventLog components={{ Output: MarkdownOutput }} />
 */
export const AgentConsole = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentConsoleProps>(AgentConsoleRender),
  'AgentConsole',
);

/** The picker of the console, set up by the outer part (which survives a change of agent). */
interface ConsolePicker {
  value: string | undefined;
  defaultInputValue: string;
  onChange: (agent: Agent) => void;
  /** Set when a choice remounts the console: the new picker takes focus back. */
  refocus: { current: boolean };
}

interface AgentConsoleForAgentProps extends Omit<
  AgentConsoleProps,
  'agentId' | 'picker' | 'onAgentChange' | 'ref'
> {
  agentId: string | undefined;
  picker: ConsolePicker | undefined;
  rootRef: ForwardedRef<HTMLElement>;
}

function AgentConsoleRender(
  { agentId: givenAgentId, picker, onAgentChange, ...rest }: AgentConsoleProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const [picked, setPicked] = useState<Agent | undefined>(undefined);
  const refocus = useRef(false);
  const showPicker = picker ?? givenAgentId === undefined;
  const agentId = (showPicker ? picked?.agent_id : undefined) ?? givenAgentId;
  const pickerSetup: ConsolePicker | undefined = showPicker
    ? {
        value: agentId,
        defaultInputValue: picked?.name ?? '',
        onChange: (agent) => {
          refocus.current = agent.agent_id !== agentId;
          setPicked(agent);
          onAgentChange?.(agent);
        },
        refocus,
      }
    : undefined;
  // A conversation, a run and its tool authorizations belong to one agent: another agent mounts
  // a new console (the old run is aborted on unmount).
  return (
    <AgentConsoleForAgent
      key={agentId ?? ''}
      {...rest}
      agentId={agentId}
      picker={pickerSetup}
      rootRef={ref}
    />
  );
}

function AgentConsoleForAgent({
  agentId,
  picker,
  rootRef,
  renderText,
  components = {},
  runOptions,
  metadata,
  initialMessages,
  onMessagesChange,
  executionMode,
  threadStore,
  threadId,
  durableRun,
  runHistoryLimit,
  visibleMessages,
  earlierPageSize,
  theme,
  headingLevel = 2,
  showEventLog = false,
  toolAuthorization = 'window',
  authorizationReturnUrl,
  toolServerId,
  className,
  ...rest
}: AgentConsoleForAgentProps) {
  const threads = useConsoleThreads(threadStore, agentId, threadId);
  const state = useAgentConsole(agentId, {
    runOptions,
    metadata,
    initialMessages,
    onMessagesChange,
    executionMode,
    threadStore,
    threadId: threads.threadId,
    durableRun,
    runHistoryLimit,
    toolAuthorization,
    authorizationReturnUrl,
  });
  const parts = resolveParts(components, showEventLog);
  // Until its schemas say, an agent that does not take messages may take a form.
  const mayTakeForm = state.agent !== undefined && state.mode !== 'chat';
  // A part the app replaced or hid is not the lazy default: it is never loaded.
  usePreloadedParts({
    eventLog: parts.EventLog === lazyEventLog.Part,
    inputForm: mayTakeForm && parts.InputForm === lazyInputForm.Part,
    runHistory: mayTakeForm && parts.RunHistory === lazyRunHistory.Part,
    approvalCard: executionMode === 'durable' && parts.ApprovalCard === lazyApprovalCard.Part,
    threadList: threadStore !== undefined && parts.ThreadList === lazyThreadList.Part,
  });
  const tools = useConsoleToolsSlot({
    agentId,
    Tools: components.Tools,
    inputAsked: state.agent !== undefined && !state.schemasQuery.isPending,
    toolServerId,
    toolAuthorization,
    authorizationReturnUrl,
    headingLevel: (headingLevel + 1) as 3 | 4 | 5 | 6,
  });
  const stopRef = useRef<HTMLButtonElement>(null);
  const pickerRef = useRef<HTMLDivElement>(null);
  const rememberOrigin = useFocusIntent(state.focus, stopRef);
  const stopControl = useConfirmedStop(state.conversation, state.stop);
  usePickerRefocus(picker?.refocus, pickerRef);
  const { agent, agentQuery, run } = state;

  const rootProps = {
    ...rest,
    ref: rootRef,
    className: classNames('ack-root', 'ack-console', className),
    'data-theme': theme,
    'data-status': run.status,
    'data-active': state.active ? '' : undefined,
    'aria-label': rest['aria-label'] ?? (agent ? `Agent console: ${agent.name}` : 'Agent console'),
  };
  const pickerPart = picker ? (
    <AgentPicker
      ref={pickerRef}
      className="ack-console__picker"
      value={picker.value}
      defaultInputValue={picker.defaultInputValue || (agentQuery.data?.name ?? '')}
      onChange={picker.onChange}
    />
  ) : null;

  if (!agent || agentQuery.error) {
    const loading = agentQuery.isPending && agentQuery.fetchStatus !== 'idle';
    return (
      <section {...rootProps} aria-busy={loading || undefined}>
        {pickerPart}
        {renderWithoutAgent(state, agentId, picker !== undefined, parts.Error)}
      </section>
    );
  }

  const view: ConsoleView = {
    state,
    agent,
    agentId,
    parts,
    renderText,
    visibleMessages,
    earlierPageSize,
    headingLevel,
    stopRef,
    threadList: threads.list,
    tools,
    stopControl,
    start: (input) => {
      rememberOrigin();
      void state.start(input);
    },
  };
  return (
    <section {...rootProps}>
      {pickerPart}
      {renderHeader(view)}
      <div
        className="ack-console__input"
        data-threads={state.mode === 'chat' && threads.list && parts.ThreadList ? '' : undefined}
      >
        {renderInput(view)}
      </div>
      {renderRunError(view)}
      {renderResults(view)}
      {state.mode === 'form' && parts.RunHistory && state.history.length > 0 ? (
        <parts.RunHistory
          entries={state.history}
          fields={state.fields}
          disabled={state.active}
          headingLevel={(headingLevel + 1) as 3 | 4 | 5 | 6}
          onRunAgain={state.runAgain}
          className="ack-console__history"
        />
      ) : null}
    </section>
  );
}

/**
 * Where a durable turn stands, for the header (a durable turn has no stream run, whose status would
 * say "Ready." while the answer is written or waits for approval); undefined otherwise.
 */
function durableTurnStatus(
  conversation: ConversationSnapshot | undefined,
): AgentRunStatusProps['status'] | undefined {
  if (conversation?.executionMode !== 'durable') return undefined;
  const { status } = conversation;
  return status === 'idle' || status === 'loading' ? undefined : status;
}

/** What the console shows until it has its agent: loading, the load's error, or why there is none. */
function renderWithoutAgent(
  state: UseAgentConsoleResult,
  agentId: string | undefined,
  hasPicker: boolean,
  ErrorPart: ConsoleParts['Error'],
): ReactNode {
  const { agentQuery } = state;
  if (agentQuery.isPending && agentQuery.fetchStatus !== 'idle') {
    return (
      <p role="status" className="ack-console__loading">
        {agentQuery.fetchStatus === 'paused'
          ? 'You are offline: the agent loads when the network is back.'
          : 'Loading the agent…'}
      </p>
    );
  }
  if (agentQuery.error) {
    return ErrorPart ? (
      <ErrorPart
        error={agentQuery.error}
        agentId={agentId}
        onRetry={() => void agentQuery.refetch()}
      />
    ) : null;
  }
  return (
    <p className="ack-console__loading">
      {hasPicker ? 'Choose an agent to start.' : 'No agent id given.'}
    </p>
  );
}

/** The parts of the console as rendered: a component, or `null` for a hidden one. */
interface ConsoleParts {
  Details: ComponentType<AgentDetailsProps> | null;
  InputForm: ComponentType<AgentInputFormProps> | null;
  Composer: ComponentType<AgentThreadComposerProps> | null;
  Thread: ComponentType<AgentThreadProps> | null;
  ApprovalCard: ComponentType<AgentApprovalCardProps> | null;
  ThreadList: ComponentType<AgentThreadListProps> | null;
  RunHistory: ComponentType<AgentRunHistoryProps> | null;
  Status: ComponentType<AgentRunStatusProps> | null;
  Error: ComponentType<AgentErrorMessageProps> | null;
  Output: ComponentType<AgentRunOutputProps> | null;
  EventLog: ComponentType<AgentEventLogProps> | null;
}

function resolveParts(components: AgentConsoleComponents, showEventLog: boolean): ConsoleParts {
  return {
    Details: resolveSlot(components.Details, AgentDetails),
    InputForm: resolveSlot(components.InputForm, lazyInputForm.Part),
    Composer: resolveSlot(components.Composer, AgentThreadComposer),
    Thread: resolveSlot(components.Thread, AgentThread),
    ApprovalCard: resolveSlot(components.ApprovalCard, lazyApprovalCard.Part),
    ThreadList: resolveSlot(components.ThreadList, lazyThreadList.Part),
    RunHistory: resolveSlot(components.RunHistory, lazyRunHistory.Part),
    Status: resolveSlot(components.Status, AgentRunStatus),
    Error: resolveSlot(components.Error, AgentErrorMessage),
    Output: resolveSlot(components.Output, AgentRunOutput),
    EventLog: showEventLog ? resolveSlot(components.EventLog, lazyEventLog.Part) : null,
  };
}

function resolveSlot<Props>(
  given: ComponentType<Props> | null | undefined,
  fallback: ComponentType<Props>,
): ComponentType<Props> | null {
  return given === undefined ? fallback : given;
}

/** What the layout's pieces read, for one agent that has loaded. */
interface ConsoleView {
  state: UseAgentConsoleResult;
  agent: Agent;
  agentId: string | undefined;
  parts: ConsoleParts;
  renderText: ((text: string) => ReactNode) | undefined;
  visibleMessages: number | undefined;
  earlierPageSize: number | undefined;
  headingLevel: 2 | 3 | 4 | 5;
  stopRef: RefObject<HTMLButtonElement | null>;
  /** The thread list's props, with a `threadStore`. */
  threadList: AgentThreadListProps | undefined;
  /** The tools part, unless hidden. */
  tools: ReactNode;
  /** Stop of the composer: a durable turn asks first (`confirm`). */
  stopControl: { onStop: () => void; confirm: ReactNode };
  start: (input: Record<string, unknown>) => void;
}

/** The agent's details and the status badge (hidden visually while the alert says it). */
function renderHeader(view: ConsoleView): ReactNode {
  const { state, agent, parts, headingLevel } = view;
  const { run } = state;
  const showsError = run.error !== undefined && parts.Error !== null;
  return (
    <div className="ack-console__header">
      {parts.Details ? (
        <parts.Details agent={agent} headingLevel={headingLevel} className="ack-console__details">
          {view.tools}
        </parts.Details>
      ) : (
        view.tools
      )}
      {parts.Status ? (
        <parts.Status
          status={durableTurnStatus(state.conversation) ?? run.status}
          attempt={run.attempt}
          restarts={run.restarts}
          nextAttemptAt={run.nextAttemptAt}
          reconnectReason={run.reconnectReason}
          startedAt={run.startedAt}
          endedAt={run.endedAt}
          className={classNames('ack-console__status', showsError && 'ack-visually-hidden')}
        />
      ) : null}
    </div>
  );
}

/** The error of the shown run, with its tools to authorize and, once one opened, Run again. */
function renderRunError({ state, agentId, parts }: ConsoleView): ReactNode {
  const { run } = state;
  if (!run.error || !parts.Error) return null;
  return (
    <parts.Error
      error={run.error}
      agentId={agentId}
      fields={state.fields}
      midRun={run.events.at(-1)?.kind === 'run-failed'}
      onAuthorizeTool={(tool: AgentErrorTool) => void state.authorizeTool(tool)}
      toolStates={state.toolStates}
      {...(state.toolOpened ? { onRetry: state.retry, retryLabel: 'Run again' } : {})}
    />
  );
}

/** The input: the schemas loading or failing, a form agent's form, or a chat's thread and composer. */
function renderInput(view: ConsoleView): ReactNode {
  const { state, agent, agentId, parts } = view;
  const { schemasQuery } = state;
  const needsSchemas = agent.capabilities?.['ap.io.messages'] !== true;
  const schemasError = needsSchemas ? schemasQuery.error : null;
  if (needsSchemas && schemasQuery.isPending) {
    return (
      <p role="status" className="ack-console__loading">
        Loading the agent’s input form…
      </p>
    );
  }
  if (schemasError) {
    return parts.Error ? (
      <parts.Error
        error={schemasError}
        agentId={agentId}
        onRetry={() => void schemasQuery.refetch()}
      />
    ) : null;
  }
  if (state.mode === 'form') {
    return parts.InputForm ? (
      <parts.InputForm
        fields={state.fields}
        disabled={state.active}
        resetKey={state.form.resetKey}
        defaultValues={state.form.defaultValues}
        errors={state.form.errors}
        aria-label={`Input of ${agent.name}`}
        actions={renderFormActions(view)}
        onSubmit={view.start}
      />
    ) : null;
  }
  const chat = state.conversation;
  if (chat === undefined) return null;
  return (
    <>
      {view.threadList && parts.ThreadList ? (
        <parts.ThreadList
          {...view.threadList}
          aria-label={`Threads with ${agent.name}`}
          headingLevel={(view.headingLevel + 1) as 3 | 4 | 5 | 6}
          className="ack-console__threads"
        />
      ) : null}
      {parts.Thread ? (
        <parts.Thread
          agentName={agent.name}
          aria-label={`Conversation with ${agent.name}`}
          renderText={view.renderText}
          visibleMessages={view.visibleMessages}
          earlierPageSize={view.earlierPageSize}
          messages={chat.messages}
          status={chat.status}
          reconnectReason={chat.run.reconnectReason}
          nextAttemptAt={chat.run.nextAttemptAt}
          onRetry={state.retry}
          onEdit={state.edit}
          onSelect={parts.EventLog ? state.selectAnswer : undefined}
          // "Show run" only where the log would have something to show.
          canSelect={(message) => (chat.runs.get(message.id)?.events.length ?? 0) > 0}
          selectedId={state.selectedAnswerId}
          className="ack-console__thread"
        />
      ) : null}
      <ConsoleApproval
        waiting={chat.status === 'waiting'}
        ApprovalCard={parts.ApprovalCard}
        interactions={state.pendingApprovals}
        status={state.approvalStatus}
        error={state.approvalError}
        onSubmit={(decisions) => void state.respond(decisions)}
      />
      {parts.Composer ? (
        <parts.Composer
          status={chat.status}
          aria-label={`Message to ${agent.name}`}
          actions={renderClearButton(view)}
          onSend={state.send}
          onStop={view.stopControl.onStop}
        />
      ) : null}
      {view.stopControl.confirm}
    </>
  );
}

function renderClearButton({ state }: ConsoleView): ReactNode {
  return state.canClear ? (
    <button type="button" className="ack-console__clear" data-variant="quiet" onClick={state.clear}>
      <ClearIcon />
      Clear
    </button>
  ) : null;
}

/** Stop, Retry and Clear of a form agent, in the form's action bar. */
function renderFormActions(view: ConsoleView): ReactNode {
  const { state } = view;
  return (
    <>
      {state.active ? (
        <button
          ref={view.stopRef}
          type="button"
          className="ack-console__stop"
          data-variant="secondary"
          onClick={state.stop}
        >
          <StopIcon />
          Stop
        </button>
      ) : null}
      {state.canRetry ? (
        <button
          type="button"
          className="ack-console__retry"
          data-variant="secondary"
          onClick={state.retry}
        >
          <RetryIcon />
          Retry
        </button>
      ) : null}
      {renderClearButton(view)}
    </>
  );
}

/** A form agent's output and the event log of the shown run. */
function renderResults({ state, parts, renderText, headingLevel }: ConsoleView): ReactNode {
  const { run } = state;
  const { Output, EventLog } = parts;
  // A failure is said once, by the alert: no empty output box, no empty log, no status badge. A
  // run stopped before anything arrived shows nothing either (the badge says "Stopped.").
  const endedEarly = run.status === 'error' || run.status === 'aborted';
  const showOutput =
    state.mode === 'form' && run.status !== 'idle' && !(endedEarly && run.text === '');
  const showEvents = run.status !== 'idle' && !(endedEarly && run.events.length === 0);
  if (!((showOutput && Output) || (showEvents && EventLog))) return null;
  return (
    <div className="ack-console__results">
      {showOutput && Output ? (
        <Output
          text={run.text}
          status={run.status}
          renderText={renderText}
          className="ack-console__output"
        />
      ) : null}
      {showEvents && EventLog ? (
        <EventLog
          events={run.events}
          droppedEvents={run.droppedEvents}
          duplicateEvents={run.duplicateEvents}
          status={run.status}
          startedAt={run.startedAt}
          announceStatus={parts.Status === null}
          label={
            state.showsSelectedAnswer && state.mode === 'chat'
              ? 'Run events of the chosen answer'
              : undefined
          }
          headingLevel={(headingLevel + 1) as 3 | 4 | 5 | 6}
          className="ack-console__events"
        />
      ) : null}
    </div>
  );
}
