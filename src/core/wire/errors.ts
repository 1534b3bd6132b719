import type { ProblemDetail, ToolAuthorizationSuggestion } from './schemas.js';
import { redactError, redactJsonText, redactText } from './secrets.js';
import { checkProblemDetail } from './wire-checks.generated.js';

/** The kinds of {@link AgentError}, for `switch` without `instanceof`. */
export type AgentErrorKind = 'http' | 'network' | 'validation' | 'input';

/** The base of every error this library throws or puts into a snapshot. */
export abstract class AgentError extends Error {
  override name = 'AgentError';
  abstract readonly kind: AgentErrorKind;
  /** Whether sending the same request again may succeed (408, 429, 502, 503, 504, network). */
  abstract readonly retryable: boolean;
}

/** One entry of a problem detail's `errors[]`. */
export interface AgentFieldError {
  pointer?: string | undefined;
  detail?: string | undefined;
  code?: string | undefined;
}

/** What an {@link AgentHttpError} was made from. */
export interface AgentHttpErrorInit {
  status: number;
  statusText?: string;
  url: string;
  method: string;
  /** The body, parsed as JSON when it was JSON, else the text. */
  body: unknown;
  headers?: Headers;
}

const retryableStatuses = new Set([408, 429, 502, 503, 504]);

