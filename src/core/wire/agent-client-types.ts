// Types of the client that the modules under it (the durable run wire, the stream request) share
// with it: here, below all of them, so that none imports the client back.

/** Which generation of the service's endpoints a client talks to. */
export type AgentApi = 'rest-v1' | 'platform';

/** Options of one retrieval. */
export interface AgentRequestOptions {
  signal?: AbortSignal;
}

/** Options of `client.getAgentSchemas`. */
export interface AgentSchemasRequestOptions extends AgentRequestOptions {
  /**
   * Ask for the agent's tools too (`include_tools=true`): the answer then has `tools`, each an
   * `AgentTool`. Without it the service sends no `tools`.
   * @default false
   */
  includeTools?: boolean | undefined;
}

/** A fully resolved HTTP request, headers as a plain object, body as a string. */
export interface PreparedRunRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /**
   * Values that must never appear in an error message or a log line: the token and the values of
   * the secret headers (see `secretHeaders`).
   */
  secrets: string[];
}

/** A value, or a function (possibly async) asked for it on every request. */
export type PerRequestValue<T> = T | (() => T | Promise<T>);

/** What a server said about the deprecation of an endpoint. */
export interface DeprecationNotice {
  url: string;
  /** The `Deprecation` header as sent (`@1787616000` per RFC 9745, `true`, or a date). */
  deprecation: string | undefined;
  /**
   * The date of `Deprecation` (the legacy agent operations: 2026-08-25); undefined when the header
   * holds no date (`true`) or none was sent.
   */
  deprecatedAt: Date | undefined;
  /** The `Sunset` header as sent: the date the endpoint goes away (an HTTP-date). */
  sunset: string | undefined;
  /** The date of `Sunset` (the legacy agent operations: 2027-04-15); undefined when unreadable. */
  sunsetAt: Date | undefined;
  /** The `Link` header, which may point at the replacement. */
  link: string | undefined;
}
