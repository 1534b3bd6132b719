/**
 * `agent-console-kit`: the hooks and components (client components: the built file starts with
 * `'use client'`), and everything of `agent-console-kit/core` again, so one import serves an app.
 * Server code imports `agent-console-kit/core` instead; the whole console, `AgentConsole`, is in
 * `agent-console-kit/console`.
 */
export * from './core/index.js';
export {
  AgentClientProvider,
  useAgentClient,
  type AgentClientProviderProps,
} from './react/agent-client-provider.js';
export {
  useAgent,
  useAgentSchemas,
  useSuspenseAgent,
  useSuspenseAgentSchemas,
  type AgentQueryOverrides,
  type AgentSuspenseQueryOverrides,
} from './react/use-agent.js';
export { useAgentSearch, type UseAgentSearchOptions } from './react/use-agent-search.js';
export { AgentDetails, type AgentDetailsProps } from './components/agent-details.js';
export {
  useAgentTools,
  type AgentToolsStatus,
  type UseAgentToolsOptions,
  type UseAgentToolsResult,
} from './react/use-agent-tools.js';
export {
  AgentTools,
  AgentToolsGroup,
  AgentToolsItem,
  AgentToolsList,
  AgentToolsMessage,
  AgentToolsRoot,
  AgentToolsTitle,
  type AgentToolsGroupProps,
  type AgentToolsItemProps,
  type AgentToolsListProps,
  type AgentToolsMessageProps,
  type AgentToolsPartStatus,
  type AgentToolsProps,
  type AgentToolsRootProps,
  type AgentToolsTitleProps,
} from './components/agent-tools.js';
export {
  useAgentRunStream,
  type UseAgentRunStreamActions,
  type UseAgentRunStreamOptions,
  type UseAgentRunStreamResult,
  type UseAgentRunStreamSelectOptions,
  type UseAgentRunStreamSelection,
} from './react/use-agent-run-stream.js';
export {
  useAgentConversation,
  type UseAgentConversationOptions,
  type UseAgentConversationResult,
} from './react/use-agent-conversation.js';
export { useAgentRunHistory } from './react/use-agent-run-history.js';
export {
  AgentInputForm,
  AgentInputFormRoot,
  AgentInputFormField,
  AgentInputFormLabel,
  AgentInputFormControl,
  AgentInputFormDescription,
  AgentInputFormMessage,
  AgentInputFormSubmit,
  type AgentInputFormProps,
  type AgentInputFormFieldProps,
  type AgentInputFormLabelProps,
  type AgentInputFormControlProps,
  type AgentInputFormDescriptionProps,
  type AgentInputFormMessageProps,
  type AgentInputFormSubmitProps,
} from './components/agent-input-form.js';
export {
  AgentThread,
  AgentThreadAnnouncer,
  AgentThreadMessage,
  AgentThreadMessages,
  AgentThreadRoot,
  AgentThreadViewport,
  type AgentThreadAnnouncerProps,
  type AgentThreadMessageProps,
  type AgentThreadMessagesProps,
  type AgentThreadProps,
  type AgentThreadRootProps,
  type AgentThreadViewportProps,
} from './components/agent-thread.js';
export {
  AgentThreadComposer,
  type AgentThreadComposerProps,
} from './components/agent-thread-composer.js';
export { AgentRunHistory, type AgentRunHistoryProps } from './components/agent-run-history.js';
export { MessageComposer, type MessageComposerProps } from './components/message-composer.js';
export { AgentRunOutput, type AgentRunOutputProps } from './components/agent-run-output.js';
export {
  AgentEventLog,
  AgentEventLogAnnouncer,
  AgentEventLogHeader,
  AgentEventLogRoot,
  AgentEventLogToolbar,
  AgentEventLogViewport,
  type AgentEventLogAnnouncerProps,
  type AgentEventLogHeaderProps,
  type AgentEventLogProps,
  type AgentEventLogRootProps,
  type AgentEventLogToolbarProps,
  type AgentEventLogViewportProps,
} from './components/agent-event-log.js';
export {
  AgentErrorMessage,
  type AgentErrorMessageProps,
} from './components/agent-error-message.js';
export { AgentRunStatus, type AgentRunStatusProps } from './components/agent-run-status.js';
export { AgentPicker, type AgentPickerProps } from './components/agent-picker.js';
export {
  useAgentConsole,
  type UseAgentConsoleOptions,
  type UseAgentConsoleResult,
} from './react/use-agent-console.js';
export {
  useDurableRun,
  type UseDurableRunOptions,
  type UseDurableRunResult,
} from './react/use-durable-run.js';
export {
  AgentApprovalCard,
  AgentApprovalCardActions,
  AgentApprovalCardArguments,
  AgentApprovalCardDeadline,
  AgentApprovalCardItem,
  AgentApprovalCardMessage,
  AgentApprovalCardRoot,
  AgentApprovalCardSubmit,
  AgentApprovalCardTitle,
  type AgentApprovalCardActionsProps,
  type AgentApprovalCardArgumentsProps,
  type AgentApprovalCardDeadlineProps,
  type AgentApprovalCardItemProps,
  type AgentApprovalCardMessageProps,
  type AgentApprovalCardProps,
  type AgentApprovalCardRootProps,
  type AgentApprovalCardStatus,
  type AgentApprovalCardSubmitProps,
  type AgentApprovalCardTitleProps,
} from './components/agent-approval-card.js';
export {
  useAgentThreads,
  type UseAgentThreadsOptions,
  type UseAgentThreadsResult,
} from './react/use-agent-threads.js';
export {
  AgentThreadList,
  AgentThreadListItem,
  AgentThreadListItems,
  AgentThreadListNew,
  AgentThreadListRoot,
  type AgentThreadListItemProps,
  type AgentThreadListItemsProps,
  type AgentThreadListNewProps,
  type AgentThreadListProps,
  type AgentThreadListRootProps,
} from './components/agent-thread-list.js';
export {
  AgentCancelConfirm,
  type AgentCancelConfirmProps,
} from './components/agent-cancel-confirm.js';
export {
  useDurableRuns,
  type UseDurableRunsOptions,
  type UseDurableRunsResult,
  type UseDurableRunsServer,
} from './react/use-durable-runs.js';
export { useStore } from './react/use-store.js';
export {
  useAgentInbox,
  type UseAgentInboxOptions,
  type UseAgentInboxResult,
} from './react/use-agent-inbox.js';
export { AgentInbox, type AgentInboxProps } from './components/agent-inbox.js';
