export {
  createAgentClient,
  type AgentApi,
  type AgentClient,
  type AgentClientOptions,
  type AgentRunRequest,
  type DeprecationNotice,
  type Lazy,
  type PreparedRequest,
  type RequestOptions,
} from './core/agent-client.js';
export {
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentValidationError,
  isAgentError,
  parseRetryAfter,
  type AgentErrorKind,
  type AgentFieldError,
  type AgentValidationIssue,
} from './core/errors.js';
export type {
  Agent,
  AgentCapabilities,
  AgentMessage,
  AgentSchemas,
  MessageEventPayload,
  ProblemDetail,
  ToolAuthorizationBody,
} from './core/schemas.js';
export {
  AgentClientProvider,
  useAgentClient,
  type AgentClientProviderProps,
} from './react/agent-client-provider.js';
export {
  agentKeys,
  agentQueryOptions,
  agentSchemasQueryOptions,
  agentQueryRetryDelay,
  shouldRetryAgentQuery,
  type AgentQueryKey,
  type AgentSchemasQueryKey,
} from './react/agent-queries.js';
export { useAgent, useAgentSchemas, type AgentQueryOverrides } from './react/use-agent.js';
export { AgentDetails, type AgentDetailsProps } from './components/agent-details.js';
export {
  assertCompleteInput,
  buildRunInput,
  findMissingFields,
  formFieldsFromSchema,
  isEmptyValue,
  type FormField,
  type FormFieldKind,
} from './core/input-form.js';
export {
  activeRunStatuses,
  terminalRunStatuses,
  type RunEvent,
  type RunEventKind,
  type RunSnapshot,
  type RunStatus,
} from './core/run-types.js';
export {
  RunStream,
  createRunStream,
  initialRunSnapshot,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
  type RunStreamReconnectOptions,
} from './core/run-stream.js';
export {
  AgentConversation,
  AgentConversationBusyError,
  createAgentConversation,
  parseConversationMessages,
  type AgentConversationOptions,
  type ConversationMessage,
  type ConversationMessageError,
  type ConversationMessageStatus,
  type ConversationRole,
  type ConversationSnapshot,
  type ConversationStatus,
} from './core/agent-conversation.js';
export {
  fetchEventSourceTransport,
  type SseAttemptResult,
  type SseConnectOptions,
  type SseMessage,
  type SseTransport,
} from './core/sse-transport.js';
export {
  backoffDelay,
  type BackoffHints,
  type BackoffJitter,
  type BackoffPolicy,
} from './core/backoff.js';
export {
  useAgentRunStream,
  type UseAgentRunStreamOptions,
  type UseAgentRunStreamResult,
} from './react/use-agent-run-stream.js';
export {
  useAgentConversation,
  type UseAgentConversationOptions,
  type UseAgentConversationResult,
} from './react/use-agent-conversation.js';
export { useAgentRunHistory } from './react/use-agent-run-history.js';
export {
  RunHistory,
  createRunHistory,
  defaultRunHistoryLimit,
  type RunHistoryEntry,
  type RunHistoryOptions,
} from './core/run-history.js';
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
  validateInputForm,
  type AgentInputFormValues,
  type InputFormValidation,
} from './components/input-form-validation.js';
export {
  AgentThread,
  AgentThreadAnnouncer,
  AgentThreadMessage,
  AgentThreadMessages,
  AgentThreadRoot,
  AgentThreadViewport,
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
export { AgentEventLog, type AgentEventLogProps } from './components/agent-event-log.js';
export { eventsToNdjson } from './components/event-log-format.js';
export {
  AgentErrorMessage,
  describeAgentError,
  type AgentErrorDescription,
  type AgentErrorMessageProps,
  type DescribeAgentErrorContext,
} from './components/agent-error-message.js';
export { AgentRunStatus, type AgentRunStatusProps } from './components/agent-run-status.js';
export {
  AgentConsole,
  type AgentConsoleComponents,
  type AgentConsoleProps,
} from './components/agent-console.js';
