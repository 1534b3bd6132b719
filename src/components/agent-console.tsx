import {
  forwardRef,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ComponentType,
  type ForwardedRef,
  type RefAttributes,
  type ReactNode,
} from 'react';
import { AgentHttpError, AgentInputError } from '../core/errors.js';
import { formFieldsFromSchema, type FormField } from '../core/input-form.js';
import type { RunStartRequest } from '../core/run-stream.js';
import { activeRunStatuses } from '../core/run-types.js';
import type { ConversationMessage } from '../core/agent-conversation.js';
import type { RunSnapshot } from '../core/run-types.js';
import type { Agent } from '../core/schemas.js';
import { useAgentClient } from '../react/agent-client-provider.js';
import { useAgent, useAgentSchemas } from '../react/use-agent.js';
import { useAgentConversation } from '../react/use-agent-conversation.js';
import { useAgentRunHistory } from '../react/use-agent-run-history.js';
import { useAgentRunStream, type UseAgentRunStreamOptions } from '../react/use-agent-run-stream.js';
import { AgentDetails, type AgentDetailsProps } from './agent-details.js';
import {
  AgentErrorMessage,
  type AgentErrorMessageProps,
  type AgentErrorTool,
  type ToolAuthorizationState,
} from './agent-error-message.js';
import { AgentEventLog, type AgentEventLogProps } from './agent-event-log.js';
import { AgentInputForm, type AgentInputFormProps } from './agent-input-form.js';
import { AgentPicker } from './agent-picker.js';
import { AgentRunOutput, type AgentRunOutputProps } from './agent-run-output.js';
import { AgentRunHistory, type AgentRunHistoryProps } from './agent-run-history.js';
import { AgentRunStatus, type AgentRunStatusProps } from './agent-run-status.js';
import { AgentThread, type AgentThreadProps } from './agent-thread.js';
import { AgentThreadComposer, type AgentThreadComposerProps } from './agent-thread-composer.js';
import { ClearIcon, RetryIcon, StopIcon } from './icons.js';
import { classNames, named } from './part-helpers.js';

/**
 * The parts of an {@link AgentConsole}, to hide or replace: leave a key out (or `undefined`) for
 * the default part, set it to `null` to hide the part, or to a component to replace it. A
 * replacement receives the same props as the default part.
 */
export interface AgentConsoleComponents {
  /** The agent's name, description and capabilities. @default AgentDetails */
  Details?: ComponentType<AgentDetailsProps> | null;
  /** The form of an agent started by an input form. @default AgentInputForm */
  InputForm?: ComponentType<AgentInputFormProps> | null;
  /**
   * The composer of an agent that takes messages (under the thread).
   * @default AgentThreadComposer
   */
  Composer?: ComponentType<AgentThreadComposerProps> | null;
  /** The conversation of an agent that takes messages. @default AgentThread */
  Thread?: ComponentType<AgentThreadProps> | null;
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
   * A chat agent's thread to restore (e.g. saved from `onMessagesChange`); read when the console
   * mounts (or its agent changes). A malformed one throws an `AgentInputError`.
   * @default []
   */
  initialMessages?: readonly ConversationMessage[];
  /**
   * Called with a chat agent's thread when a turn settles and when it is cleared.
   * @default undefined
   */
  onMessagesChange?: (messages: readonly ConversationMessage[]) => void;
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
}

