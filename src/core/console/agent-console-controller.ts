/**
 * The console's behaviour without a view: which kind of agent it shows, the one engine that kind
 * needs, and the rules of the buttons around it. `useAgentConsole` is its React binding and
 * `AgentConsole` its layout; a team building its own console uses either.
 */
import type { AgentClient, AgentRunRequest } from '../wire/agent-client.js';
import {
  AgentConversation,
  type AgentConversationOptions,
  type ConversationSnapshot,
} from '../conversation/agent-conversation.js';
import { browserWindow } from '../base/storage-helpers.js';
import { ListenerSet } from '../base/subscribable.js';
import type { DurableInteraction, DurableRunDecision } from '../wire/durable-run-schemas.js';
import { AgentHttpError, AgentInputError } from '../wire/errors.js';
import { createDeferredThreadStore } from './deferred-thread-store.js';
import { assertCompleteInput, formFieldsFromSchema, type FormField } from './input-form.js';
import {
  agentConsoleModeOf,
  type AgentConsoleControllerOptions,
  type AgentConsoleMode,
  type AgentConsoleRunOptions,
  type AgentConsoleSnapshot,
} from './console-options.js';

export {
  agentConsoleModeOf,
  type AgentConsoleControllerOptions,
  type AgentConsoleFormState,
  type AgentConsoleMode,
  type AgentConsoleRunOptions,
  type AgentConsoleSnapshot,
} from './console-options.js';
import { RunHistory, type RunHistoryEntry } from '../stream/run-history.js';
import {
  RunStream,
  initialRunSnapshot,
  type RunStartRequest,
  type RunStreamCallbacks,
  type RunStreamOptions,
} from '../stream/run-stream.js';
import { activeRunStatuses, type RunSnapshot } from '../stream/run-types.js';
import type { Agent, AgentSchemas } from '../wire/schemas.js';
import {
  authorizeToolServer,
  type AgentErrorTool,
  type ToolAuthorizationState,
} from '../wire/tool-authorization.js';

interface FormEngine {
  stream: RunStream;
  owned: boolean;
  history: RunHistory;
}

interface ToolAuthorizations {
  /** The error the states answer: another error (or none) starts from nothing. */
  error: unknown;
  states: Readonly<Record<string, ToolAuthorizationState>>;
}

const noApprovals: readonly DurableInteraction[] = Object.freeze([]);
const noToolStates: Readonly<Record<string, ToolAuthorizationState>> = Object.freeze({});
const noHistory: readonly RunHistoryEntry[] = Object.freeze([]);
const noFields: readonly FormField[] = Object.freeze([]);

/**
 * The console's controller, framework-free: give it the agent and its schemas as they load
 * (`setAgent`); it picks the mode and creates only that mode's engine (a run stream and its history
 * for a form agent, a conversation for a chat agent). It owns the chosen answer, retry, clear, the
 * form's reset and field errors and tool authorizations. Its first subscriber, or `connect()`,
 * starts observing; after the last one (a microtask later, unless one came back) and the
 * disconnect it ends what runs. Fits `useSyncExternalStore`.
 *
 * @example
 * const controller = createAgentConsoleController(client, 'helpdesk', { navigation });
 * const disconnect = controller.connect();
 * controller.setAgent(await client.getAgent('helpdesk'), await client.getAgentSchemas('helpdesk'));
 * await controller.send('Hello');
 */
