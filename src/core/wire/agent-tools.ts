/**
 * An agent's tools as a person asks about them before a run: what the agent reads, what it can
 * change, what is not set up yet, and what may ask for the person's own authorization. Pure data,
 * no React; the authorization of a tool ahead of a run is {@link AgentToolAuthorizations}.
 */
import type { AgentClient } from './agent-client.js';
import type { AgentTool } from './schemas.js';
import { ListenerSet, type Subscribable } from '../base/subscribable.js';
import {
  authorizeToolServer,
  type AgentErrorTool,
  type ToolAuthorizationNavigation,
  type ToolAuthorizationOpening,
  type ToolAuthorizationState,
} from './tool-authorization.js';

/** What a tool does to data: `type` `RETRIEVAL` reads, `ACTION` changes; `'unknown'` otherwise. */
export type AgentToolKind = 'reads' | 'changes' | 'unknown';

/**
 * How a write action acts: `'redirect'` opens the service's page (the person finishes there),
 * `'execution'` acts itself (an external call); `'unknown'` for another value.
 */
export type AgentToolWriteAction = 'redirect' | 'execution' | 'unknown';

/**
 * What a tool needs to be allowed, as its `auth_type` says: `'person'` the person's own sign-in
 * (`OAUTH_USER`: it may ask for their authorization; whether they gave it, the tool list does not
 * say), `'admin'` an admin's (`OAUTH_ADMIN`), `'credentials'` the deployment's (`API_KEY`,
 * `BASIC_AUTH`, `DWD`), `'none'` nothing (`NONE`), `'unknown'` not sent or another value.
 */
export type AgentToolAuthorization = 'person' | 'admin' | 'credentials' | 'none' | 'unknown';

/** One tool, read for a person. */
export interface AgentToolSummary {
  /** The tool as the service sent it (unknown values and fields kept). */
  tool: AgentTool;
  /** `tool_id`. */
  id: string;
  /** `display_name`, else the id. */
  name: string;
  kind: AgentToolKind;
  /** For a tool that changes data (or names a `write_action_type`); undefined otherwise. */
  writeAction: AgentToolWriteAction | undefined;
  /** `is_setup_finished`: false when the service says it is not set up yet; undefined when unsaid. */
  setUp: boolean | undefined;
  authorization: AgentToolAuthorization;
  /**
   * The tool server to authorize it with (`client.authorizeToolServer`), as the app's
   * `toolServerId` maps it. The service does not say how a tool maps to a tool server.
   */
  serverId: string | undefined;
}

/** An agent's tools, grouped (each list in the service's order; a tool may be in several). */
export interface AgentToolGroups {
  /** Every tool. */
  all: readonly AgentToolSummary[];
  /** What it reads (`RETRIEVAL`): its data sources. */
  reads: readonly AgentToolSummary[];
  /** What it can change (`ACTION`): write actions. */
  changes: readonly AgentToolSummary[];
  /** Tools of a type this version does not know, or of none. */
  other: readonly AgentToolSummary[];
  /** Tools the service says are not set up yet (`is_setup_finished: false`). */
  notSetUp: readonly AgentToolSummary[];
  /** Tools that may ask for the person's own authorization (`OAUTH_USER`). */
  needsAuthorization: readonly AgentToolSummary[];
}

/** Options of {@link groupAgentTools}. */
export interface GroupAgentToolsOptions {
  /**
   * The tool server of a tool, for its Authorize button ahead of a run. The service documents no
   * mapping from a tool (`tool_id`) to a tool server (the id a 422 names): only the app can know
   * it. Without one, a tool needing the person's authorization says it may ask for it, with no
   * button (the run's 422 still offers one).
   * @default undefined (no tool has a server id)
   */
  toolServerId?: ((tool: AgentTool) => string | undefined) | undefined;
}

/** The groups of no tools (frozen): what {@link groupAgentTools} gives for none. */
export const emptyAgentToolGroups: AgentToolGroups = Object.freeze({
  all: [],
  reads: [],
  changes: [],
  other: [],
  notSetUp: [],
  needsAuthorization: [],
});

function kindOf(type: unknown): AgentToolKind {
  if (type === 'RETRIEVAL') return 'reads';
  if (type === 'ACTION') return 'changes';
  return 'unknown';
}

function writeActionOf(kind: AgentToolKind, value: unknown): AgentToolWriteAction | undefined {
  if (value === 'REDIRECT') return 'redirect';
  if (value === 'EXECUTION') return 'execution';
  if (typeof value === 'string' && value !== '') return 'unknown';
  return kind === 'changes' ? 'unknown' : undefined;
}