/** A response with a status that is not 2xx (or a stream that reported a failure). */
export class AgentHttpError extends AgentError {
  readonly kind = 'http';
  readonly status: number;
  /** The machine-readable code: the problem's `code`, or `tools_unauthorized` for a legacy 422. */
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly url: string;
  readonly method: string;
  /** The body as received: parsed JSON, or the text (an HTML page from a proxy stays text). */
  readonly body: unknown;
  /** The RFC 9457 problem detail, when the body was one. */
  readonly problem: ProblemDetail | undefined;
  /** `errors[]` of a problem detail. */
  readonly fieldErrors: readonly AgentFieldError[];
  /**
   * Tools that need authorizing (a 422 of either generation), normalized: the legacy
   * `{ toolName, toolDisplayName?, serverId?, toolCta?, actionPreview? }` as sent, the platform's
   * `{ tool_name?, server_id }` as `{ toolName, serverId }`; other keys kept.
   */
  readonly authenticationSuggestions: readonly ToolAuthorizationSuggestion[];
  /** From `Retry-After` (seconds or an HTTP date), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  override name = 'AgentHttpError';
  constructor(init: AgentHttpErrorInit) {
    const problem = asProblem(init.body);
    const suggestions = suggestionsOf(init.body);
    const detail = problem?.detail ?? bareMessage(init.body);
    const title = problem?.title ?? (init.statusText || undefined);
    super(
      [`${init.method} ${pathOf(init.url)} answered ${init.status}`, title, detail]
        .filter(Boolean)
        .join(': '),
    );
    this.status = init.status;
    this.url = init.url;
    this.method = init.method;
    this.body = init.body;
    this.problem = problem;
    this.title = title;
    this.detail = detail;
    this.code =
      problem?.code ??
      (init.status === 422 && suggestions.length > 0 ? 'tools_unauthorized' : undefined);
    this.requestId = problem?.request_id ?? init.headers?.get('x-request-id') ?? undefined;
    this.fieldErrors = problem?.errors ?? [];
    this.authenticationSuggestions = suggestions;
    this.retryAfterMs = parseRetryAfter(init.headers?.get('retry-after') ?? null);
  }

  get retryable(): boolean {
    return retryableStatuses.has(this.status);
  }
}

/** The request never got a response (refused, reset, DNS), or the connection broke mid-stream. */
export class AgentNetworkError extends AgentError {
  readonly kind = 'network';
  readonly retryable = true;
  readonly url: string;
  override name = 'AgentNetworkError';
  constructor(message: string, options: { url: string; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.url = options.url;
  }
}

/** One place where a response did not match what was expected. */
export interface AgentValidationIssue {
  /** A dotted path into the body, e.g. `agent.name`; empty for the whole body. */
  path: string;
  message: string;
}

/** A response that does not match the expected shape (or is not JSON). */
export class AgentValidationError extends AgentError {
  readonly kind = 'validation';
  readonly retryable = false;
  readonly issues: readonly AgentValidationIssue[];
  readonly body: unknown;
  override name = 'AgentValidationError';
  constructor(what: string, issues: AgentValidationIssue[], body: unknown) {
    super(
      `${what} did not match: ${issues
        .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
        .join('; ')}`,
    );
    this.issues = issues;
    this.body = body;
  }
}

/** A request the library refused to send: a blank agent id, a form input missing fields. */
export class AgentInputError extends AgentError {
  readonly kind = 'input';
  readonly retryable = false;
  /** The form fields the input lacks, when that is the reason. */
  readonly missingFields: readonly string[];
  override name = 'AgentInputError';
  constructor(message: string, options: { missingFields?: string[] } = {}) {
    super(message);
    this.missingFields = options.missingFields ?? [];
  }
}

/** Whether `error` is one of this library's errors. */
export function isAgentError(error: unknown): error is AgentError {
  return error instanceof AgentError;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Reads an error response into an {@link AgentHttpError}, with every secret replaced first. */
export async function readErrorResponse(
  response: Response,
  request: { url: string; method: string; secrets: readonly string[] },
  makeError: (init: AgentHttpErrorInit) => AgentHttpError = (init) => new AgentHttpError(init),
): Promise<AgentHttpError> {
  let text = '';
  try {
    text = redactJsonText(await response.text(), request.secrets);
  } catch {
    // A body that breaks off still leaves the status to report.
  }
  return makeError({
    status: response.status,
    statusText: response.statusText,
    url: request.url,
    method: request.method,
    body: parseBody(text),
    headers: response.headers,
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function asProblem(body: unknown): ProblemDetail | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  // zod's compiler wrote this check with definite refusals: it answers as problemDetailSchema does,
  // without zod's runtime up front (docs/decisions/0014-bundle-size.md). No schema here transforms.
  if (checkProblemDetail(body) !== true) return undefined;
  const problem = body as ProblemDetail;
  const looksLikeProblem =
    problem.type !== undefined ||
    problem.title !== undefined ||
    problem.code !== undefined ||
    problem.detail !== undefined;
  return looksLikeProblem ? problem : undefined;
}

function bareMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    // A non-JSON body (an HTML page from a proxy) is summarized, never shown whole.
    const oneLine = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (oneLine === '') return undefined;
    return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
  }
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    for (const key of ['message', 'error', 'detail']) {
      if (typeof record[key] === 'string') return record[key];
    }
  }
  return undefined;
}

/**
 * The tools to authorize, normalized to `{ toolName?, toolDisplayName?, serverId? }` (other keys
 * kept): the legacy 422's `authenticationSuggestions`, the platform 422's
 * `authentication_suggestions` (`tool_name?`, `server_id`), or the `tools[]` (names or `{ name }`
 * objects) a `tools_unauthorized` problem may carry.
 */
function suggestionsOf(body: unknown): ToolAuthorizationSuggestion[] {
  if (typeof body !== 'object' || body === null) return [];
  const record = body as Record<string, unknown>;
  const legacy = record['authenticationSuggestions'];
  if (Array.isArray(legacy)) {
    return legacy.flatMap((item: unknown) => {
      if (typeof item !== 'object' || item === null) return [];
      const entry = item as Record<string, unknown>;
      return [
        {
          ...entry,
          toolName: stringOrUndefined(entry['toolName']),
          toolDisplayName: stringOrUndefined(entry['toolDisplayName']),
          serverId: stringOrUndefined(entry['serverId']),
          toolCta: stringOrUndefined(entry['toolCta']),
          actionPreview: actionPreviewOf(entry['actionPreview']),
        },
      ];
    });
  }
  const platform = record['authentication_suggestions'];
  if (Array.isArray(platform)) {
    return platform.flatMap((item: unknown) => {
      if (typeof item !== 'object' || item === null) return [];
      const entry = item as Record<string, unknown>;
      return [
        {
          ...entry,
          toolName: stringOrUndefined(entry['tool_name']),
          serverId: stringOrUndefined(entry['server_id']),
        },
      ];
    });
  }
  const tools = record['tools'];
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    if (typeof tool === 'string') return [{ toolName: tool }];
    if (typeof tool !== 'object' || tool === null) return [];
    const entry = tool as Record<string, unknown>;
    const name = entry['toolName'] ?? entry['name'];
    return typeof name === 'string' ? [{ ...entry, toolName: name }] : [];
  });
}

