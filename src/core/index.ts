/**
 * `agent-console-kit/core`: the client, the engines and their types, with no React. Safe to import
 * in server code (route handlers, React Server Components, scripts) and in any runtime with `fetch`
 * (Node 20+, Deno, Bun, workers). A deliberate list of what users write
 * (docs/decisions/0021-public-surface.md): a factory, the type it returns, its options and
 * snapshot, the error classes, the data users hold. A type reachable from a signature has no name
 * here unless users write it: `RunEvent['kind']`, `Parameters<typeof createDurableRun>[0]`.
 */
// wire/: the client, the agent's records, the errors.
export {
  createAgentClient,
  type AgentApi,
  type AgentClient,
  type AgentClientOptions,
  type AgentRunRequest,
} from './wire/agent-client.js';
export type { Agent, AgentMessage, AgentSchemas, AgentTool } from './wire/schemas.js';
export {
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentRedirectError,
  AgentValidationError,
  isAgentError,
} from './wire/errors.js';
export {
  AgentApprovalConflictError,
  AgentCancelUnavailableError,
  AgentDurableUnavailableError,
  AgentRunMismatchError,
  AgentRunNotFoundError,
  AgentStartUnknownError,
  AgentUnsupportedError,
} from './wire/durable-run-errors.js';
export { AgentEventTooLargeError } from './wire/sse-attempt.js';
export { defaultSseTransport } from './wire/sse-transport.js';
export type { SseTransport } from './wire/sse-types.js';
// Query options and keys for TanStack Query: plain objects (only its types are used), so a server
// prefetches with them.
export {
  agentKeys,
  agentQueryOptions,
  agentSchemasQueryOptions,
  agentSearchQueryOptions,
} from './wire/agent-queries.js';
export { groupAgentTools, summarizeAgentTool, type AgentToolSummary } from './wire/agent-tools.js';
export { requestToolAuthorizationUrl } from './wire/tool-authorization.js';

// stream/: a streamed run.
export {
  activeRunStatuses,
  settledRunStatuses,
  type RunEvent,
  type RunSnapshot,
  type RunStatus,
} from './stream/run-types.js';
export { classifyEvent } from './stream/classify-event.js';
export {
  createRunStream,
  type RunStream,
  type RunStreamCallbacks,
  type RunStreamOptions,
  type RunStreamReconnectOptions,
} from './stream/run-stream.js';
export { createRunHistory, type RunHistory, type RunHistoryEntry } from './stream/run-history.js';
export { eventsToNdjson } from './stream/run-events-ndjson.js';

// durable/: a durable run (platform API).
export type {
  DurableInteraction,
  DurableRunDecision,
  DurableRunRecord,
} from './wire/durable-run-schemas.js';
export { type DurablePollPolicy } from './durable/durable-poll-schedule.js';
export {
  createDurableRun,
  settledDurableRunStatuses,
  type DurableRun,
  type DurableRunOptions,
  type DurableRunSnapshot,
  type DurableRunStatus,
} from './durable/durable-run.js';
export { createDurableRunList, type DurableRunList } from './durable/durable-run-list.js';

// storage/: durable run records and threads, in the browser or on the server.
export {
  AgentStorageError,
  createDurableRunStore,
  type DurableRunStore,
  type DurableRunStoreOptions,
  type DurableRunStoreRecord,
  type KeyValueStorage,
} from './storage/durable-run-store.js';
export {
  ThreadConflictError,
  createMemoryThreadStore,
  createThreadStore,
  type StoredThread,
  type ThreadStore,
  type ThreadSummary,
} from './storage/thread-store.js';
export {
  ServerThreadConflictError,
  createServerThreadStore,
  type ServerThreadStoreOptions,
} from './storage/server-thread-store.js';
export {
  createServerRunList,
  type ServerRunList,
  type ServerRunListOptions,
  type ServerRunSummary,
} from './storage/server-run-list.js';
export type { ServerStoreOptions } from './storage/server-store-request.js';

// conversation/: a chat, streamed or durable turns.
export {
  AgentConversationBusyError,
  createAgentConversation,
  parseConversationMessages,
  type AgentConversation,
  type AgentConversationOptions,
  type ConversationMessage,
  type ConversationSnapshot,
} from './conversation/agent-conversation.js';

// console/: the console's behaviour without a view (useAgentConsole is its React binding), and
// the input form of a form agent.
export {
  createAgentConsoleController,
  type AgentConsoleController,
  type AgentConsoleControllerOptions,
  type AgentConsoleSnapshot,
} from './console/agent-console-controller.js';
export {
  assertCompleteInput,
  buildRunInput,
  findMissingFields,
  formFieldsFromSchema,
  type FormField,
} from './console/input-form.js';
export { validateInputForm, type AgentInputFormValues } from './console/input-form-validation.js';
export { describeAgentError } from './console/error-wording.js';
