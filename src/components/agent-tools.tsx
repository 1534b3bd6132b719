import {
  forwardRef,
  useId,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import {
  emptyAgentToolGroups,
  type AgentToolGroups,
  type AgentToolKind,
  type AgentToolSummary,
} from '../core/wire/agent-tools.js';
import type { ToolAuthorizationState } from '../core/wire/tool-authorization.js';
import { KeyIcon, RetryIcon } from './icons.js';
import { classNames, createPartContext, dataFlag, named } from './part-helpers.js';

/** Where the retrieval of the tools stands (`useAgentTools().status`). */
export type AgentToolsPartStatus = 'idle' | 'loading' | 'error' | 'ready';

type HeadingLevel = 2 | 3 | 4 | 5 | 6;

/** What the parts of an {@link AgentToolsRoot} share. */
interface ToolsContextValue {
  groups: AgentToolGroups;
  status: AgentToolsPartStatus;
  onRetry: (() => void) | undefined;
  onAuthorize: ((tool: AgentToolSummary) => void) | undefined;
  authorizations: Readonly<Record<string, ToolAuthorizationState>>;
  collapseAbove: number;
  headingLevel: HeadingLevel;
  headingId: string;
}

const [ToolsContext, useToolsContext] =
  /* @__PURE__ */ createPartContext<ToolsContextValue>('AgentTools');

const noAuthorizations: Readonly<Record<string, ToolAuthorizationState>> = {};

/** Props of {@link AgentToolsRoot} (and of {@link AgentTools}). */
export interface AgentToolsRootProps
  extends ComponentPropsWithoutRef<'section'>, RefAttributes<HTMLElement> {
  /**
   * The agent's tools, grouped: `useAgentTools(agentId)` (or `groupAgentTools(schemas.tools)`).
   * @default undefined (no tools yet)
   */
  groups?: AgentToolGroups | undefined;
  /**
   * Where their retrieval stands: `'loading'` says they are loading, `'error'` that they could
   * not be (with Try again when `onRetry` is given), `'idle'` shows nothing yet.
   * @default 'ready'
   */
  status?: AgentToolsPartStatus | undefined;
  /**
   * Retrieves the tools again, after an error.
   * @default undefined (no Try again)
   */
  onRetry?: (() => void) | undefined;
  /**
   * Shows "Authorize" beside each tool that may ask for the person's authorization and has a
   * tool server (`toolServerId`), and calls this with it (`useAgentTools().authorize`).
   * @default undefined (no button: the tool says it may ask for authorization)
   */
  onAuthorize?: ((tool: AgentToolSummary) => void) | undefined;
  /**
   * Where each tool server's authorization stands, by server id
   * (`useAgentTools().authorizations`).
   * @default {}
   */
  authorizations?: Readonly<Record<string, ToolAuthorizationState>> | undefined;
  /**
   * Above this many tools the list is collapsed behind a disclosure that gives their count.
   * @default 5
   */
  collapseAbove?: number | undefined;
  /**
   * The heading level of "Tools"; the groups' headings are one below.
   * @default 3
   */
  headingLevel?: 2 | 3 | 4 | 5 | 6 | undefined;
}

/**
 * The root of the tools part: a `<section>` named by its title, giving the parts the tools, their
 * status and the authorizations. Lay the parts out as children. Its `ref` is the `<section>`.
 */
export const AgentToolsRoot = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentToolsRootProps>(AgentToolsRootRender),
  'AgentTools.Root',
);

function AgentToolsRootRender(
  {
    groups = emptyAgentToolGroups,
    status = 'ready',
    onRetry,
    onAuthorize,
    authorizations = noAuthorizations,
    collapseAbove = 5,
    headingLevel = 3,
    className,
    children,
    ...rest
  }: AgentToolsRootProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const headingId = useId();
  const context: ToolsContextValue = {
    groups,
    status,
    onRetry,
    onAuthorize,
    authorizations,
    collapseAbove,
    headingLevel,
    headingId,
  };
  return (
    <section
      ref={ref}
      aria-labelledby={headingId}
      aria-busy={status === 'loading' || undefined}
      className={classNames('ack-root', 'ack-tools', className)}
      data-status={status}
      {...rest}
    >
      <ToolsContext.Provider value={context}>{children}</ToolsContext.Provider>
    </section>
  );
}

