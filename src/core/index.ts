/**
 * `agent-console-kit/core`: the client, the run stream and their types, with no React. Safe to
 * import in server code (route handlers, React Server Components, scripts) and in any runtime with
 * `fetch` (Node 20+, Deno, Bun, workers). A deliberate list: internals stay out.
 */
export {
  createAgentClient,
  type AgentApi,
  type AgentClient,
  type AgentClientOptions,
  type AgentRunRequest,
  type AuthorizeToolServerOptions,
  type DeprecationNotice,
  type PerRequestValue,
  type PreparedRunRequest,
  type AgentRequestOptions,
  type AgentSchemasRequestOptions,
} from './wire/agent-client.js';
export {
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentValidationError,
  isAgentError,
  type AgentErrorKind,
  type AgentFieldError,
  type AgentValidationIssue,
} from './wire/errors.js';
export type {
  Agent,
  AgentCapabilities,
  AgentMessage,
  AgentSchemas,
  AgentTool,
  AgentToolAuthType,
  AgentToolType,
  AgentToolWriteActionType,
  MessageEventPayload,
  OpenEnum,
  ProblemDetail,
  RunFailedPayload,
  ToolAuthorizationSuggestion,
  ToolServerAuthorization,
} from './wire/schemas.js';
export {
  assertCompleteInput,
  buildRunInput,
  findMissingFields,
  formFieldsFromSchema,
  humanizeKey,
  type FormField,
  type FormFieldKind,
} from './console/input-form.js';
export {
  validateInputForm,
  type AgentInputFormValues,
  type InputFormValidation,
} from './console/input-form-validation.js';
export {
  activeRunStatuses,
  terminalRunStatuses,
  type InvalidRunEvent,
  type MessageRunEvent,
  type ParseErrorRunEvent,
  type RunEvent,
  type RunEventKind,
  type RunFailedRunEvent,
  type RunSnapshot,
  type RunStatus,
  type UnknownRunEvent,
} from './stream/run-types.js';
export {
  classifyEvent,
  type RunEventArrival,
  type RunEventFrame,
} from './stream/classify-event.js';
export {
  createRunStream,
  defaultIdleTimeoutMs,
  type RunStream,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
  type RunStreamReconnectOptions,
} from './stream/run-stream.js';
export { defaultSseTransport } from './wire/sse-transport.js';
export type { SseMessage, SseReadOptions, SseTransport } from './wire/sse-types.js';
export { AgentEventTooLargeError } from './wire/sse-attempt.js';
export { type BackoffJitter, type BackoffPolicy } from './base/backoff.js';
// Query options and keys for TanStack Query: plain objects (only its types are used), so a server
// prefetches with them.
export {
  agentKeys,
  agentQueryOptions,
  agentSchemasQueryOptions,
  agentSearchQueryOptions,
  agentQueryRetryDelay,
  agentQueryRetry,
  type AgentQueryKey,
  type AgentQueryOptions,
  type AgentSchemasQueryConfig,
  type AgentSchemasQueryKey,
  type AgentSearchQueryKey,
  type AgentSearchQueryOptions,
} from './wire/agent-queries.js';
export {
  AgentConversationBusyError,
  createAgentConversation,
  parseConversationMessages,
  type AgentConversation,
  type ConversationMessageRun,
  type ConversationApprovalStatus,
  type ConversationExecutionMode,
  type AgentConversationOptions,
  type ConversationMessage,
  type ConversationMessageError,
  type ConversationMessageStatus,
  type ConversationRole,
  type ConversationSnapshot,
  type ConversationStatus,
  type ConversationChangeOptions,
  type ConversationFork,
  type ConversationVersions,
  type HiddenConversationMessage,
  type MessageVersion,
} from './conversation/agent-conversation.js';
export {
  createRunHistory,
  type RunHistory,
  type RunHistoryEntry,
  type RunHistoryOptions,
} from './stream/run-history.js';
export { AgentRedirectError, type AgentRedirectReason } from './wire/errors.js';
export {
  AgentApprovalConflictError,
  AgentCancelUnavailableError,
  AgentDurableUnavailableError,
  AgentRunMismatchError,
  AgentRunNotFoundError,
  AgentStartUnknownError,
  AgentUnsupportedError,
  type AgentStartUnknownReason,
} from './wire/durable-run-errors.js';
export {
  activeDurableRunStates,
  durableRunStates,
  isDurableRunState,
  terminalDurableRunStates,
  type DurableRunState,
} from './wire/durable-run-states.js';
export type {
  DurableInteraction,
  DurableRunDecision,
  DurableRunOutput,
  DurableRunRecord,
  DurableToolApproval,
  DurableUnknownInteraction,
} from './wire/durable-run-schemas.js';
export type { DurableRunMethods, DurableRunStartRequest } from './wire/durable-run-wire.js';
// The console's behaviour without a view (useAgentConsole is its React binding).
export {
  createAgentConsoleController,
  type AgentConsoleController,
  fieldErrorsOf,
  type AgentConsoleApprovalStatus,
  type AgentConsoleControllerOptions,
  type AgentConsoleFormState,
  type AgentConsoleMode,
  type AgentConsoleRunOptions,
  type AgentConsoleSnapshot,
} from './console/agent-console-controller.js';
export {
  AgentToolAuthorizations,
  groupAgentTools,
  summarizeAgentTool,
  type AgentToolAuthorization,
  type AgentToolAuthorizationsOptions,
  type AgentToolGroups,
  type AgentToolKind,
  type AgentToolSummary,
  type AgentToolWriteAction,
  type GroupAgentToolsOptions,
} from './wire/agent-tools.js';
export {
  openToolAuthorization,
  requestToolAuthorizationUrl,
  type AgentErrorTool,
  type ToolAuthorizationNavigation,
  type ToolAuthorizationOpening,
  type ToolAuthorizationState,
} from './wire/tool-authorization.js';
export {
  defaultDurablePollPolicy,
  type DurablePollPolicy,
} from './durable/durable-poll-schedule.js';
export {
  AgentStorageError,
  createDurableRunStore,
  type DurableRunStore,
  type DurableRunStoreChange,
  type DurableRunStoreOptions,
  type DurableRunStoreRecord,
  type DurableRunStoreRecordInit,
  type DurableRunStoreRecordPhase,
  type KeyValueStorage,
  // Deprecated names of the above (the lead's API cut removes them).
} from './storage/durable-run-store.js';
export {
  createDurableRun,
  type DurableRun,
  settledDurableRunStatuses,
  type DurableRunClient,
  type DurableRunConnection,
  type DurableRunEnvironment,
  type DurableRunFailure,
  type DurableRunOptions,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable/durable-run.js';
export {
  ThreadConflictError,
  createLocalStorageThreadStore,
  createMemoryThreadStore,
  type LocalStorageThreadStoreOptions,
  type StoredThread,
  type ThreadSaveInput,
  type ThreadStore,
  type ThreadStoreChange,
  type ThreadSummary,
} from './storage/thread-store.js';
export {
  createDurableRunList,
  type DurableRunList,
  type DurableRunListOptions,
} from './durable/durable-run-list.js';
export type { DurableRunStartOptions } from './durable/durable-run.js';
export {
  describeAgentError,
  type AgentErrorDescription,
  type DescribeAgentErrorContext,
} from './console/run-wording.js';
export { eventsToNdjson } from './stream/run-events-ndjson.js';
export type { Subscribable } from './base/subscribable.js';
export {
  ServerThreadConflictError,
  createServerThreadStore,
  type ServerThreadStoreOptions,
} from './storage/server-thread-store.js';
export {
  createServerRunList,
  type ServerRunGroup,
  type ServerRunList,
  type ServerRunListOptions,
  type ServerRunListSnapshot,
  type ServerRunSummary,
} from './storage/server-run-list.js';
export type { ServerStoreOptions } from './storage/server-store-request.js';
