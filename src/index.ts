/**
 * `agent-console-kit`: the hooks and components (client components: the built file starts with
 * `'use client'`), and the few names of `agent-console-kit/core` a React app writes beside them:
 * the client, the errors a UI checks, the data the hooks and components take and give. Everything
 * else of the core (engines, query options, server stores) is imported from
 * `agent-console-kit/core`; the whole console, `AgentConsole`, from `agent-console-kit/console`.
 * A compound component's parts are reached through it only (`AgentThread.Root`): compose them in a
 * client component (docs/decisions/0021-public-surface.md).
 */
export {
  // The client and the errors a UI checks.
  createAgentClient,
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentValidationError,
  isAgentError,
  describeAgentError,
  type AgentClient,
  type AgentClientOptions,
  type AgentRunRequest,
  // The data the hooks and components take and give.
  type Agent,
  type AgentSchemas,
  type AgentTool,
  type RunEvent,
  type RunSnapshot,
  type RunStatus,
  type ConversationMessage,
  type ConversationSnapshot,
  type DurableInteraction,
  type DurableRunDecision,
  type DurableRunSnapshot,
  type DurableRunStatus,
  activeRunStatuses,
  settledRunStatuses,
  settledDurableRunStatuses,
  // A form agent's input form.
  assertCompleteInput,
  buildRunInput,
  formFieldsFromSchema,
  validateInputForm,
  type AgentInputFormValues,
  type FormField,
  // The key factory a React app invalidates with.
  agentKeys,
  // The stores a hook or the console is given.
  createDurableRunStore,
  createMemoryThreadStore,
  createServerRunList,
  createServerThreadStore,
  createThreadStore,
  type StoredThread,
  type ThreadStore,
  type ThreadSummary,
} from './core/index.js';
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
} from './react/use-agent.js';
export { useAgentSearch, type UseAgentSearchOptions } from './react/use-agent-search.js';
export { AgentDetails, type AgentDetailsProps } from './components/agent-details.js';
export {
  useAgentTools,
  type UseAgentToolsOptions,
  type UseAgentToolsResult,
} from './react/use-agent-tools.js';
export { AgentTools, type AgentToolsProps } from './components/agent-tools.js';
export {
  useAgentRunStream,
  type UseAgentRunStreamOptions,
  type UseAgentRunStreamResult,
  type UseAgentRunStreamSelectOptions,
} from './react/use-agent-run-stream.js';
export {
  useAgentConversation,
  type UseAgentConversationOptions,
  type UseAgentConversationResult,
} from './react/use-agent-conversation.js';
export { useAgentRunHistory } from './react/use-agent-run-history.js';
export { AgentInputForm, type AgentInputFormProps } from './components/agent-input-form.js';
export { AgentThread, type AgentThreadProps } from './components/agent-thread.js';
export {
  AgentThreadComposer,
  type AgentThreadComposerProps,
} from './components/agent-thread-composer.js';
export { AgentRunHistory, type AgentRunHistoryProps } from './components/agent-run-history.js';
export { MessageComposer, type MessageComposerProps } from './components/message-composer.js';
export { AgentRunOutput, type AgentRunOutputProps } from './components/agent-run-output.js';
export { AgentEventLog, type AgentEventLogProps } from './components/agent-event-log.js';
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
  type AgentApprovalCardProps,
} from './components/agent-approval-card.js';
export {
  useAgentThreads,
  type UseAgentThreadsOptions,
  type UseAgentThreadsResult,
} from './react/use-agent-threads.js';
export { AgentThreadList, type AgentThreadListProps } from './components/agent-thread-list.js';
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
