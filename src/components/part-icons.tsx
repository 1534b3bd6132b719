import { Icon } from './icons.js';

// The icons of the parts the console loads on demand (the event log, the input form), apart from
// the icons the page draws: a module that the page and such a part both import is on the page with
// all the part uses of it (docs/decisions/0017-no-lazy-copies.md).

export const PlayIcon = () => (
  <Icon>
    <path d="M4.5 3.2v9.6a.4.4 0 0 0 .6.35l7.7-4.8a.4.4 0 0 0 0-.7l-7.7-4.8a.4.4 0 0 0-.6.35Z" />
  </Icon>
);

export const CopyIcon = () => (
  <Icon>
    <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
    <path d="M10.5 3.5v-.25A1.25 1.25 0 0 0 9.25 2h-6A1.25 1.25 0 0 0 2 3.25v6A1.25 1.25 0 0 0 3.25 10.5h.25" />
  </Icon>
);

export const DownloadIcon = () => (
  <Icon>
    <path d="M8 2.5v8M4.5 7 8 10.5 11.5 7M3 13.5h10" />
  </Icon>
);

export const ChevronIcon = () => (
  <Icon>
    <path d="M6 4l4 4-4 4" />
  </Icon>
);
