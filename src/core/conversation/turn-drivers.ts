import type { AgentClient } from '../wire/agent-client.js';
import type { RunStream } from '../stream/run-stream.js';
import type { AgentConversationOptions } from './conversation-options.js';
import { createDurableTurnDriver } from './durable-turn.js';
import { createStreamTurnDriver } from './stream-turn.js';
import type { TurnDriver } from './turn-driver.js';

/**
 * The driver `executionMode` names: the one place a conversation's mode is read. A stream driver
 * still follows a stored answer a durable run writes (a reload during a durable turn), through a
 * durable driver whose code loads only then.
 */
export function createTurnDriver(
  client: AgentClient,
  stream: RunStream,
  options: Pick<AgentConversationOptions, 'agentId' | 'executionMode' | 'durableRun'>,
): TurnDriver {
  const { agentId, durableRun } = options;
  const durable = createDurableTurnDriver(client, { agentId, durableRun });
  return options.executionMode === 'durable'
    ? durable
    : createStreamTurnDriver(stream, { agentId, storedTurns: durable });
}
