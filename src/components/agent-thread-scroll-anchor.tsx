import { Component, type RefObject } from 'react';

/** A message on screen and where it was (its top, in the viewport's coordinates). */
interface ScrollAnchorSnapshot {
  element: Element;
  top: number;
}

interface ScrollAnchorProps {
  shownFrom: number;
  list: RefObject<HTMLOListElement | null>;
  scroller: RefObject<HTMLElement | null>;
}

/**
 * Keeps the first message in view where it is when the messages shown change at the top (a page
 * revealed above it, the oldest shown leaving as a turn arrives): the scroll moves by as much as
 * the messages did. A class for `getSnapshotBeforeUpdate`, the one place that reads the layout
 * before React changes the DOM. The browser's scroll anchoring (`overflow-anchor`, where there is
 * one) misses a page added while the reader is at the top, and some removals above (a test in
 * Chromium shows both); it still keeps the place when messages off screen are laid out late.
 */
export class ScrollAnchor extends Component<ScrollAnchorProps> {
  override getSnapshotBeforeUpdate(previous: ScrollAnchorProps): ScrollAnchorSnapshot | null {
    if (previous.shownFrom === this.props.shownFrom) return null;
    const list = this.props.list.current;
    if (!list) return null;
    const scroller = this.props.scroller.current;
    const viewTop = scroller ? scroller.getBoundingClientRect().top : 0;
    for (const element of list.children) {
      const box = element.getBoundingClientRect();
      if (box.bottom > viewTop) return { element, top: box.top };
    }
    return null;
  }

  override componentDidUpdate(
    _previous: ScrollAnchorProps,
    _state: unknown,
    snapshot: ScrollAnchorSnapshot | null,
  ) {
    if (!snapshot?.element.isConnected) return;
    const moved = snapshot.element.getBoundingClientRect().top - snapshot.top;
    if (moved === 0) return;
    const scroller = this.props.scroller.current;
    if (scroller) scroller.scrollTop += moved;
    else window.scrollBy(0, moved);
  }

  override render() {
    return null;
  }
}