/** A legacy entry's `actionPreview`: its string `markdown` and `description` (other keys kept). */
function actionPreviewOf(value: unknown): ToolAuthorizationSuggestion['actionPreview'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const preview = value as Record<string, unknown>;
  return {
    ...preview,
    markdown: stringOrUndefined(preview['markdown']),
    description: stringOrUndefined(preview['description']),
  };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** Maps a fetch failure to {@link AgentNetworkError}; an abort is passed through as it is. */
export function toNetworkError(error: unknown, url: string, secrets: readonly string[]): unknown {
  if (isAbortError(error) || error instanceof AgentError) return error;
  const reason = error instanceof Error ? describeCause(error) : String(error);
  return new AgentNetworkError(redactText(`Could not reach ${url}: ${reason}`, secrets), {
    url,
    // fetch names a header value it refuses in its message: the cause shown is redacted too.
    cause: redactError(error, secrets),
  });
}

/** Whether `error` is a fetch abort or timeout (which is never mapped to another error). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error.name === 'AbortError' || error.name === 'TimeoutError')
  );
}

function describeCause(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === 'string'
      ? `${error.message} (${code})`
      : `${error.message} (${cause.message})`;
  }
  return error.message;
}

/** Why an {@link AgentRedirectError} was not followed. */
export type AgentRedirectReason = 'cross-origin' | 'too-many' | 'opaque' | 'invalid-location';

/** What an {@link AgentRedirectError} was made from. */
export interface AgentRedirectErrorInit {
  status: number;
  /** The request that was redirected. */
  url: string;
  method: string;
  reason: AgentRedirectReason;
  /** The origin the redirect points at, when it can be read. */
  redirectOrigin?: string | undefined;
  headers?: Headers;
}

/**
 * A redirect an API call did not follow, so that neither the body nor the headers (the token, the
 * `X-Glean-ActAs`) went anywhere but the configured origin: one to another origin, one past the
 * limit of same-origin redirects, one a browser keeps opaque, or one with a `Location` that is
 * not a URL. Final (never retried). It names the redirect by its origin only.
 */
export class AgentRedirectError extends AgentHttpError {
  /** `redirect_not_followed`, for a `switch` over codes. */
  override readonly code = 'redirect_not_followed';
  readonly reason: AgentRedirectReason;
  /** The origin the redirect pointed at; undefined when the browser hid it or it was no URL. */
  readonly redirectOrigin: string | undefined;

  override name = 'AgentRedirectError';
  constructor(init: AgentRedirectErrorInit) {
    super({
      status: init.status,
      url: init.url,
      method: init.method,
      body: undefined,
      ...(init.headers === undefined ? {} : { headers: init.headers }),
    });
    this.reason = init.reason;
    this.redirectOrigin = init.redirectOrigin;
    const target =
      init.redirectOrigin === undefined ? 'a redirect' : `a redirect to ${init.redirectOrigin}`;
    const why = {
      'cross-origin': 'another origin',
      'too-many': 'one redirect too many',
      opaque: 'the browser does not show where to',
      'invalid-location': 'its Location is not a URL',
    }[init.reason];
    this.message = `${init.method} ${pathOf(init.url)} answered ${target} (${why}): not followed, nothing was sent there.`;
    // The stack's first line was written with the message of the base class.
    Error.captureStackTrace?.(this, AgentRedirectError);
  }
}
