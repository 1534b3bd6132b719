// Types of the client that the modules under it (the durable run wire, the stream request) share
// with it: here, below all of them, so that none imports the client back.

/** Which generation of the service's endpoints a client talks to. */
export type AgentApi = 'rest-v1' | 'platform';

/** Options of one retrieval. */
export interface AgentRequestOptions {
  signal?: AbortSignal;
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
