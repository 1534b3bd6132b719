import {
  forwardRef,
  useRef,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type RefAttributes,
  type ReactNode,
} from 'react';
import type { Agent, AgentTool } from '../core/wire/schemas.js';
import { useAgentConsole, type UseAgentConsoleOptions } from '../react/use-agent-console.js';
import { useConfirmedStop } from './console-confirmed-stop.js';
import { useFocusIntent, usePickerRefocus } from './console-focus.js';
import {
  lazyApprovalCard,
  lazyEventLog,
  lazyInputForm,
  lazyRunHistory,
  lazyRunOutput,
  lazyThreadList,
  usePreloadedParts,
} from './console-lazy-parts.js';
import { splitConsoleOptions } from './console-options.js';
import { ConsolePickerPart, useConsolePicker, type ConsolePicker } from './console-picker.js';
import {
  renderHeader,
  renderHistory,
  renderInput,
  renderResults,
  renderRunError,
  renderWithoutAgent,
  resolveParts,
  type AgentConsoleComponents,
  type ConsoleView,
} from './console-layout.js';
import { useConsoleThreads } from './console-threads.js';
import { useConsoleToolsSlot } from './console-tools-slot.js';
import { classNames, named } from './part-helpers.js';

export type { AgentConsoleComponents } from './console-layout.js';

/**
 * Props of {@link AgentConsole}: the options of {@link useAgentConsole} (passed through: runs,
 * thread, durable turns, tool authorization), the agent, and the layout's own.
 */
export interface AgentConsoleProps
  extends
    Omit<ComponentPropsWithoutRef<'section'>, 'children'>,
    RefAttributes<HTMLElement>,
    UseAgentConsoleOptions {
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
  const { agentId, picker: pickerSetup } = useConsolePicker(givenAgentId, picker, onAgentChange);
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
  visibleMessages,
  earlierPageSize,
  theme,
  headingLevel = 2,
  showEventLog = false,
  toolServerId,
  className,
  ...props
}: AgentConsoleForAgentProps) {
  const [options, rest] = splitConsoleOptions(props);
  const threads = useConsoleThreads(options.threadStore, options.threadId);
  const state = useAgentConsole(agentId, { ...options, threadId: threads.threadId });
  const parts = resolveParts(components, showEventLog);
  // Until its schemas say, an agent that does not take messages may take a form.
  const mayTakeForm = state.agent !== undefined && state.mode !== 'chat';
  // A part the app replaced or hid is not the lazy default: it is never loaded.
  usePreloadedParts({
    eventLog: parts.EventLog === lazyEventLog.Part,
    inputForm: mayTakeForm && parts.InputForm === lazyInputForm.Part,
    runOutput: mayTakeForm && parts.Output === lazyRunOutput.Part,
    runHistory: mayTakeForm && parts.RunHistory === lazyRunHistory.Part,
    approvalCard:
      options.executionMode === 'durable' && parts.ApprovalCard === lazyApprovalCard.Part,
    threadList: options.threadStore !== undefined && parts.ThreadList === lazyThreadList.Part,
    threads: options.threadStore !== undefined && parts.ThreadList !== null,
  });
  const tools = useConsoleToolsSlot({
    agentId,
    Tools: components.Tools,
    inputAsked: state.agent !== undefined && !state.schemasQuery.isPending,
    toolServerId,
    toolAuthorization: options.toolAuthorization ?? 'window',
    authorizationReturnUrl: options.authorizationReturnUrl,
    headingLevel: (headingLevel + 1) as 3 | 4 | 5 | 6,
  });
  const stopRef = useRef<HTMLButtonElement>(null);
  const pickerRef = useRef<HTMLDivElement>(null);
  const rememberOrigin = useFocusIntent(state.mode === 'form' && state.active, stopRef);
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
    <ConsolePickerPart picker={picker} agentName={agentQuery.data?.name} pickerRef={pickerRef} />
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
    threads:
      options.threadStore === undefined
        ? undefined
        : { store: options.threadStore, threadId: threads.threadId, select: threads.select },
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
        data-threads={
          state.mode === 'chat' && options.threadStore && parts.ThreadList ? '' : undefined
        }
      >
        {renderInput(view)}
      </div>
      {renderRunError(view)}
      {renderResults(view)}
      {renderHistory(view)}
    </section>
  );
}