export class AgentConsoleController {
  /** The agent this console is for. */
  readonly agentId: string | undefined;
  #client: AgentClient;
  #options: AgentConsoleControllerOptions;
  // Connected from the first subscriber (connect() is one) to the last, a grace later.
  readonly #listeners = new ListenerSet({
    onFirst: () => this.#connect(),
    onLast: () => this.#disconnect(),
  });
  #agent: Agent | undefined;
  #inputSchema: unknown;
  #fields: readonly FormField[] = noFields;
  #mode: AgentConsoleMode | undefined;
  #form: FormEngine | undefined;
  #chat: AgentConversation | undefined;
  #connected = false;
  #detach: (() => void) | undefined;
  #selectedAnswerId: string | undefined;
  #authorizations: ToolAuthorizations = { error: undefined, states: noToolStates };
  #resetKey = 0;
  #formDefaults: Record<string, unknown> | undefined;
  /** Bumped by every change of the controller's own state. */
  #version = 0;
  #built: { inputs: readonly unknown[]; snapshot: AgentConsoleSnapshot } | undefined;
  #fieldErrors:
    | { error: unknown; fields: readonly FormField[]; value: Record<string, string> | undefined }
    | undefined;

  constructor(
    client: AgentClient,
    agentId: string | undefined,
    options: AgentConsoleControllerOptions = {},
  ) {
    this.#client = client;
    this.agentId = agentId;
    this.#options = options;
  }

  /**
   * The agent record and schemas as they load (either may be `undefined`). The first time the mode
   * is known, its engine is created (nothing is sent); the other mode's never is. Publishes the
   * change in a microtask, so it may be called while rendering.
   */
  setAgent(agent: Agent | undefined, schemas: AgentSchemas | undefined): void {
    let changed = false;
    if (agent !== this.#agent) {
      this.#agent = agent;
      changed = true;
    }
    const inputSchema = schemas?.input_schema;
    if (inputSchema !== this.#inputSchema) {
      this.#inputSchema = inputSchema;
      this.#fields = formFieldsFromSchema(inputSchema);
      changed = true;
    }
    const mode = agentConsoleModeOf(agent, schemas);
    if (mode !== undefined && mode !== this.#mode) {
      this.#replaceEngine(mode);
      changed = true;
    }
    if (!changed) return;
    this.#version++;
    queueMicrotask(() => this.#notify());
  }

  /** Replaces the options; an owned run stream takes the new run options at once. */
  setOptions(options: AgentConsoleControllerOptions): void {
    this.#options = options;
    if (this.#form?.owned === true) this.#form.stream.setOptions(streamOptionsOf(options));
  }

  /** The client of tool authorizations, and of the next run unless `runOptions.client` is set. */
  setClient(client: AgentClient): void {
    this.#client = client;
    const runClient = this.#options.runOptions?.client ?? client;
    if (this.#form?.owned === true) this.#form.stream.setClient(runClient);
    this.#chat?.setClient(runClient);
  }

  /**
   * Starts observing the engine (the run callbacks, the run history), as a subscriber does: it
   * holds the controller connected. Returns the function that lets go; after the last one (a
   * microtask later, unless another came) a run under way of an engine the controller owns ends.
   */
  connect(): () => void {
    return this.#listeners.subscribe(() => undefined);
  }

  #connect() {
    if (this.#connected) return;
    this.#connected = true;
    this.#attach();
  }

  /** Stops observing and ends what runs; the engine stays usable (a later subscriber connects). */
  #disconnect() {
    this.#connected = false;
    this.#detach?.();
    this.#detach = undefined;
    if (this.#form?.owned === true) this.#form.stream.abort();
    this.#chat?.dispose();
  }

  getSnapshot = (): AgentConsoleSnapshot => {
    const formRun = this.#form?.stream.getSnapshot();
    const chat = this.#chat?.getSnapshot();
    const history = this.#form?.history.getSnapshot() ?? noHistory;
    const inputs = [formRun, chat, history, this.#version];
    const built = this.#built;
    if (built !== undefined && inputs.every((input, index) => input === built.inputs[index])) {
      return built.snapshot;
    }
    const snapshot = this.#build(formRun, chat, history);
    this.#built = { inputs, snapshot };
    return snapshot;
  };

  /** Calls `listener` after each change; the first subscriber connects, as `connect()` does. */
  subscribe = this.#listeners.subscribe;

  /** Runs a form agent with `input` (checked against its fields first). */
  start = (input: Record<string, unknown>): Promise<RunSnapshot> | undefined => {
    const form = this.#form;
    if (this.agentId === undefined || form === undefined) return undefined;
    const { metadata } = this.#options;
    const request: RunStartRequest = {
      agentId: this.agentId,
      ...(metadata ? { metadata } : {}),
      input,
      check: this.#checkInput,
    };
    return this.#endUnlessObserved(form.stream.start(request));
  };

  /** Refuses an input missing the agent's form fields before anything is sent. */
  #checkInput = (request: AgentRunRequest): void => {
    assertCompleteInput(this.#fields, request.input);
  };

  /**
   * Runs again: a form agent's last request (when nothing runs), or a chat agent's last USER
   * message (throws an `AgentConversationBusyError` while a turn runs).
   */
  retry = (): Promise<RunSnapshot | ConversationSnapshot> | undefined => {
    if (this.#chat !== undefined) {
      this.#select(undefined);
      return this.#endUnlessObserved(this.#chat.retry());
    }
    const form = this.#form;
    const request = form?.stream.getSnapshot().request;
    if (form === undefined || this.getSnapshot().active || request === undefined) return undefined;
    return this.#endUnlessObserved(form.stream.start({ ...request, check: this.#checkInput }));
  };

  /**
   * Clears: a chat agent's thread, or a form agent's run (and the form starts over). Does nothing
   * when there is nothing to clear; a form run under way must be stopped first.
   */
  clear = (): void => {
    const chat = this.#chat;
    if (chat !== undefined) {
      const { messages, run } = chat.getSnapshot();
      if (messages.length === 0 && run.status === 'idle') return;
      this.#select(undefined);
      chat.clear();
      return;
    }
    const form = this.#form;
    if (form === undefined) return;
    const { status } = form.stream.getSnapshot();
    if (activeRunStatuses.has(status) || status === 'idle') return;
    form.stream.reset();
    this.#formDefaults = undefined;
    this.#resetKey++;
    this.#changed();
  };

  /** Stops the run or the turn under way (a chat answer keeps its partial text). */
  stop = (): void => {
    this.#form?.stream.abort();
    this.#chat?.stop();
  };

  /** Sends a chat message (throws while a turn runs, or for blank text). */
  send = (text: string): Promise<ConversationSnapshot> | undefined =>
    this.#onChat((chat) => chat.send(text));

  /**
   * Edits a USER message of the thread and sends again, in one step while a turn runs (it is
   * stopped first); what followed the message is kept as the version before.
   */
  edit = (messageId: string, text: string): Promise<ConversationSnapshot> | undefined =>
    this.#onChat((chat) => chat.edit(messageId, text, { stopRunning: true }));

  /** Writes an answer again (default: the last), keeping the previous one as a version. */
  regenerate = (answerId?: string): Promise<ConversationSnapshot> | undefined =>
    this.#onChat((chat) => chat.regenerate(answerId, { stopRunning: true }));

  /** Shows another version of the thread (`conversation.versions`); throws while a turn runs. */
  showVersion = (messageId: string): void => {
    void this.#onChat((chat) => Promise.resolve(chat.showVersion(messageId)));
  };

  #onChat(change: (chat: AgentConversation) => Promise<ConversationSnapshot>) {
    if (this.#chat === undefined) return undefined;
    this.#select(undefined);
    return this.#endUnlessObserved(change(this.#chat));
  }

  /**
   * Answers the approvals a chat agent's durable turn waits for (`pendingInteractions`): one decision
   * per approval of the batch shown. Never rejects: how it went is `approvalStatus` and
   * `approvalError` (a 409 is not sent again; a 503 or network error sends the identical batch
   * again first). Sends nothing while an answer is being sent; `undefined` for a form agent.
   */
  respond = (
    decisions: readonly DurableRunDecision[],
  ): Promise<ConversationSnapshot> | undefined => {
    const chat = this.#chat;
    if (chat === undefined) return undefined;
    // How the answer goes is the turn's `approvalStatus` and `approvalError`.
    if (chat.getSnapshot().approvalStatus === 'responding') {
      return Promise.resolve(chat.getSnapshot());
    }
    const settled = () => chat.getSnapshot();
    return chat.respond(decisions).then(settled, settled);
  };

  /** Shows the run of an answer (its events); the same id again goes back to the latest turn. */
  selectAnswer = (messageId: string): void => {
    this.#select(this.#selectedAnswerId === messageId ? undefined : messageId);
  };

  /** Fills the form with a history entry's input (the person runs it). */
  runAgain = (entry: RunHistoryEntry): void => {
    this.#formDefaults = entry.input ? formValuesOf(entry.input, this.#fields) : undefined;
    this.#resetKey++;
    this.#changed();
  };

  /**
   * Authorizes a tool the shown error asks for: asks the service for its sign-in page (refusing a
   * URL that is not http(s)) and opens it as `toolAuthorization` says. Never rejects: a failure is
   * the tool's state.
   */
  authorizeTool = async (tool: AgentErrorTool): Promise<void> => {
    const serverId = tool.serverId;
    if (serverId === undefined) return;
    const error = this.getSnapshot().run.error;
    const update = (state: ToolAuthorizationState) => {
      const previous = this.#authorizations;
      this.#authorizations = {
        error,
        states: { ...(previous.error === error ? previous.states : {}), [serverId]: state },
      };
      this.#changed();
    };
    await authorizeToolServer(this.#client, serverId, tool, this.#options, update);
  };

  #replaceEngine(mode: AgentConsoleMode) {
    const options = this.#options;
    const runOptions = options.runOptions ?? {};
    const runClient = runOptions.client ?? this.#client;
    // Created before the old engine goes: a malformed `initialMessages` throws here, changing nothing.
    let form: FormEngine | undefined;
    let chat: AgentConversation | undefined;
    if (mode === 'form') {
      const shared = runOptions.stream;
      const stream = shared ?? new RunStream(runClient, streamOptionsOf(options));
      const history = new RunHistory(stream, { limit: options.runHistoryLimit });
      form = { stream, owned: shared === undefined, history };
    } else {
      // A chat agent's mode is known only once the agent loaded, so its id is known too.
      const agentId = this.agentId ?? '';
      chat = new AgentConversation(runClient, {
        ...streamOptionsOf(options),
        agentId,
        metadata: options.metadata,
        initialMessages: options.initialMessages,
        executionMode: options.executionMode,
        ...threadOptionsOf(options, agentId),
        durableRun: options.durableRun,
        onMessagesChange: (messages) => this.#options.onMessagesChange?.(messages),
      });
    }
    this.#detach?.();
    this.#detach = undefined;
    if (this.#form?.owned === true) this.#form.stream.abort();
    this.#chat?.dispose();
    this.#form = form;
    this.#chat = chat;
    this.#mode = mode;
    if (this.#connected) this.#attach();
  }

  #attach() {
    const callbacks: RunStreamCallbacks = {
      onEvent: (event) => this.#options.runOptions?.onEvent?.(event),
      onStatusChange: (status, snapshot) =>
        this.#options.runOptions?.onStatusChange?.(status, snapshot),
      onDone: (snapshot) => this.#options.runOptions?.onDone?.(snapshot),
      onError: (error, snapshot) => this.#options.runOptions?.onError?.(error, snapshot),
    };
    const notify = () => this.#notify();
    if (this.#form !== undefined) {
      const { stream, history } = this.#form;
      const stops = [
        stream.observe(callbacks),
        history.connect(),
        stream.subscribe(notify),
        history.subscribe(notify),
      ];
      this.#detach = () => stops.forEach((stop) => stop());
    } else if (this.#chat !== undefined) {
      // Loads the thread (once), and after StrictMode's disconnect watches a durable turn again;
      // its disconnect (dispose) is what the controller's disconnect and an engine change call.
      this.#chat.connect();
      const stops = [this.#chat.stream.observe(callbacks), this.#chat.subscribe(notify)];
      this.#detach = () => stops.forEach((stop) => stop());
    }
  }

  /**
   * A run started while disconnected (a stale closure after the view went away) is ended before
   * its request goes out; one started between StrictMode's two mounts goes on.
   */
  #endUnlessObserved<Result>(done: Promise<Result>): Promise<Result> {
    this.#listeners.stopUnlessObserved();
    return done;
  }

  #select(messageId: string | undefined) {
    if (messageId === this.#selectedAnswerId) return;
    this.#selectedAnswerId = messageId;
    this.#changed();
  }

  #changed() {
    this.#version++;
    this.#notify();
  }

  #notify() {
    this.#listeners.notify();
  }

  #build(
    formRun: RunSnapshot | undefined,
    chat: ConversationSnapshot | undefined,
    history: readonly RunHistoryEntry[],
  ): AgentConsoleSnapshot {
    const mode = this.#mode;
    const selectedRun =
      this.#selectedAnswerId === undefined ? undefined : chat?.runs.get(this.#selectedAnswerId);
    const run = formRun ?? selectedRun ?? chat?.run ?? initialRunSnapshot;
    const engineRun = formRun ?? chat?.run ?? initialRunSnapshot;
    // A durable turn has no stream run: the conversation says whether it is under way.
    const active =
      activeRunStatuses.has(engineRun.status) ||
      (chat !== undefined && chat.status !== 'idle' && chat.status !== 'loading');
    const toolStates =
      this.#authorizations.error === run.error ? this.#authorizations.states : noToolStates;
    return {
      mode,
      fields: this.#fields,
      run,
      status: selectedRun === undefined && chat !== undefined ? chat.turnStatus : run.status,
      selectedAnswerId: this.#selectedAnswerId,
      showsSelectedAnswer: selectedRun !== undefined,
      active,
      conversation: chat,
      pendingInteractions: chat?.pendingInteractions ?? noApprovals,
      approvalStatus: chat?.approvalStatus ?? 'idle',
      approvalError: chat?.approvalError,
      history,
      form: {
        resetKey: this.#resetKey,
        defaultValues: this.#formDefaults,
        errors: this.#fieldErrorsFor(formRun?.error),
      },
      toolStates,
      toolOpened: Object.values(toolStates).some((state) => state.status === 'opened'),
      canRetry:
        formRun !== undefined &&
        !active &&
        formRun.request !== undefined &&
        (formRun.status === 'error' || formRun.status === 'aborted'),
      // Clear while an answer streams would throw the answer away mid-sentence: Stop comes first.
      canClear:
        !active &&
        (chat !== undefined
          ? chat.messages.length > 0 || chat.run.status !== 'idle'
          : formRun !== undefined && formRun.status !== 'idle'),
    };
  }

  /** The same object while the error and the fields are (a form shows new messages on change). */
  #fieldErrorsFor(error: unknown): Record<string, string> | undefined {
    const memo = this.#fieldErrors;
    if (memo !== undefined && memo.error === error && memo.fields === this.#fields) {
      return memo.value;
    }
    const value = fieldErrorsOf(error, this.#fields);
    this.#fieldErrors = { error, fields: this.#fields, value };
    return value;
  }
}