/** Props of {@link AgentToolsTitle}. */
export type AgentToolsTitleProps = ComponentPropsWithoutRef<'h3'> &
  RefAttributes<HTMLHeadingElement>;

/** The heading that names the part ("Tools" by default). Its `ref` is the heading. */
export const AgentToolsTitle = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLHeadingElement, AgentToolsTitleProps>(function AgentToolsTitle(
    { className, children, ...rest },
    ref,
  ) {
    const { headingLevel, headingId } = useToolsContext('AgentTools.Title');
    const Heading = `h${headingLevel}` as const;
    return (
      <Heading
        ref={ref}
        id={headingId}
        className={classNames('ack-tools__title', className)}
        {...rest}
      >
        {children ?? 'Tools'}
      </Heading>
    );
  }),
  'AgentTools.Title',
);

/** Props of {@link AgentToolsMessage}. */
export type AgentToolsMessageProps = ComponentPropsWithoutRef<'div'> &
  RefAttributes<HTMLDivElement>;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The summary sentence of the tools: what it reads, changes, lacks and may ask for. */
function summaryOf(groups: AgentToolGroups): string {
  const parts: string[] = [];
  if (groups.reads.length > 0)
    parts.push(`reads ${plural(groups.reads.length, 'source', 'sources')}`);
  if (groups.changes.length > 0) {
    parts.push(`can change data with ${plural(groups.changes.length, 'action', 'actions')}`);
  }
  const first = parts.length > 0 ? `This agent ${parts.join(' and ')}.` : '';
  const notSetUp =
    groups.notSetUp.length > 0
      ? ` ${plural(groups.notSetUp.length, 'tool is', 'tools are')} not set up yet.`
      : '';
  const authorization =
    groups.needsAuthorization.length > 0
      ? ` ${plural(groups.needsAuthorization.length, 'tool', 'tools')} may ask for your authorization.`
      : '';
  return `${first}${notSetUp}${authorization}`.trim();
}

/**
 * What the part has to say: the tools loading, failing (with Try again), none, or a summary of
 * them (what the agent reads and can change, what is not set up, what may ask for the person's
 * authorization). Its `ref` is the `<div>`.
 */
export const AgentToolsMessage = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentToolsMessageProps>(function AgentToolsMessage(
    { className, ...rest },
    ref,
  ) {
    const { status, groups, onRetry } = useToolsContext('AgentTools.Message');
    let content: ReactNode = null;
    if (status === 'loading') {
      content = (
        <p role="status" className="ack-tools__loading">
          Loading the agent’s tools…
        </p>
      );
    } else if (status === 'error') {
      content = (
        // Not an alert: the tools are information beside the console, not a failure of the task.
        <div className="ack-tools__error">
          <p>The agent’s tools could not be loaded.</p>
          {onRetry ? (
            <button type="button" data-variant="secondary" onClick={onRetry}>
              <RetryIcon />
              Try again
            </button>
          ) : null}
        </div>
      );
    } else if (status === 'ready') {
      content = (
        <p className="ack-tools__summary">
          {groups.all.length === 0 ? 'This agent uses no tools.' : summaryOf(groups)}
        </p>
      );
    }
    return (
      <div ref={ref} className={classNames('ack-tools__messages', className)} {...rest}>
        {content}
      </div>
    );
  }),
  'AgentTools.Message',
);

const groupLabels: Record<AgentToolKind, string> = {
  reads: 'What it reads',
  changes: 'What it can change',
  unknown: 'Other tools',
};

/** Props of {@link AgentToolsGroup}. */
export interface AgentToolsGroupProps
  extends ComponentPropsWithoutRef<'div'>, RefAttributes<HTMLDivElement> {
  /** Which tools: `'reads'` (`RETRIEVAL`), `'changes'` (`ACTION`), `'unknown'` (the others). */
  kind: AgentToolKind;
  /**
   * Renders each tool.
   * @default (tool) => <AgentTools.Item tool={tool} />
   */
  renderItem?: ((tool: AgentToolSummary) => ReactNode) | undefined;
}

