import type { ComponentType, ReactNode, RefObject } from 'react';
import type { ThreadStore } from '../core/storage/thread-store.js';
import type { Agent } from '../core/wire/schemas.js';
import type { UseAgentConsoleResult } from '../react/use-agent-console.js';
import type { AgentErrorTool } from '../core/wire/tool-authorization.js';
import type { AgentApprovalCardProps } from './agent-approval-card.js';
import { AgentDetails, type AgentDetailsProps } from './agent-details.js';
import type { AgentErrorMessageProps } from './agent-error-message.js';
import type { AgentEventLogProps } from './agent-event-log.js';
import type { AgentInputFormProps } from './agent-input-form.js';
import type { AgentRunOutputProps } from './agent-run-output.js';
import type { AgentRunHistoryProps } from './agent-run-history.js';
import { AgentRunStatus, type AgentRunStatusProps } from './agent-run-status.js';
import { AgentThread, type AgentThreadProps } from './agent-thread.js';
import { AgentThreadComposer, type AgentThreadComposerProps } from './agent-thread-composer.js';
import type { AgentThreadListProps } from './agent-thread-list.js';
import type { AgentToolsProps } from './agent-tools.js';
import { ConsoleApproval } from './console-approval.js';
import {
  lazyApprovalCard,
  lazyErrorMessage,
  lazyConsoleThreadList,
  lazyEventLog,
  lazyInputForm,
  lazyRunHistory,
  lazyRunOutput,
  lazyThreadList,
} from './console-lazy-parts.js';
import { ClearIcon, RetryIcon, StopIcon } from './icons.js';
import { classNames } from './part-helpers.js';

// The pieces of `AgentConsole`'s layout: which part shows what of the console's state.

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

/** What the console shows until it has its agent: loading, the load's error, or why there is none. */
export function renderWithoutAgent(
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
export interface ConsoleParts {
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

export function resolveParts(
  components: AgentConsoleComponents,
  showEventLog: boolean,
): ConsoleParts {
  return {
    Details: resolveSlot(components.Details, AgentDetails),
    InputForm: resolveSlot(components.InputForm, lazyInputForm.Part),
    Composer: resolveSlot(components.Composer, AgentThreadComposer),
    Thread: resolveSlot(components.Thread, AgentThread),
    ApprovalCard: resolveSlot(components.ApprovalCard, lazyApprovalCard.Part),
    ThreadList: resolveSlot(components.ThreadList, lazyThreadList.Part),
    RunHistory: resolveSlot(components.RunHistory, lazyRunHistory.Part),
    Status: resolveSlot(components.Status, AgentRunStatus),
    Error: resolveSlot(components.Error, lazyErrorMessage.Part),
    Output: resolveSlot(components.Output, lazyRunOutput.Part),
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
export interface ConsoleView {
  state: UseAgentConsoleResult;
  agent: Agent;
  agentId: string | undefined;
  parts: ConsoleParts;
  renderText: ((text: string) => ReactNode) | undefined;
  visibleMessages: number | undefined;
  earlierPageSize: number | undefined;
  headingLevel: 2 | 3 | 4 | 5;
  stopRef: RefObject<HTMLButtonElement | null>;
  /** The thread store, the shown thread and how the list shows another, with a `threadStore`. */
  threads:
    { store: ThreadStore; threadId: string | undefined; select: (id: string) => void } | undefined;
  /** The tools part, unless hidden. */
  tools: ReactNode;
  /** Stop of the composer: a durable turn asks first (`confirm`). */
  stopControl: { onStop: () => void; confirm: ReactNode };
  start: (input: Record<string, unknown>) => void;
}

/** The agent's details and the status badge (hidden visually while the alert says it). */
export function renderHeader(view: ConsoleView): ReactNode {
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
          status={state.status}
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
export function renderRunError({ state, agentId, parts }: ConsoleView): ReactNode {
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
export function renderInput(view: ConsoleView): ReactNode {
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
      {view.threads && parts.ThreadList ? (
        <lazyConsoleThreadList.Part
          ThreadList={parts.ThreadList}
          threadStore={view.threads.store}
          agentId={view.agentId}
          threadId={view.threads.threadId}
          onThreadChange={view.threads.select}
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
          onRegenerate={state.regenerate}
          versions={chat.versions}
          onShowVersion={state.showVersion}
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
        interactions={state.pendingInteractions}
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
export function renderResults({ state, parts, renderText, headingLevel }: ConsoleView): ReactNode {
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

/** A form agent's run history (Run again fills the form). */
export function renderHistory({ state, parts, headingLevel }: ConsoleView): ReactNode {
  if (state.mode !== 'form' || !parts.RunHistory || state.history.length === 0) return null;
  return (
    <parts.RunHistory
      entries={state.history}
      fields={state.fields}
      disabled={state.active}
      headingLevel={(headingLevel + 1) as 3 | 4 | 5 | 6}
      onRunAgain={state.runAgain}
      className="ack-console__history"
    />
  );
}
