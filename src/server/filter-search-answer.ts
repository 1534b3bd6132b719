/**
 * A search answer under `allowAgents`: the documented shape (`{ agents: [...] }`) with only the
 * allowed agents, or a refusal when the answer is not that shape or still names another agent
 * somewhere (under another key, inside an agent): what the proxy cannot filter is not forwarded.
 */
import { stringifyJson } from '../core/base/json-text.js';

/** The filtered answer's JSON text, or why it is refused. */
export type FilteredSearch = { text: string } | { refused: string };

export async function filterSearchAnswer(
  text: string,
  isAllowed: (agentId: string) => Promise<boolean>,
): Promise<FilteredSearch> {
  const unfilterable = {
    refused: 'The agent service answered the search in a shape the proxy cannot filter.',
  };
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return unfilterable;
  }
  if (!isRecord(answer) || !Array.isArray(answer['agents'])) return unfilterable;
  const agents: unknown[] = answer['agents'];
  const verdicts = await Promise.all(
    agents.map((agent) =>
      isRecord(agent) && typeof agent['agent_id'] === 'string'
        ? isAllowed(agent['agent_id'])
        : false,
    ),
  );
  const filtered = { ...answer, agents: agents.filter((_agent, index) => verdicts[index]) };
  const named = agentIdsIn(filtered);
  const allowed = await Promise.all(named.map((agentId) => isAllowed(agentId)));
  if (allowed.includes(false)) return unfilterable;
  const written = stringifyJson(filtered)?.text;
  return written === undefined ? unfilterable : { text: written };
}

/** The `agent_id` of every object in a parsed JSON value, however deep; no recursion. */
function agentIdsIn(value: unknown): string[] {
  const found = new Set<string>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (Array.isArray(item)) {
      for (const entry of item) pending.push(entry);
    } else if (isRecord(item)) {
      const agentId = item['agent_id'];
      if (typeof agentId === 'string') found.add(agentId);
      for (const entry of Object.values(item)) pending.push(entry);
    }
  }
  return [...found];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