/**
 * One group of tools under its heading ("What it reads", "What it can change", "Other tools");
 * nothing when the group is empty. Its `ref` is the `<div>`.
 */
export const AgentToolsGroup = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentToolsGroupProps>(function AgentToolsGroup(
    { kind, renderItem, className, ...rest },
    ref,
  ) {
    const { groups, headingLevel } = useToolsContext('AgentTools.Group');
    const headingId = useId();
    const tools =
      kind === 'reads' ? groups.reads : kind === 'changes' ? groups.changes : groups.other;
    if (tools.length === 0) return null;
    const Heading = `h${Math.min(headingLevel + 1, 6)}` as `h${HeadingLevel}`;
    return (
      <div
        ref={ref}
        className={classNames('ack-tools__group', className)}
        data-kind={kind}
        {...rest}
      >
        <Heading id={headingId} className="ack-tools__group-title">
          {groupLabels[kind]}
        </Heading>
        <ul className="ack-tools__list" aria-labelledby={headingId}>
          {tools.map((tool, index) => (
            <li key={`${tool.id}-${index}`} className="ack-tools__entry">
              {renderItem ? renderItem(tool) : <AgentToolsItem tool={tool} />}
            </li>
          ))}
        </ul>
      </div>
    );
  }),
  'AgentTools.Group',
);

/** Props of {@link AgentToolsItem}. */
export interface AgentToolsItemProps
  extends ComponentPropsWithoutRef<'div'>, RefAttributes<HTMLDivElement> {
  /** The tool (an entry of `groups.reads`, `.changes` or `.other`). */
  tool: AgentToolSummary;
}

const writeActionLabels = {
  redirect: 'Opens the service’s page to finish',
  execution: 'Acts directly',
  unknown: 'Changes data',
} as const;

const authorizationLabels = {
  person: 'May ask for your authorization',
  admin: 'Uses an admin’s sign-in',
  credentials: 'Uses the organization’s credentials',
} as const;

function authorizationStateText(state: ToolAuthorizationState): string {
  if (state.status === 'pending') return 'Opening the sign-in page…';
  if (state.status === 'opened') return 'Sign-in page opened: finish there, then ask.';
  return `Could not start: ${state.message ?? 'the service refused.'}`;
}

/**
 * One tool as plain text: its name, what it does (a write action says whether it opens the
 * service's page or acts directly), its data source, whether it is set up, what it needs to be
 * allowed, and an Authorize button for a tool that may ask for the person's authorization and has
 * a tool server. Its `ref` is the `<div>`.
 */
export const AgentToolsItem = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentToolsItemProps>(function AgentToolsItem(
    { tool, className, ...rest },
    ref,
  ) {
    const { onAuthorize, authorizations } = useToolsContext('AgentTools.Item');
    const state = tool.serverId === undefined ? undefined : authorizations[tool.serverId];
    const facts: { key: string; text: string }[] = [];
    if (tool.writeAction !== undefined) {
      facts.push({ key: 'write-action', text: writeActionLabels[tool.writeAction] });
    }
    const source = tool.tool.data_source;
    if (typeof source === 'string' && source.trim() !== '') {
      facts.push({ key: 'data-source', text: `Data: ${source}` });
    }
    if (tool.setUp === false) facts.push({ key: 'not-set-up', text: 'Not set up yet' });
    if (
      tool.authorization === 'person' ||
      tool.authorization === 'admin' ||
      tool.authorization === 'credentials'
    ) {
      // `may-ask`: the person's own authorization, which the wire cannot say was given.
      const key = tool.authorization === 'person' ? 'may-ask' : 'authorization';
      facts.push({ key, text: authorizationLabels[tool.authorization] });
    }
    const canAuthorize =
      onAuthorize !== undefined && tool.authorization === 'person' && tool.serverId !== undefined;
    return (
      <div
        ref={ref}
        className={classNames('ack-tools__item', className)}
        data-kind={tool.kind}
        data-write-action={tool.writeAction}
        data-not-set-up={dataFlag(tool.setUp === false)}
        data-authorization={tool.authorization}
        {...rest}
      >
        <span className="ack-tools__name">{tool.name}</span>
        {facts.length > 0 ? (
          <span className="ack-tools__facts">
            {facts.map((fact) => (
              <span key={fact.key} className="ack-tools__fact" data-fact={fact.key}>
                {fact.text}
              </span>
            ))}
          </span>
        ) : null}
        {canAuthorize ? (
          <button
            type="button"
            className="ack-tools__authorize"
            data-variant={state?.status === 'opened' ? 'secondary' : 'primary'}
            aria-label={`Authorize ${tool.name}`}
            disabled={state?.status === 'pending'}
            onClick={() => onAuthorize(tool)}
          >
            <KeyIcon />
            Authorize
          </button>
        ) : null}
        {state ? (
          <span className="ack-tools__auth-status" role="status" data-state={state.status}>
            {authorizationStateText(state)}
          </span>
        ) : null}
      </div>
    );
  }),
  'AgentTools.Item',
);

