import type { AgentApi } from 'agent-console-kit';

/**
 * With STORYBOOK_AGENT_BASE_URL set, the stories talk to that deployment instead of the embedded
 * mock agent service (the token then ends up in the browser: use a short-lived one).
 */
export const realBaseUrl: string | undefined =
  import.meta.env['STORYBOOK_AGENT_BASE_URL'] || undefined;
export const realToken: string | undefined = import.meta.env['STORYBOOK_AGENT_TOKEN'] || undefined;
export const realApi = import.meta.env['STORYBOOK_AGENT_API'] as AgentApi | undefined;
/** The agent the "Real deployment" story opens; without it, the console offers a picker. */
export const realAgentId: string | undefined = import.meta.env['STORYBOOK_AGENT_ID'] || undefined;
export const realMode = realBaseUrl !== undefined;

/** Wraps a play function so that it runs only against the mock service. */
export function mockOnly<Context>(
  play: (context: Context) => Promise<void>,
): (context: Context) => Promise<void> {
  return async (context) => {
    if (!realMode) await play(context);
  };
}
