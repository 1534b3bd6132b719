import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ComponentType,
} from 'react';
import { AgentHttpError, AgentInputError } from '../core/errors.js';
import { formFieldsFromSchema, type FormField } from '../core/input-form.js';
import type { RunStartRequest } from '../core/run-stream.js';
import { activeRunStatuses } from '../core/run-types.js';
import type { ConversationMessage } from '../core/agent-conversation.js';
import type { RunSnapshot } from '../core/run-types.js';
import { useAgent, useAgentSchemas } from '../react/use-agent.js';
import { useAgentConversation } from '../react/use-agent-conversation.js';
import { useAgentRunHistory } from '../react/use-agent-run-history.js';
import { useAgentRunStream, type UseAgentRunStreamOptions } from '../react/use-agent-run-stream.js';
import { AgentDetails, type AgentDetailsProps } from './agent-details.js';
import { AgentErrorMessage, type AgentErrorMessageProps } from './agent-error-message.js';
import { AgentEventLog, type AgentEventLogProps } from './agent-event-log.js';
import { AgentInputForm, type AgentInputFormProps } from './agent-input-form.js';
import { AgentRunOutput, type AgentRunOutputProps } from './agent-run-output.js';
import { AgentRunHistory, type AgentRunHistoryProps } from './agent-run-history.js';
import { AgentRunStatus, type AgentRunStatusProps } from './agent-run-status.js';
import { AgentThread, type AgentThreadProps } from './agent-thread.js';
import { AgentThreadComposer, type AgentThreadComposerProps } from './agent-thread-composer.js';
import { classNames } from './part-helpers.js';

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
  /** The agent's output (a form agent's: a chat agent's answers are in the thread). @default AgentRunOutput */
  Output?: ComponentType<AgentRunOutputProps> | null;
  /** The event log. @default AgentEventLog */
  EventLog?: ComponentType<AgentEventLogProps> | null;
}

/** Props of {@link AgentConsole}. */
export interface AgentConsoleProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** The agent to show and run. */
  agentId: string;
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
   * mounts (or its `agentId` changes). A malformed one throws an `AgentInputError`.
   * @default []
   */
  initialMessages?: readonly ConversationMessage[];
  /**
   * Called with a chat agent's thread when a turn settles and when it is cleared.
   * @default undefined
   */
  onMessagesChange?: (messages: readonly ConversationMessage[]) => void;
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
}

/**
 * The whole console for one agent: its details, its input form or a message composer (for agents
 * with `capabilities['ap.io.messages']` or no form fields), Stop / Retry / Clear buttons, a status
 * line (a polite live region), errors a person can act on, the streamed output and the event log.
 * Needs an `AgentClientProvider` inside a TanStack `QueryClientProvider`.
 *
 * Focus: when a run starts, the disabled form hands focus to Stop; when it ends, focus goes back to
 * the control that started it. Nothing else moves focus.
 *
 * @example
 * <QueryClientProvider client={queryClient}>
 *   <AgentClientProvider client={agentClient}>
 *     <AgentConsole agentId="my-agent" />
 *   </AgentClientProvider>
 * </QueryClientProvider>
 *
 * @example
 * // No event log, a custom output
 * <AgentConsole agentId="my-agent" components={{ EventLog: null, Output: MarkdownOutput }} />
 */
export function AgentConsole(props: AgentConsoleProps) {
  // A chat agent's conversation is made for one agent: another agent starts a new console.
  return <AgentConsoleForAgent key={props.agentId} {...props} />;
}

