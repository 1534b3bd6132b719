import { useMemo, useState } from 'react';
import {
  createServerRunList,
  type ServerRunList,
  type ServerRunListOptions,
  type ServerRunListSnapshot,
} from '../core/storage/server-run-list.js';
import { useStore } from './use-store.js';

/** Options of {@link useAgentInbox} (read on first render). */
export interface UseAgentInboxOptions extends ServerRunListOptions {
  /**
   * A list made with `createServerRunList` (shared by several components); the other options
   * are then not used.
   * @default undefined (the hook makes one: `group: 'waiting'` unless given)
   */
  list?: ServerRunList | undefined;
}

/** What {@link useAgentInbox} returns. */
export interface UseAgentInboxResult extends ServerRunListSnapshot {
  /** Reads the list now (e.g. after an approval). Stable identity. */
  refresh: () => Promise<void>;
  /** The list behind the hook. */
  list: ServerRunList;
}

/**
 * The signed-in user's durable runs from the server (`createAgentProxy({ user, store })`), on
 * every device: by default those waiting for the user's approval, across agents. Read on mount,
 * when the page comes back into view and every `pollIntervalMs`. Give the result to
 * `<AgentInbox inbox={…} />`, or render the runs yourself.
 *
 * @example
 * function Approvals() {
 *   const inbox = useAgentInbox({ baseUrl: '/api/agent-service' });
 *   return <AgentInbox inbox={inbox} />;
 * }
 */
export function useAgentInbox(options: UseAgentInboxOptions = {}): UseAgentInboxResult {
  const [list] = useState(
    () => options.list ?? createServerRunList({ group: 'waiting', ...options }),
  );
  const snapshot = useStore(list);
  return useMemo(() => ({ ...snapshot, refresh: list.refresh, list }), [snapshot, list]);
}
