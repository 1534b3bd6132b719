import type { ReactNode } from 'react';

/**
 * Small inline icons (16 px, `currentColor`, hidden from assistive technology: the button's text
 * is its name). Drawn here rather than taken from an icon library: nine paths do not earn a
 * dependency.
 */
export function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="ack-icon"
      width="16"
      height="16"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const SendIcon = () => (
  <Icon>
    <path d="M8 13V3M3.5 7.5 8 3l4.5 4.5" />
  </Icon>
);

export const StopIcon = () => (
  <Icon>
    <rect x="4" y="4" width="8" height="8" rx="1.5" fill="currentColor" stroke="none" />
  </Icon>
);

export const RetryIcon = () => (
  <Icon>
    <path d="M2.75 8a5.25 5.25 0 1 0 1.6-3.77M2.75 2.5v2.75H5.5" />
  </Icon>
);

export const ClearIcon = () => (
  <Icon>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Icon>
);

export const AlertIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="6.25" />
    <path d="M8 4.75v3.75M8 11.1v.15" />
  </Icon>
);

export const KeyIcon = () => (
  <Icon>
    <circle cx="5.5" cy="10.5" r="3" />
    <path d="M7.6 8.4 13.5 2.5M11.5 4.5l1.5 1.5M10 6l1.25 1.25" />
  </Icon>
);

export const SearchIcon = () => (
  <Icon>
    <circle cx="7" cy="7" r="4.25" />
    <path d="m10.25 10.25 3.25 3.25" />
  </Icon>
);