function AgentConsoleForAgent({
  agentId,
  components = {},
  runOptions,
  metadata,
  initialMessages,
  onMessagesChange,
  runHistoryLimit,
  theme,
  headingLevel = 2,
  className,
  ...rest
}: AgentConsoleProps) {
  const agentQuery = useAgent(agentId);
  const schemasQuery = useAgentSchemas(agentId);
  const formRun = useAgentRunStream(runOptions);
  const chat = useAgentConversation({
    ...runOptions,
    ...(runOptions?.client ? { client: runOptions.client } : {}),
    agentId,
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

  const agent = agentQuery.data;
  const inputSchema = schemasQuery.data?.input_schema;
  const fields = useMemo(() => formFieldsFromSchema(inputSchema), [inputSchema]);
  const takesMessages = agent?.capabilities?.['ap.io.messages'] === true;
  const mode: 'form' | 'composer' = takesMessages || fields.length === 0 ? 'composer' : 'form';
  // The run shown by the status line, the error and the event log: a form agent's run, or the
  // chosen turn of a conversation (the last by default).
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
  const EventLog = pick(components.EventLog, AgentEventLog);

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

  const start = (request: Omit<RunStartRequest, 'agentId'>) => {
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
  const canRetry =
    !active &&
    formRun.request !== undefined &&
    (formRun.status === 'error' || formRun.status === 'aborted');
  const canClear =
    mode === 'composer'
      ? chat.messages.length > 0 || chat.run.status !== 'idle'
      : !active && formRun.status !== 'idle';

  const rootProps = {
    ...rest,
    className: classNames('ack-console', className),
    'data-theme': theme,
    'data-status': run.status,
    'aria-label': rest['aria-label'] ?? (agent ? `Agent console: ${agent.name}` : 'Agent console'),
  };

  if (agentQuery.isPending && agentQuery.fetchStatus !== 'idle') {
    return (
      <section {...rootProps} aria-busy>
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
        <p className="ack-console__loading">No agent id given.</p>
      </section>
    );
  }

  const needsSchemas = !takesMessages;
  const schemasLoading = needsSchemas && schemasQuery.isPending;
  const schemasError = needsSchemas ? schemasQuery.error : null;

  return (
    <section {...rootProps}>
      {Details ? (
        <Details agent={agent} headingLevel={headingLevel} className="ack-console__details" />
      ) : null}
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
              onSubmit={(input) => start({ input, fields })}
            />
          ) : null
        ) : (
          <>
            {Thread ? (
              <Thread
                agentName={agent.name}
                aria-label={`Conversation with ${agent.name}`}
                messages={chat.messages}
                status={chat.status}
                reconnectReason={chat.run.reconnectReason}
                nextAttemptAt={chat.run.nextAttemptAt}
                onRetry={retryLastTurn}
                onEdit={editTurn}
                onSelect={EventLog ? selectAnswer : undefined}
                canSelect={(message) => chat.runs.has(message.id)}
                selectedId={selectedAnswerId}
                className="ack-console__thread"
              />
            ) : null}
            {Composer ? (
              <Composer
                status={chat.status}
                aria-label={`Message to ${agent.name}`}
                onSend={sendTurn}
                onStop={stopTurn}
              />
            ) : null}
          </>
        )}
      </div>
      <div role="group" aria-label="Run controls" className="ack-console__controls">
        {mode === 'form' ? (
          <>
            <button
              ref={stopRef}
              type="button"
              className="ack-console__stop"
              aria-disabled={!active}
              onClick={() => {
                if (active) formRun.abort();
              }}
            >
              Stop
            </button>
            <button
              type="button"
              className="ack-console__retry"
              aria-disabled={!canRetry}
              onClick={retry}
            >
              Retry
            </button>
          </>
        ) : null}
        <button
          type="button"
          className="ack-console__clear"
          aria-disabled={!canClear}
          onClick={clear}
        >
          Clear
        </button>
      </div>
      {Status ? (
        <Status
          status={run.status}
          attempt={run.attempt}
          restarts={run.restarts}
          nextAttemptAt={run.nextAttemptAt}
          reconnectReason={run.reconnectReason}
          startedAt={run.startedAt}
          endedAt={run.endedAt}
          className="ack-console__status"
        />
      ) : null}
      {run.error && ErrorPart ? (
        <ErrorPart error={run.error} agentId={agentId} fields={fields} />
      ) : null}
      {mode === 'form' && Output ? (
        <Output text={run.text} status={run.status} className="ack-console__output" />
      ) : null}
      {mode === 'form' && RunHistoryPart ? (
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
      {EventLog ? (
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
    </section>
  );
}

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