/** The run stream's own options: the callbacks are observed (called once), not passed. */
function streamOptionsOf(options: AgentConsoleControllerOptions): RunStreamOptions {
  const streamOptions: AgentConsoleRunOptions = { ...options.runOptions };
  for (const key of notStreamOptions) delete streamOptions[key];
  return streamOptions;
}

/**
 * A chat agent's thread store and id: the given ones, or for durable turns (which outlive the
 * page) a localStorage store and one thread per agent, so a reload finds the thread and its turn.
 */
function threadOptionsOf(
  options: AgentConsoleControllerOptions,
  agentId: string,
): Pick<AgentConversationOptions, 'threadStore' | 'threadId'> {
  const { threadStore, threadId, executionMode } = options;
  if (threadStore !== undefined || executionMode !== 'durable' || !hasPageStorage()) {
    return { threadStore, threadId };
  }
  return {
    threadStore: createDeferredThreadStore(),
    threadId: threadId ?? `console:${agentId}`,
  };
}

/** The page has a localStorage (not a server, a worker or a sandboxed frame). */
function hasPageStorage(): boolean {
  try {
    const storage = (globalThis as { localStorage?: { getItem?: unknown } }).localStorage;
    return browserWindow() !== undefined && typeof storage?.getItem === 'function';
  } catch {
    return false;
  }
}

const notStreamOptions = [
  'client',
  'stream',
  'onEvent',
  'onStatusChange',
  'onDone',
  'onError',
] as const satisfies readonly (keyof AgentConsoleRunOptions)[];

/**
 * Messages for form fields from a refused input (`AgentInputError`: "Fill in this field.") or a
 * problem detail's `errors[]` (`/input/<name>` pointers to known fields).
 *
 * @example
 * <AgentInputForm fields={fields} errors={fieldErrorsOf(run.error, fields)} onSubmit={…} />
 */
export function fieldErrorsOf(
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

/**
 * Creates the console's controller for one agent ({@link AgentConsoleController}): nothing is sent
 * until `connect()` and `setAgent(…)`.
 */
export function createAgentConsoleController(
  client: AgentClient,
  agentId: string | undefined,
  options: AgentConsoleControllerOptions = {},
): AgentConsoleController {
  return new AgentConsoleController(client, agentId, options);
}
