import {
  forwardRef,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  type ComponentPropsWithoutRef,
  type FocusEvent,
  type ForwardedRef,
  type RefAttributes,
  type UIEvent,
} from 'react';
import { useThreadContext } from './agent-thread-context.js';
import { classNames, dataFlag, useComposedRefs, named } from './part-helpers.js';
import { useFollowEnd } from './use-follow-end.js';

/** Props of {@link AgentThreadViewport}. */
export interface AgentThreadViewportProps
  extends ComponentPropsWithoutRef<'div'>, RefAttributes<HTMLDivElement> {
  /**
   * The height of the scrolling area (a number is pixels); `undefined` lets the CSS decide.
   * @default undefined
   */
  height?: number | string;
}

/** How close to the bottom (px) still counts as "at the bottom": following continues. */
const bottomThreshold = 32;

/**
 * The scrolling area of a thread. It follows the newest message while the reader is at the bottom;
 * scrolling up stops following and shows "Jump to the newest message". A control focused inside it
 * (Copy, Edit, an open editor, ‹ ›) stays in view while it follows: it follows as far as that
 * allows, and to the end once focus leaves. It never moves focus on its own. Carries `data-following`. Its props and its `ref` are the scrolling element's (the `log`).
 */
export const AgentThreadViewport = /* @__PURE__ */ named(
  /* @__PURE__ */ forwardRef<HTMLDivElement, AgentThreadViewportProps>(AgentThreadViewportRender),
  'AgentThreadViewport',
);

function AgentThreadViewportRender(
  { height, className, style, children, onScroll, onBlur, ...rest }: AgentThreadViewportProps,
  ref: ForwardedRef<HTMLDivElement>,
) {
  const { messages, shownFrom, scrollElement } = useThreadContext('AgentThreadViewport');
  const scrollRef = useRef<HTMLDivElement>(null);
  const registerScrollElement = useCallback(
    (element: HTMLDivElement | null) => {
      scrollElement.current = element;
    },
    [scrollElement],
  );
  const composedRef = useComposedRefs(ref, useComposedRefs(scrollRef, registerScrollElement));
  const {
    following,
    followingRef,
    handleScroll: followScroll,
    follow,
    scrollToEnd,
  } = useFollowEnd(bottomThreshold);
  const last = messages.at(-1);
  const empty = messages.length === 0;
  const someHidden = shownFrom > 0;

  // Every change of the newest message (a new one, a new token) keeps the bottom in view.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (following && element) scrollToEnd(element);
  }, [following, messages.length, last?.text, last?.status, scrollToEnd]);

  // Messages off screen are laid out lazily (content-visibility), so the content's height changes
  // after the scroll: while following, stay at the bottom.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || element.children.length === 0 || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (followingRef.current) scrollToEnd(element);
    });
    // The list, and "Show earlier messages" above it while some are hidden.
    for (const content of element.children) observer.observe(content);
    return () => observer.disconnect();
  }, [empty, someHidden, followingRef, scrollToEnd]);

  const handleScroll = (event: UIEvent<HTMLDivElement>) => {
    onScroll?.(event);
    followScroll(event.currentTarget);
  };

  // Following held a control focused in the list in view; once focus leaves the list, the end.
  const handleBlur = (event: FocusEvent<HTMLDivElement>) => {
    onBlur?.(event);
    const element = event.currentTarget;
    const next = event.relatedTarget;
    if (followingRef.current && !(next instanceof Node && element.contains(next))) {
      scrollToEnd(element);
    }
  };

  const jump = () => {
    follow();
    const element = scrollRef.current;
    if (element) {
      scrollToEnd(element);
      // The button goes away: focus goes to the thread rather than to the page's body.
      element.focus({ preventScroll: true });
    }
  };

  return (
    <div className="ack-thread__frame">
      {/* aria-live="off": tokens are not read as they arrive; the announcer reads a finished answer once. */}
      <div
        ref={composedRef}
        role="log"
        aria-live="off"
        aria-label="Messages"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        className={classNames('ack-thread__viewport', className)}
        data-following={dataFlag(following)}
        style={{ height, overflowY: 'auto', ...style }}
        onScroll={handleScroll}
        onBlur={handleBlur}
        {...rest}
      >
        {children}
      </div>
      {!following ? (
        <button type="button" className="ack-thread__jump" data-variant="primary" onClick={jump}>
          Jump to the newest message
        </button>
      ) : null}
    </div>
  );
}
