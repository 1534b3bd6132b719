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
} from './agent-client.js';
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
} from './errors.js';
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
} from './schemas.js';
export {
  assertCompleteInput,
  buildRunInput,
  findMissingFields,
  formFieldsFromSchema,
  humanizeKey,
  isEmptyValue,
  type FormField,
  type FormFieldKind,
} from './input-form.js';
export {
  validateInputForm,
  type AgentInputFormValues,
  type InputFormValidation,
} from './input-form-validation.js';
export {
  activeRunStatuses,
  terminalRunStatuses,
  type InvalidRunEvent,
  type MessageRunEvent,
  type ParseErrorRunEvent,
  type RunEvent,
  type RunEventBase,
  type RunEventKind,
  type RunFailedRunEvent,
  type RunSnapshot,
  type RunStatus,
  type UnknownRunEvent,
} from './run-types.js';
export { classifyEvent, type RunEventArrival, type RunEventFrame } from './classify-event.js';
export {
  createRunStream,
  defaultIdleTimeoutMs,
  type RunStream,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
  type RunStreamReconnectOptions,
} from './run-stream.js';
export { defaultSseTransport, fetchEventSourceTransport } from './sse-transport.js';
export type {
  SentRunRequest,
  SseAttemptResult,
  SseMessage,
  SseReadOptions,
  SseTransport,
  StreamRunOptions,
} from './sse-types.js';
export { fetchSseTransport } from './fetch-sse-transport.js';
export { AgentEventTooLargeError, defaultMaxEventSize } from './sse-attempt.js';
export {
  backoffDelay,
  type BackoffHints,
  type BackoffJitter,
  type BackoffPolicy,
} from './backoff.js';
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
} from './agent-queries.js';
export {
  AgentConversationBusyError,
  createAgentConversation,
  parseConversationMessages,
  type AgentConversation,
  type ConversationMessageRun,
  type ConversationExecutionMode,
  type AgentConversationOptions,
  type ConversationMessage,
  type ConversationMessageError,
  type ConversationMessageStatus,
  type ConversationRole,
  type ConversationSnapshot,
  type ConversationStatus,
} from './agent-conversation.js';
export {
  createRunHistory,
  type RunHistory,
  type RunHistoryEntry,
  type RunHistoryOptions,
} from './run-history.js';
export {
  AgentRedirectError,
  type AgentRedirectErrorInit,
  type AgentRedirectReason,
} from './errors.js';
export {
  AgentApprovalConflictError,
  AgentCancelUnavailableError,
  AgentDurableUnavailableError,
  AgentRunMismatchError,
  AgentRunNotFoundError,
  AgentStartUnknownError,
  AgentUnsupportedError,
  type AgentStartUnknownReason,
} from './durable-run-errors.js';
export {
  activeDurableRunStates,
  durableRunStates,
  isDurableRunState,
  terminalDurableRunStates,
  type DurableRunState,
} from './durable-run-states.js';
export type {
  DurableInteraction,
  DurableRunDecision,
  DurableRunOutput,
  DurableRunRecord,
  DurableToolApproval,
  DurableUnknownInteraction,
} from './durable-run-schemas.js';
export type { DurableRunMethods, DurableRunStartRequest } from './durable-run-wire.js';
// The console's behaviour without a view (useAgentConsole is its React binding).
export {
  agentConsoleModeOf,
  createAgentConsoleController,
  type AgentConsoleController,
  fieldErrorsOf,
  type AgentConsoleApprovalStatus,
  type AgentConsoleControllerOptions,
  type AgentConsoleFocusIntent,
  type AgentConsoleFormState,
  type AgentConsoleMode,
  type AgentConsoleRunOptions,
  type AgentConsoleSnapshot,
} from './agent-console-controller.js';
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
} from './agent-tools.js';
export {
  openToolAuthorization,
  requestToolAuthorizationUrl,
  type AgentErrorTool,
  type ToolAuthorizationNavigation,
  type ToolAuthorizationOpening,
  type ToolAuthorizationState,
} from './tool-authorization.js';
export {
  defaultDurablePollPolicy,
  type DurablePollPolicy,
  type DurablePollSituation,
} from './durable-poll-schedule.js';
export {
  AgentStorageError,
  createRunStore,
  type KeyValueStorage,
  type RunRecord,
  type RunRecordInit,
  type RunRecordPhase,
  type RunStore,
  type RunStoreChange,
  type RunStoreOptions,
} from './run-store.js';
export {
  createDurableRun,
  type DurableRun,
  durableRunStatusOf,
  settledDurableRunStatuses,
  type DurableRunClient,
  type DurableRunConnection,
  type DurableRunEnvironment,
  type DurableRunFailure,
  type DurableRunLockManager,
  type DurableRunOptions,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable-run.js';
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
} from './thread-store.js';
export {
  createDurableRunList,
  type DurableRunList,
  type DurableRunListOptions,
  type KnownDurableRun,
} from './durable-run-list.js';
export type { DurableRunStartOptions } from './durable-run.js';
export {
  describeAgentError,
  type AgentErrorDescription,
  type DescribeAgentErrorContext,
} from './run-wording.js';
export { eventsToNdjson } from './run-events-ndjson.js';
export type { Subscribable } from './subscribable.js';