/**
 * The whole console for one agent: its details and status badge; for a form agent its input form,
 * the streamed output and the run history; for a chat agent (`capabilities['ap.io.messages']`, or
 * no form fields) the conversation thread and its composer; Stop / Retry / Clear in the action
 * bar, errors a person can act on (tools to authorize included) and, with `showEventLog`, the
 * developer's event log of the run (or of the chosen answer). Without `agentId`, a picker chooses the agent; another agent starts a new
 * conversation. Needs an `AgentClientProvider` inside a TanStack `QueryClientProvider`.
 *
 * Focus: when a form run starts, the disabled form hands focus to Stop; when it ends, focus goes
 * back to the control that started it. The chat composer keeps focus while an answer streams.
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
  runHistoryLimit,
  visibleMessages,
  earlierPageSize,
  theme,
  headingLevel = 2,
  showEventLog = false,
  toolAuthorization = 'window',
  authorizationReturnUrl,
  className,
  ...rest
}: AgentConsoleForAgentProps) {
  const client = useAgentClient();
  // Where each tool's authorization stands, for the error that asked for it: a new run (a new
  // error, or none) starts from nothing, whatever started it.
  const [authorizations, setAuthorizations] = useState<ToolAuthorizations>(noAuthorizations);
  const agentQuery = useAgent(agentId);
  const schemasQuery = useAgentSchemas(agentId);
  const formRun = useAgentRunStream(runOptions);
  const chat = useAgentConversation({
    ...runOptions,
    // Without an agent nothing can be sent: the composer shows only once the agent has loaded.
    agentId: agentId ?? '',
    metadata,
    initialMessages,
    onMessagesChange,
  });
  const history = useAgentRunHistory(formRun.stream, { limit: runHistoryLimit });
  const [selectedAnswerId, setSelectedAnswerId] = useState<string | undefined>(undefined);
  const [resetKey, setResetKey] = useState(0);
  const [formDefaults, setFormDefaults] = useState<Record<string, unknown> | undefined>(undefined);
  const stopRef = useRef<HTMLButtonElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const pickerRef = useRef<HTMLDivElement>(null);

  const agent = agentQuery.data;
  const inputSchema = schemasQuery.data?.input_schema;
  const fields = useMemo(() => formFieldsFromSchema(inputSchema), [inputSchema]);
  const takesMessages = agent?.capabilities?.['ap.io.messages'] === true;
  const mode: 'form' | 'composer' = takesMessages || fields.length === 0 ? 'composer' : 'form';
  // The run shown by the status badge, the error and the event log: a form agent's run, or the
  // chosen answer of a conversation (the latest turn by default).
  const selectedRun: RunSnapshot | undefined =
    selectedAnswerId === undefined ? undefined : chat.runs.get(selectedAnswerId);
  const run: RunSnapshot = mode === 'form' ? formRun : (selectedRun ?? chat.run);
  const active = activeRunStatuses.has(mode === 'form' ? formRun.status : chat.run.status);
  const formErrors = useMemo(() => fieldErrorsOf(formRun.error, fields), [formRun.error, fields]);

  const Details = pick(components.Details, AgentDetails);
  const InputForm = pick(components.InputForm, AgentInputForm);
  const Composer = pick(components.Composer, AgentThreadComposer);
  const Thread = pick(components.Thread, AgentThread);
  const RunHistoryPart = pick(components.RunHistory, AgentRunHistory);
  const Status = pick(components.Status, AgentRunStatus);
  const ErrorPart = pick(components.Error, AgentErrorMessage);
  const Output = pick(components.Output, AgentRunOutput);
  const EventLog = showEventLog ? pick(components.EventLog, AgentEventLog) : null;

  useEffect(() => {
    if (picker?.refocus.current !== true) return;
    picker.refocus.current = false;
    pickerRef.current?.querySelector<HTMLInputElement>('[role="combobox"]')?.focus();
  }, [picker]);

  useEffect(() => {
    if (mode !== 'form') return;
    const focused = document.activeElement;
    const focusLost =
      focused === null || focused === document.body || (focused as HTMLButtonElement).disabled;
    if (active) {
      // The control that started the run is now disabled: Stop is the next useful place.
      if (focusLost && returnFocusRef.current !== null) stopRef.current?.focus();
      return;
    }
    const target = returnFocusRef.current;
    returnFocusRef.current = null;
    if (
      target?.isConnected &&
      !(target as HTMLButtonElement).disabled &&
      (focusLost || focused === stopRef.current)
    ) {
      target.focus();
    }
  }, [active, mode]);

  const pickerPart = picker ? (
    <AgentPicker
      ref={pickerRef}
      className="ack-console__picker"
      value={picker.value}
      defaultInputValue={picker.defaultInputValue || (agentQuery.data?.name ?? '')}
      onChange={picker.onChange}
    />
  ) : null;

  const start = (request: Omit<RunStartRequest, 'agentId'>) => {
    if (agentId === undefined) return;
    const focused = document.activeElement;
    returnFocusRef.current =
      focused instanceof HTMLElement && focused !== document.body ? focused : null;
    void formRun.start({ agentId, ...(metadata ? { metadata } : {}), ...request });
  };
  const retry = () => {
    if (active || formRun.request === undefined) return;
    returnFocusRef.current = null;
    void formRun.start({ ...formRun.request, fields });
  };
  const clear = () => {
    if (mode === 'composer') {
      if (chat.messages.length === 0 && chat.run.status === 'idle') return;
      setSelectedAnswerId(undefined);
      chat.clear();
      return;
    }
    if (active || formRun.status === 'idle') return;
    formRun.reset();
    setFormDefaults(undefined);
    setResetKey((count) => count + 1);
  };
  const { send, retry: retryTurn, edit, stop: stopTurn } = chat;
  const sendTurn = useCallback(
    (text: string) => {
      setSelectedAnswerId(undefined);
      void send(text);
    },
    [send],
  );
  const retryLastTurn = useCallback(() => {
    setSelectedAnswerId(undefined);
    void retryTurn();
  }, [retryTurn]);
  const editTurn = useCallback(
    (messageId: string, text: string) => {
      setSelectedAnswerId(undefined);
      void edit(messageId, text);
    },
    [edit],
  );
  const selectAnswer = useCallback(
    (messageId: string) =>
      setSelectedAnswerId((current) => (current === messageId ? undefined : messageId)),
    [],
  );
  const authorizeTool = async (tool: AgentErrorTool) => {
    const serverId = tool.serverId;
    if (serverId === undefined) return;
    const error = run.error;
    const update = (state: ToolAuthorizationState) =>
      setAuthorizations((previous) => ({
        error,
        states: { ...(previous.error === error ? previous.states : {}), [serverId]: state },
      }));
    update({ status: 'pending' });
    try {
      const url = await client.authorizeToolServer(serverId, {
        returnUrl: authorizationReturnUrl ?? window.location.href,
      });
      if (!/^https?:/i.test(url))
        throw new Error('the service answered an URL that is not http(s).');
      if (typeof toolAuthorization === 'function') toolAuthorization(url, tool);
      else if (toolAuthorization === 'redirect') window.location.assign(url);
      else window.open(url, '_blank', 'noopener,noreferrer');
      update({ status: 'opened' });
    } catch (error) {
      update({
        status: 'failed',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  };

  const canRetry =
    mode === 'form' &&
    !active &&
    formRun.request !== undefined &&
    (formRun.status === 'error' || formRun.status === 'aborted');
  // Clear while an answer streams would throw the answer away mid-sentence: Stop comes first.
  const canClear =
    !active &&
    (mode === 'composer'
      ? chat.messages.length > 0 || chat.run.status !== 'idle'
      : formRun.status !== 'idle');

  const rootProps = {
    ...rest,
    ref: rootRef,
    className: classNames('ack-root', 'ack-console', className),
    'data-theme': theme,
    'data-status': run.status,
    'data-active': active ? '' : undefined,
    'aria-label': rest['aria-label'] ?? (agent ? `Agent console: ${agent.name}` : 'Agent console'),
  };

  if (agentQuery.isPending && agentQuery.fetchStatus !== 'idle') {
    return (
      <section {...rootProps} aria-busy>
        {pickerPart}
        <p role="status" className="ack-console__loading">
          {agentQuery.fetchStatus === 'paused'
            ? 'You are offline: the agent loads when the network is back.'
            : 'Loading the agent…'}
        </p>
      </section>
    );
  }
  if (agentQuery.error) {
    return (
      <section {...rootProps}>
        {pickerPart}
        {ErrorPart ? (
          <ErrorPart
            error={agentQuery.error}
            agentId={agentId}
            onRetry={() => void agentQuery.refetch()}
          />
        ) : null}
      </section>
    );
  }
  if (!agent) {
    return (
      <section {...rootProps}>
        {pickerPart}
        <p className="ack-console__loading">
          {picker ? 'Choose an agent to start.' : 'No agent id given.'}
        </p>
      </section>
    );
  }

  const needsSchemas = !takesMessages;
  const schemasLoading = needsSchemas && schemasQuery.isPending;
  const schemasError = needsSchemas ? schemasQuery.error : null;
  const showError = run.error !== undefined && ErrorPart !== null;
  // A failure is said once, by the alert: no empty output box, no empty log, no status badge. A
  // run stopped before anything arrived shows nothing either (the badge says "Stopped.").
  const endedEarly = run.status === 'error' || run.status === 'aborted';
  const showOutput = mode === 'form' && run.status !== 'idle' && !(endedEarly && run.text === '');
  const showEvents = run.status !== 'idle' && !(endedEarly && run.events.length === 0);
  const toolStates = authorizations.error === run.error ? authorizations.states : {};
  const toolOpened = Object.values(toolStates).some((state) => state.status === 'opened');

  const clearButton = canClear ? (
    <button type="button" className="ack-console__clear" data-variant="quiet" onClick={clear}>
      <ClearIcon />
      Clear
    </button>
  ) : null;
  const formActions = (
    <>
      {active ? (
        <button
          ref={stopRef}
          type="button"
          className="ack-console__stop"
          data-variant="secondary"
          onClick={() => formRun.abort()}
        >
          <StopIcon />
          Stop
        </button>
      ) : null}
      {canRetry ? (
        <button
          type="button"
          className="ack-console__retry"
          data-variant="secondary"
          onClick={retry}
        >
          <RetryIcon />
          Retry
        </button>
      ) : null}
      {clearButton}
    </>
  );

  return (
    <section {...rootProps}>
      {pickerPart}
      <div className="ack-console__header">
        {Details ? (
          <Details agent={agent} headingLevel={headingLevel} className="ack-console__details" />
        ) : null}
        {Status ? (
          <Status
            status={run.status}
            attempt={run.attempt}
            restarts={run.restarts}
            nextAttemptAt={run.nextAttemptAt}
            reconnectReason={run.reconnectReason}
            startedAt={run.startedAt}
            endedAt={run.endedAt}
            className={classNames('ack-console__status', showError && 'ack-visually-hidden')}
          />
        ) : null}
      </div>
      <div className="ack-console__input">
        {schemasLoading ? (
          <p role="status" className="ack-console__loading">
            Loading the agent’s input form…
          </p>
        ) : schemasError ? (
          ErrorPart ? (
            <ErrorPart
              error={schemasError}
              agentId={agentId}
              onRetry={() => void schemasQuery.refetch()}
            />
          ) : null
        ) : mode === 'form' ? (
          InputForm ? (
            <InputForm
              fields={fields}
              disabled={active}
              resetKey={resetKey}
              defaultValues={formDefaults}
              errors={formErrors}
              aria-label={`Input of ${agent.name}`}
              actions={formActions}
              onSubmit={(input) => start({ input, fields })}
            />
          ) : null
        ) : (
          <>
            {Thread ? (
              <Thread
                agentName={agent.name}
                aria-label={`Conversation with ${agent.name}`}
                renderText={renderText}
                visibleMessages={visibleMessages}
                earlierPageSize={earlierPageSize}
                messages={chat.messages}
                status={chat.status}
                reconnectReason={chat.run.reconnectReason}
                nextAttemptAt={chat.run.nextAttemptAt}
                onRetry={retryLastTurn}
                onEdit={editTurn}
                onSelect={EventLog ? selectAnswer : undefined}
                // "Show run" only where the log would have something to show.
                canSelect={(message) => (chat.runs.get(message.id)?.events.length ?? 0) > 0}
                selectedId={selectedAnswerId}
                className="ack-console__thread"
              />
            ) : null}
            {Composer ? (
              <Composer
                status={chat.status}
                aria-label={`Message to ${agent.name}`}
                actions={clearButton}
                onSend={sendTurn}
                onStop={stopTurn}
              />
            ) : null}
          </>
        )}
      </div>
      {run.error && ErrorPart ? (
        <ErrorPart
          error={run.error}
          agentId={agentId}
          fields={fields}
          midRun={run.events.at(-1)?.kind === 'run-failed'}
          onAuthorizeTool={(tool) => void authorizeTool(tool)}
          toolStates={toolStates}
          {...(toolOpened
            ? { onRetry: mode === 'form' ? retry : retryLastTurn, retryLabel: 'Run again' }
            : {})}
        />
      ) : null}
      {(showOutput && Output) || (showEvents && EventLog) ? (
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
              announceStatus={Status === null}
              label={
                selectedRun !== undefined && mode === 'composer'
                  ? 'Run events of the chosen answer'
                  : undefined
              }
              headingLevel={(headingLevel + 1) as 3 | 4 | 5 | 6}
              className="ack-console__events"
            />
          ) : null}
        </div>
      ) : null}
      {mode === 'form' && RunHistoryPart && history.length > 0 ? (
        <RunHistoryPart
          entries={history}
          fields={fields}
          disabled={active}
          headingLevel={(headingLevel + 1) as 3 | 4 | 5 | 6}
          onRunAgain={(entry) => {
            setFormDefaults(entry.input ? formValuesOf(entry.input, fields) : undefined);
            setResetKey((count) => count + 1);
          }}
          className="ack-console__history"
        />
      ) : null}
    </section>
  );
}

/** The tool authorizations the person started, and the error they answer. */
interface ToolAuthorizations {
  error: unknown;
  states: Readonly<Record<string, ToolAuthorizationState>>;
}

