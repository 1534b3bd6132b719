// The console's options and state: what `AgentConsoleController` takes and shows.
import type { AgentClient } from '../wire/agent-client.js';
import type {
  AgentConversationOptions,
  ConversationApprovalStatus,
  ConversationExecutionMode,
  ConversationMessage,
  ConversationSnapshot,
} from '../conversation/agent-conversation.js';
import type { ThreadStore } from '../storage/thread-store.js';
import type { DurableInteraction } from '../wire/durable-run-schemas.js';
import type { AgentError } from '../wire/errors.js';
import { formFieldsFromSchema, type FormField } from './input-form.js';
import type { RunHistoryEntry } from '../stream/run-history.js';
import type { RunStream, RunStreamOptions } from '../stream/run-stream.js';
import type { RunSnapshot, RunStatus } from '../stream/run-types.js';
import type { Agent, AgentSchemas } from '../wire/schemas.js';
import type {
  ToolAuthorizationNavigation,
  ToolAuthorizationOpening,
  ToolAuthorizationState,
} from '../wire/tool-authorization.js';

/**
 * What a console shows for an agent: `'form'` (started by its input form, with a run history) or
 * `'chat'` (a conversation: the agent takes messages, or its form has no field).
 */
export type AgentConsoleMode = 'form' | 'chat';

/**
 * The mode of an agent: `'chat'` when it takes messages (`capabilities['ap.io.messages']`) or its
 * input schema has no field, else `'form'`; `undefined` until the agent (and, for an agent that
 * does not take messages, its schemas) is known.
 */
export function agentConsoleModeOf(
  agent: Agent | undefined,
  schemas: AgentSchemas | undefined,
): AgentConsoleMode | undefined {
  if (agent === undefined) return undefined;
  if (agent.capabilities?.['ap.io.messages'] === true) return 'chat';
  if (schemas === undefined) return undefined;
  return formFieldsFromSchema(schemas.input_schema).length === 0 ? 'chat' : 'form';
}

/** The run options of a console: a run stream's, plus its client or a stream to share. */
export interface AgentConsoleRunOptions extends RunStreamOptions {
  /**
   * The client of the runs.
   * @default the console's client
   */
  client?: AgentClient | undefined;
  /**
   * A stream to run a form agent on, shared with other components: the console does not own it
   * (it never aborts it on disconnect, nor changes its options).
   * @default undefined (the console creates and owns its stream)
   */
  stream?: RunStream | undefined;
}

/** Options of {@link AgentConsoleController}. */
export interface AgentConsoleControllerOptions {
  /**
   * Options of the runs (`reconnect`, `maxEvents`, `throttleMs`, `idleTimeoutMs`, the callbacks
   * such as `onDone`); the callbacks are read when called.
   * @default {}
   */
  runOptions?: AgentConsoleRunOptions | undefined;
  /**
   * `metadata` sent with every run (a chat agent's is read when its conversation is created).
   * @default undefined
   */
  metadata?: Record<string, unknown> | undefined;
  /**
   * A chat agent's thread to restore, read when its conversation is created (a malformed one
   * throws an `AgentInputError` then).
   * @default []
   */
  initialMessages?: readonly ConversationMessage[] | undefined;
  /**
   * Called with a chat agent's thread when a turn settles and when it is cleared.
   * @default undefined
   */
  onMessagesChange?: ((messages: readonly ConversationMessage[]) => void) | undefined;
  /**
   * How many runs a form agent's run history keeps (the newest), read when it is created.
   * @default 20
   */
  runHistoryLimit?: number | undefined;
  /**
   * How a chat agent's turns run: `'stream'` (one SSE response) or `'durable'` (a durable run,
   * polled: survives a reload, waits for approvals, Stop cancels it; `api: 'platform'` only). Read
   * when the conversation is created.
   * @default 'stream'
   */
  executionMode?: ConversationExecutionMode | undefined;
  /**
   * Where a chat agent's thread is kept (loaded when the conversation is created, saved when a
   * turn settles or a durable turn is accepted). No thread list is shown: see `useAgentThreads`.
   * Durable turns outlive the page, so in a browser their thread does too by default: in
   * localStorage, as the thread `console:<agentId>`.
   * @default undefined; with `executionMode: 'durable'` in a browser, `createThreadStore()`
   */
  threadStore?: ThreadStore | undefined;
  /**
   * The thread to load from `threadStore`, read when the conversation is created
   * (`useAgentConsole` starts a new controller, and so a new conversation, for another one).
   * @default a new random id, when there is a `threadStore`; `console:<agentId>` for the default
   * durable one
   */
  threadId?: string | undefined;
  /**
   * A durable conversation's run store, poll schedule and environment.
   * @default {}
   */
  durableRun?: AgentConversationOptions['durableRun'];
  /**
   * How the sign-in page of a tool to authorize is opened.
   * @default 'window'
   */
  toolAuthorization?: ToolAuthorizationOpening | undefined;
  /**
   * Where the service sends the browser back after the person allowed a tool.
   * @default navigation.currentUrl()
   */
  authorizationReturnUrl?: string | undefined;
  /**
   * How a sign-in page is opened in this runtime (`window.open`, `location.assign`);
   * `useAgentConsole` gives the browser's.
   * @default undefined (only a `toolAuthorization` function can open a page)
   */
  navigation?: ToolAuthorizationNavigation | undefined;
}