/** Props of {@link AgentToolsList}. */
export type AgentToolsListProps = ComponentPropsWithoutRef<'div'> & RefAttributes<HTMLDivElement>;

/**
 * The three groups, inside a disclosure ("Show all 6 tools") when there are more than
 * `collapseAbove` tools; nothing until the tools are there. Its `ref` is the `<div>`.
 */
export const AgentToolsList = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentToolsListProps>(function AgentToolsList(
    { className, ...rest },
    ref,
  ) {
    const { status, groups, collapseAbove } = useToolsContext('AgentTools.List');
    if (status !== 'ready' || groups.all.length === 0) return null;
    const content = (
      <>
        <AgentToolsGroup kind="reads" />
        <AgentToolsGroup kind="changes" />
        <AgentToolsGroup kind="unknown" />
      </>
    );
    const collapsed = groups.all.length > collapseAbove;
    return (
      <div
        ref={ref}
        className={classNames('ack-tools__groups', className)}
        data-collapsible={dataFlag(collapsed)}
        {...rest}
      >
        {collapsed ? (
          <details className="ack-tools__disclosure">
            <summary className="ack-tools__toggle">Show all {groups.all.length} tools</summary>
            {content}
          </details>
        ) : (
          content
        )}
      </div>
    );
  }),
  'AgentTools.List',
);

/** Props of {@link AgentTools} (its `children` are its parts: pass none). */
export type AgentToolsProps = AgentToolsRootProps;

/**
 * An agent's tools, as plain text (nothing from the service is rendered as HTML): a summary of
 * what it reads and can change, then each tool under "What it reads", "What it can change" or
 * "Other tools", with what it needs (not set up yet, may ask for your authorization, and an
 * Authorize button where the app maps the tool to its tool server). Collapsed behind a disclosure
 * with the count above `collapseAbove` tools. Built from the parts `AgentTools.Root`, `.Title`,
 * `.Message`, `.List`, `.Group`, `.Item`. Its `ref` is the `<section>`.
 *
 * @example
 * const tools = useAgentTools(agentId);
 * <AgentTools
 *   groups={tools}
 *   status={tools.status}
 *   onRetry={() => void tools.query.refetch()}
 *   onAuthorize={tools.authorize}
 *   authorizations={tools.authorizations}
 * />
 */
export const AgentTools = /* @__PURE__ */ Object.assign(
  /* @__PURE__ */ named(
    /* @__PURE__ */ forwardRef<HTMLElement, AgentToolsProps>(function AgentToolsRender(props, ref) {
      return (
        <AgentToolsRoot ref={ref} {...props}>
          <AgentToolsTitle />
          <AgentToolsMessage />
          <AgentToolsList />
        </AgentToolsRoot>
      );
    }),
    'AgentTools',
  ),
  {
    Root: AgentToolsRoot,
    Title: AgentToolsTitle,
    Message: AgentToolsMessage,
    List: AgentToolsList,
    Group: AgentToolsGroup,
    Item: AgentToolsItem,
  },
);