function authorizationOf(value: unknown): AgentToolAuthorization {
  switch (value) {
    case 'OAUTH_USER':
      return 'person';
    case 'OAUTH_ADMIN':
      return 'admin';
    case 'API_KEY':
    case 'BASIC_AUTH':
    case 'DWD':
      return 'credentials';
    case 'NONE':
      return 'none';
    default:
      return 'unknown';
  }
}

/** One tool read for a person (see {@link AgentToolSummary}). */
export function summarizeAgentTool(
  tool: AgentTool,
  options: GroupAgentToolsOptions = {},
): AgentToolSummary {
  const kind = kindOf(tool.type);
  const serverId = options.toolServerId?.(tool);
  return {
    tool,
    id: tool.tool_id,
    name: tool.display_name.trim() === '' ? tool.tool_id : tool.display_name,
    kind,
    writeAction: writeActionOf(kind, tool.write_action_type),
    setUp: typeof tool.is_setup_finished === 'boolean' ? tool.is_setup_finished : undefined,
    authorization: authorizationOf(tool.auth_type),
    serverId: typeof serverId === 'string' && serverId.trim() !== '' ? serverId : undefined,
  };
}

/**
 * Groups an agent's tools (`schemas.tools`, asked for with `includeTools`) for a person: what it
 * reads, what it can change, what is not set up, what may ask for their authorization.
 *
 * @example
 * const { data } = useQuery(agentSchemasQueryOptions(client, id, { includeTools: true }));
 * const { changes, needsAuthorization } = groupAgentTools(data?.tools);
 */
export function groupAgentTools(
  tools: readonly AgentTool[] | null | undefined,
  options: GroupAgentToolsOptions = {},
): AgentToolGroups {
  if (!tools || tools.length === 0) return emptyAgentToolGroups;
  const all = tools.map((tool) => summarizeAgentTool(tool, options));
  return {
    all,
    reads: all.filter((summary) => summary.kind === 'reads'),
    changes: all.filter((summary) => summary.kind === 'changes'),
    other: all.filter((summary) => summary.kind === 'unknown'),
    notSetUp: all.filter((summary) => summary.setUp === false),
    needsAuthorization: all.filter((summary) => summary.authorization === 'person'),
  };
}

/** Options of {@link AgentToolAuthorizations}. */
export interface AgentToolAuthorizationsOptions {
  /**
   * How the sign-in page is opened: `'window'`, `'redirect'`, or a function of the app's own.
   * @default 'window'
   */
  toolAuthorization?: ToolAuthorizationOpening | undefined;
  /**
   * Where the service sends the browser back after consent (on the tenant's allowlist).
   * @default navigation.currentUrl()
   */
  authorizationReturnUrl?: string | undefined;
  /**
   * How a page is opened in this runtime (`useAgentTools` gives the browser's).
   * @default undefined (only a `toolAuthorization` function can open a page)
   */
  navigation?: ToolAuthorizationNavigation | undefined;
}

const noStates: Readonly<Record<string, ToolAuthorizationState>> = Object.freeze({});

/**
 * The authorization of tools ahead of a run: the same flow a run's 422 offers (ask the service for
 * the tool server's sign-in page, refuse a URL that is not http(s), open it), keyed by server id.
 * Its snapshot is where each server's authorization stands: `'opened'` says the sign-in page was
 * opened, never that the person finished there.
 */
export class AgentToolAuthorizations implements Subscribable<
  Readonly<Record<string, ToolAuthorizationState>>
> {
  readonly #listeners = new ListenerSet();
  #states = noStates;
  #client: AgentClient;
  #options: AgentToolAuthorizationsOptions;

  constructor(client: AgentClient, options: AgentToolAuthorizationsOptions = {}) {
    this.#client = client;
    this.#options = options;
  }

  subscribe = (listener: () => void): (() => void) => this.#listeners.subscribe(listener);

  getSnapshot = (): Readonly<Record<string, ToolAuthorizationState>> => this.#states;

  /** The client and options of the next authorization. */
  setOptions(client: AgentClient, options: AgentToolAuthorizationsOptions): void {
    this.#client = client;
    this.#options = options;
  }

  /**
   * Opens the sign-in page of a tool's server. Never rejects: a failure is the server's state. A
   * tool without a server id (no `toolServerId` mapping for it) does nothing.
   */
  authorize = async (summary: AgentToolSummary): Promise<void> => {
    const serverId = summary.serverId;
    if (serverId === undefined) return;
    const update = (state: ToolAuthorizationState) => {
      this.#states = { ...this.#states, [serverId]: state };
      this.#listeners.notify();
    };
    const tool: AgentErrorTool = { name: summary.name, serverId };
    await authorizeToolServer(this.#client, serverId, tool, this.#options, update);
  };
}