/** The state of a form agent's input form, as the console drives it. */
export interface AgentConsoleFormState {
  /** Changes when the form must start over (Clear, Run again from the history). */
  resetKey: number;
  /** The values to start from (a history entry's input after Run again). */
  defaultValues: Record<string, unknown> | undefined;
  /** Messages by field name from the last run's refusal ({@link fieldErrorsOf}). */
  errors: Record<string, string> | undefined;
}

/** The state of an {@link AgentConsoleController}: immutable, the same object until a change. */
export interface AgentConsoleSnapshot {
  /** The mode, once the agent (and its schemas, when needed) is known. */
  mode: AgentConsoleMode | undefined;
  /** The agent's form fields (from its input schema; empty until known). */
  fields: readonly FormField[];
  /**
   * The run the status, the error and the event log show: a form agent's run, or the chosen
   * answer's run of a conversation (the latest turn's by default).
   */
  run: RunSnapshot;
  /**
   * What the status line says: the shown run's status, a chat turn's in a run's words whichever
   * way it travels (`waiting` while a durable turn waits for approval, `aborted` once stopped).
   */
  status: RunStatus | 'waiting';
  /** The answer whose run is shown, chosen with `selectAnswer`. */
  selectedAnswerId: string | undefined;
  /** `run` is a chosen answer's run (not the latest turn's). */
  showsSelectedAnswer: boolean;
  /** A run (or turn) is under way. */
  active: boolean;
  /** A chat agent's conversation (`undefined` for a form agent). */
  conversation: ConversationSnapshot | undefined;
  /**
   * The approvals a chat agent's durable turn waits for, the batch shown (empty otherwise): answer
   * them with `respond`.
   */
  pendingInteractions: readonly DurableInteraction[];
  /** Where the answer to `pendingInteractions` stands (an error belongs to the batch it answered). */
  approvalStatus: ConversationApprovalStatus;
  /**
   * Why the answer failed, with `approvalStatus: 'error'`: a 409 (`status` 409: answered or changed
   * elsewhere; not sent again), a 503 or network error after the retries, or a refused batch.
   */
  approvalError: AgentError | undefined;
  /** A form agent's finished runs, newest first (empty for a chat agent). */
  history: readonly RunHistoryEntry[];
  /** A form agent's input form. */
  form: AgentConsoleFormState;
  /** Where each tool's authorization stands, for the error shown (by server id). */
  toolStates: Readonly<Record<string, ToolAuthorizationState>>;
  /** A sign-in page was opened for the error shown: running again is worth offering. */
  toolOpened: boolean;
  /** A form run that failed or was stopped can run again as it was sent. */
  canRetry: boolean;
  /** There is something to clear, and nothing under way (Stop comes first). */
  canClear: boolean;
}
