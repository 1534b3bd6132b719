/**
 * What a run needs from its client beyond the public `AgentClient`: the `fetch` it was given and
 * the deprecation notice of a run response. Kept off the client object (and out of every barrel),
 * so a consumer cannot call around the client's own requests.
 */
import type { AgentClient } from './agent-client.js';

/** The private side of a client made by `createAgentClient`. */
export interface AgentClientInternals {
  /** The `fetch` requests go through. */
  fetch: typeof fetch;
  /** Reads a response's `Deprecation` / `Sunset` headers into `deprecation` and `onDeprecation`. */
  noteDeprecation(response: Response, url: string): void;
}

const internals = new WeakMap<AgentClient, AgentClientInternals>();

export function registerClientInternals(client: AgentClient, value: AgentClientInternals): void {
  internals.set(client, value);
}

/** The internals of `client`; a client written by hand gets the global `fetch` and no notices. */
export function clientInternals(client: AgentClient): AgentClientInternals {
  return (
    internals.get(client) ?? {
      fetch: (input, init) => globalThis.fetch(input, init),
      noteDeprecation: () => undefined,
    }
  );
}
