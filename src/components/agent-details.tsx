import {
  forwardRef,
  useId,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type ReactNode,
  type RefAttributes,
} from 'react';
import type { Agent } from '../core/wire/schemas.js';
import { classNames, named } from './part-helpers.js';

/** Props of {@link AgentDetails}. */
export interface AgentDetailsProps
  extends ComponentPropsWithoutRef<'section'>, RefAttributes<HTMLElement> {
  /** The agent record, e.g. `useAgent(id).data`. */
  agent: Agent;
  /**
   * The heading level of the agent's name, to fit the page's outline.
   * @default 2
   */
  headingLevel?: 1 | 2 | 3 | 4 | 5 | 6;
  /**
   * Shown after the facts: the agent's tools (`<AgentTools>`, which the console puts here).
   * @default undefined
   */
  children?: ReactNode;
}

const capabilityLabels: Record<string, string> = {
  'ap.io.messages': 'Takes messages',
  'ap.io.streaming': 'Streams its output',
};

/** A capability's label, else its key (own labels only: the key is the wire's). */
function capabilityLabel(key: string): string {
  return (Object.hasOwn(capabilityLabels, key) ? capabilityLabels[key] : undefined) ?? key;
}

/**
 * An agent's name, description, id and capabilities, as plain text (nothing is rendered as HTML),
 * then its `children` (its tools: `<AgentTools>`).
 *
 * @example
 * const { data: agent } = useAgent('my-agent');
 * return agent ? <AgentDetails agent={agent} /> : null;
 */
export const AgentDetails = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLElement, AgentDetailsProps>(AgentDetailsRender),
  'AgentDetails',
);

function AgentDetailsRender(
  { agent, headingLevel = 2, className, children, ...rest }: AgentDetailsProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const Heading = `h${headingLevel}` as const;
  const headingId = useId();
  const capabilities = Object.entries(agent.capabilities ?? {});
  return (
    <section
      ref={ref}
      aria-labelledby={headingId}
      className={classNames('ack-root', 'ack-agent-details', className)}
      {...rest}
    >
      <Heading id={headingId} className="ack-agent-details__name">
        {agent.name}
      </Heading>
      {agent.description ? (
        <p className="ack-agent-details__description">{agent.description}</p>
      ) : null}
      <dl className="ack-agent-details__facts">
        <dt>Agent id</dt>
        <dd>
          <code>{agent.agent_id}</code>
        </dd>
        <dt>Capabilities</dt>
        <dd>
          {capabilities.length === 0 ? (
            'None declared'
          ) : (
            <ul className="ack-agent-details__capabilities">
              {capabilities.map(([key, value]) => (
                <li key={key} data-capability={key} data-enabled={value === true ? '' : undefined}>
                  {capabilityLabel(key)}: {formatCapability(value)}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      {children}
    </section>
  );
}

function formatCapability(value: unknown): string {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? String(value);
}
