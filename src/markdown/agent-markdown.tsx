import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';

/** Props of {@link AgentMarkdown}. */
export interface AgentMarkdownProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The Markdown text (e.g. `useAgentRunStream().text`). */
  text: string;
  /**
   * Where links open: `'_blank'` a new tab or window (the console stays where it is), `'_self'`
   * this one. Either way links carry `rel="noopener noreferrer nofollow"`.
   * @default '_blank'
   */
  linkTarget?: '_blank' | '_self';
}

const allowedProtocols = new Set(['http:', 'https:', 'mailto:']);

/**
 * The URL a Markdown link may point at, or `undefined` to drop it: `http:`, `https:` and
 * `mailto:` URLs and relative ones are kept; `javascript:`, `data:`, `vbscript:`, `file:` and every
 * other scheme are dropped (also when hidden with case, whitespace or control characters).
 *
 * @example
 * safeMarkdownUrl('javascript:alert(1)'); // undefined
 */
export function safeMarkdownUrl(url: string): string | undefined {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020\u007f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1];
  if (scheme === undefined) {
    // Relative (or protocol-relative) URLs: no scheme of their own to abuse.
    return compact.startsWith('//') ? `https:${compact}` : url;
  }
  return allowedProtocols.has(`${scheme.toLowerCase()}:`) ? url : undefined;
}

function componentsFor(linkTarget: '_blank' | '_self'): Components {
  return {
    a: ({ href, children }) =>
      href === undefined || href === '' ? (
        <span className="ack-markdown__dropped-link">{children}</span>
      ) : (
        <a href={href} target={linkTarget} rel="noopener noreferrer nofollow">
          {children}
        </a>
      ),
    // An image would load a URL chosen by the agent (a tracking pixel): shown as a link instead.
    img: ({ src, alt }) => {
      const label = alt === undefined || alt === '' ? 'image' : alt;
      return typeof src === 'string' && src !== '' ? (
        <a href={src} target={linkTarget} rel="noopener noreferrer nofollow">
          {`[${label}]`}
        </a>
      ) : (
        <span>{`[${label}]`}</span>
      );
    },
  };
}

const blankComponents = componentsFor('_blank');
const selfComponents = componentsFor('_self');

/**
 * Agent output rendered as Markdown (CommonMark, by `react-markdown`), safely: raw HTML in the
 * text is never rendered (it shows as text), links keep only `http:`, `https:`, `mailto:` and
 * relative URLs (`javascript:` and `data:` links lose their link), links open with
 * `rel="noopener noreferrer nofollow"`, and images become links (nothing loads on its own).
 * Carries the class `ack-markdown`.
 *
 * @example
 * import { AgentMarkdown } from 'agent-console-kit/markdown';
 * <AgentMarkdown text={run.text} />
 */
export function AgentMarkdown({
  text,
  linkTarget = '_blank',
  className,
  ...rest
}: AgentMarkdownProps) {
  return (
    <div className={className ? `ack-markdown ${className}` : 'ack-markdown'} {...rest}>
      <Markdown
        skipHtml={false}
        urlTransform={(url) => safeMarkdownUrl(url) ?? ''}
        components={linkTarget === '_self' ? selfComponents : blankComponents}
      >
        {text}
      </Markdown>
    </div>
  );
}

/**
 * `renderText` for `AgentRunOutput` / `AgentConsole` (and the thread's message slot): the text as
 * {@link AgentMarkdown}.
 *
 * @example
 * <AgentConsole agentId="my-agent" renderText={renderMarkdown} />
 */
export function renderMarkdown(text: string): ReactNode {
  return <AgentMarkdown text={text} />;
}
