import { useCallback, useRef, useState, type RefObject } from 'react';

/** What {@link useFollowEnd} gives a scrolling list. */
export interface FollowEnd {
  /** Whether the view follows the end of the list. */
  following: boolean;
  /** The mark given to `handleScroll` when following stopped; `null` while following. */
  pausedAt: number | null;
  /** `following` of the last render, for observers that run outside React's render. */
  followingRef: RefObject<boolean>;
  /**
   * Reads a scroll of the list's element: at the end (within the threshold) following resumes;
   * the reader scrolling up stops it and keeps `mark` in `pausedAt`.
   */
  handleScroll: (element: HTMLElement, mark?: number) => void;
  /** Follows the end again (the caller scrolls there). */
  follow: () => void;
  /**
   * Scrolls `element` to its end, as following does: as far toward it as keeps a control focused
   * inside the list in view (the person's place is never scrolled away under them).
   */
  scrollToEnd: (element: HTMLElement) => void;
}

/**
 * Following the end of a scrolling list: it follows while the reader is at the end, stops when
 * they scroll up and resumes when they come back down. `threshold` is how close to the end (px)
 * still counts as "at the end".
 */
export function useFollowEnd(threshold: number): FollowEnd {
  const [pausedAt, setPausedAt] = useState<number | null>(null);
  const following = pausedAt === null;
  const followingRef = useRef(following);
  followingRef.current = following;
  const lastScrollTop = useRef(0);

  const handleScroll = useCallback(
    (element: HTMLElement, mark = 0) => {
      const atEnd = element.scrollHeight - element.clientHeight - element.scrollTop <= threshold;
      const movedUp = element.scrollTop < lastScrollTop.current;
      lastScrollTop.current = element.scrollTop;
      // Only the reader scrolling up stops following; content growing below does not.
      if (atEnd) {
        if (!followingRef.current) setPausedAt(null);
      } else if (followingRef.current && movedUp) {
        setPausedAt(mark);
      }
    },
    [threshold],
  );
  const follow = useCallback(() => setPausedAt(null), []);
  const scrollToEnd = useCallback((element: HTMLElement) => {
    element.scrollTop = followedTop(element);
    lastScrollTop.current = element.scrollTop;
  }, []);

  return { following, pausedAt, followingRef, handleScroll, follow, scrollToEnd };
}

/** Room kept above a focused control that following brings to the top of the list. */
const focusMargin = 8;

/**
 * The end of `element`'s scroll, or short of it: where a control focused inside the list (an
 * answer's Copy, an open message editor, a version's ‹ ›) is still in view, at the top at most.
 */
function followedTop(element: HTMLElement): number {
  const focused = element.ownerDocument.activeElement;
  // Past the end: the browser stops at it.
  if (!(focused instanceof HTMLElement) || focused === element || !element.contains(focused)) {
    return element.scrollHeight;
  }
  const end = element.scrollHeight - element.clientHeight;
  const focusedTop =
    focused.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop;
  return Math.max(0, Math.min(end, focusedTop - focusMargin));
}