const noAuthorizations: ToolAuthorizations = { error: undefined, states: {} };

/** A sent `input` as form values: numbers back to the text a number control holds. */
function formValuesOf(
  input: Record<string, unknown>,
  fields: readonly FormField[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(input, field.name)) continue;
    const value = input[field.name];
    values[field.name] = typeof value === 'number' ? String(value) : value;
  }
  return values;
}

function pick<Props>(
  given: ComponentType<Props> | null | undefined,
  fallback: ComponentType<Props>,
): ComponentType<Props> | null {
  return given === undefined ? fallback : given;
}

/** Messages for form fields from a refused input or a problem detail's `errors[]` (`/input/<name>`). */
function fieldErrorsOf(
  error: unknown,
  fields: readonly FormField[],
): Record<string, string> | undefined {
  if (error instanceof AgentInputError && error.missingFields.length > 0) {
    return Object.fromEntries(error.missingFields.map((name) => [name, 'Fill in this field.']));
  }
  if (error instanceof AgentHttpError && error.fieldErrors.length > 0) {
    const entries = error.fieldErrors.flatMap((fieldError) => {
      const name = fieldError.pointer?.match(/^\/input\/([^/]+)$/)?.[1];
      const field =
        name === undefined ? undefined : fields.find((candidate) => candidate.name === name);
      return field ? [[field.name, fieldError.detail ?? 'The service refused this value.']] : [];
    });
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return undefined;
}
