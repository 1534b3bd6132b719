/**
 * The service's problem codes (Platform API 2026-04-01): each code has one status and one title,
 * and `errors[].code` takes its values from the same list. The only table of codes in the mock.
 *
 * Framework-free and browser-safe: no Node built-ins, no React.
 */
import type { MockProblem } from './mock-events.js';

/**
 * Every code the service sends, with its status and title. Where several codes share a status, the
 * first one listed is the mock's default for that status (`tools_unauthorized` for a run's 422).
 */
export const mockProblemCodes = {
  invalid_request: { status: 400, title: 'Invalid Request' },
  missing_required_field: { status: 400, title: 'Missing Required Field' },
  invalid_parameter: { status: 400, title: 'Invalid Parameter' },
  invalid_cursor: { status: 400, title: 'Invalid Pagination Cursor' },
  expired_cursor: { status: 400, title: 'Expired Pagination Cursor' },
  invalid_filter: { status: 400, title: 'Invalid Filter' },
  invalid_datasource: { status: 400, title: 'Invalid Datasource' },
  authentication_required: { status: 401, title: 'Authentication Required' },
  token_expired: { status: 401, title: 'Token Expired' },
  insufficient_permissions: { status: 403, title: 'Insufficient Permissions' },
  spend_limit_exceeded: { status: 403, title: 'Spend Limit Exceeded' },
  resource_not_found: { status: 404, title: 'Resource Not Found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  request_timeout: { status: 408, title: 'Request Timeout' },
  conflict: { status: 409, title: 'Conflict' },
  gone: { status: 410, title: 'Gone' },
  request_too_large: { status: 413, title: 'Request Too Large' },
  token_limit_exceeded: { status: 413, title: 'Token Limit Exceeded' },
  tools_unauthorized: { status: 422, title: 'Tools Unauthorized' },
  unprocessable_query: { status: 422, title: 'Unprocessable Query' },
  rate_limit_exceeded: { status: 429, title: 'Rate Limit Exceeded' },
  internal_error: { status: 500, title: 'Internal Error' },
  service_unavailable: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

/** A code of the service. */
export type MockProblemCode = keyof typeof mockProblemCodes;

function isKnownCode(code: string): code is MockProblemCode {
  return Object.hasOwn(mockProblemCodes, code);
}

/**
 * The mock's code for a status; undefined when the service has none (502 and 504 come from a
 * gateway in front of the service, never from the service itself).
 */
export function problemCodeFor(status: number): MockProblemCode | undefined {
  for (const [code, known] of Object.entries(mockProblemCodes)) {
    if (known.status === status) return code as MockProblemCode;
  }
  return undefined;
}

/**
 * A whole problem: the six required fields (`type`, `title`, `status`, `detail`, `code`,
 * `request_id`) filled in from the code (the given code, else the status's) and kept where given.
 * `request_id` is left out when `requestId` is undefined.
 */
export function completeProblem(fields: MockProblem, requestId?: string): MockProblem {
  const code =
    fields.code ?? (fields.status === undefined ? 'internal_error' : problemCodeFor(fields.status));
  const known = code !== undefined && isKnownCode(code) ? mockProblemCodes[code] : undefined;
  const status = fields.status ?? known?.status ?? 500;
  const title = fields.title ?? known?.title ?? 'Error';
  const problem: MockProblem = {
    ...fields,
    type: fields.type ?? 'about:blank',
    title,
    status,
    detail: fields.detail ?? title,
  };
  if (code !== undefined) problem.code = code;
  if (requestId !== undefined) problem.request_id = fields.request_id ?? requestId;
  return problem;
}
