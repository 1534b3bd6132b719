import type { ToolAuthorizationNavigation } from '../core/wire/tool-authorization.js';

/** How a browser opens a sign-in page: a new tab without `opener`, or this page going there. */
export const browserNavigation: ToolAuthorizationNavigation = {
  currentUrl: () => window.location.href,
  openWindow: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
  redirect: (url) => window.location.assign(url),
};
