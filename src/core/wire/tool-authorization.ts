/**
 * The authorization of a tool server after a 422, as the console runs it: ask the service for the
 * sign-in page, refuse a URL that is not http(s), then open it the way the app chose. No DOM here:
 * opening a window or leaving the page is a {@link ToolAuthorizationNavigation} the caller gives.
 */
import type { AgentClient, AuthorizeToolServerOptions } from './agent-client.js';

/** A tool a 422 asks to authorize. */
export interface AgentErrorTool {
  /** The display name, else the tool name, else the server id. */
  name: string;
  /** The tool server to authorize (`client.authorizeToolServer(serverId, …)`), when known. */
  serverId: string | undefined;
  /**
   * The verb the service gave for the tool's button (its `toolCta`, e.g. "Connect"), shown instead
   * of "Authorize".
   * @default undefined ("Authorize")
   */
  cta?: string | undefined;
}

/** Where the authorization of one tool stands (shown by `AgentErrorMessage`). */
export interface ToolAuthorizationState {
  /** `pending`: asking the service for the URL; `opened`: sent there; `failed`: it did not work. */
  status: 'pending' | 'opened' | 'failed';
  /** Why it failed. */
  message?: string | undefined;
}

/**
 * How the sign-in page of a tool is opened: `'window'` a new tab or window, `'redirect'` this page
 * goes there, or a function of the app's own (a popup, a router).
 */
export type ToolAuthorizationOpening =
  'window' | 'redirect' | ((authorizationUrl: string, tool: AgentErrorTool) => void);

/** What the page can do to show a sign-in page: in a browser, `window.open` and `location`. */
export interface ToolAuthorizationNavigation {
  /** The page's address now: where the service sends the person back by default. */
  currentUrl(): string;
  /** Opens `url` in a new tab or window (without `opener`). */
  openWindow(url: string): void;
  /** Sends this page to `url`. */
  redirect(url: string): void;
}

/**
 * Asks the service for the sign-in page of a tool server (`client.authorizeToolServer`) and
 * returns its URL; throws when the service answers a URL that is not http(s) (a `javascript:` one
 * would run in the page).
 *
 * @example
 * const url = await requestToolAuthorizationUrl(client, 'jira-server', { returnUrl: location.href });
 */
export async function requestToolAuthorizationUrl(
  client: AgentClient,
  serverId: string,
  options: AuthorizeToolServerOptions,
): Promise<string> {
  const url = await client.authorizeToolServer(serverId, options);
  if (!/^https?:/i.test(url)) throw new Error('the service answered an URL that is not http(s).');
  return url;
}

/** Opens a checked authorization URL as `opening` says, through `navigation`. */
export function openToolAuthorization(
  url: string,
  tool: AgentErrorTool,
  opening: ToolAuthorizationOpening,
  navigation: ToolAuthorizationNavigation | undefined,
): void {
  if (typeof opening === 'function') {
    opening(url, tool);
    return;
  }
  if (navigation === undefined) {
    throw new Error(`no navigation was given to open the sign-in page ('${opening}').`);
  }
  if (opening === 'redirect') navigation.redirect(url);
  else navigation.openWindow(url);
}

/** What {@link authorizeToolServer} needs to know of the caller's options. */
export interface ToolAuthorizationFlowOptions {
  toolAuthorization?: ToolAuthorizationOpening | undefined;
  authorizationReturnUrl?: string | undefined;
  navigation?: ToolAuthorizationNavigation | undefined;
}

/**
 * The whole flow for one tool server: `pending`, ask for the sign-in page, open it, then `opened`;
 * any failure is `failed` with its message. Never rejects.
 */
export async function authorizeToolServer(
  client: AgentClient,
  serverId: string,
  tool: AgentErrorTool,
  options: ToolAuthorizationFlowOptions,
  update: (state: ToolAuthorizationState) => void,
): Promise<void> {
  update({ status: 'pending' });
  try {
    const { navigation, authorizationReturnUrl, toolAuthorization = 'window' } = options;
    const returnUrl = authorizationReturnUrl ?? navigation?.currentUrl();
    if (returnUrl === undefined) throw new Error('no return URL was given.');
    const url = await requestToolAuthorizationUrl(client, serverId, { returnUrl });
    openToolAuthorization(url, tool, toolAuthorization, navigation);
    update({ status: 'opened' });
  } catch (error) {
    update({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}
