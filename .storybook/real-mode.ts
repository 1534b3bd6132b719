import type { AgentApi } from 'agent-console-kit/core';

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

/**
 * A story made for the embedded mock service, in one mark: its `mockOnly` parameter (in real mode
 * the preview shows a notice instead of the story) and, in real mode, no `beforeEach` or `play`
 * (they script the mock and expect its demo agents).
 */
export function mockOnlyStory<Story>(story: Story): Story {
  const annotations = story as { parameters?: object; beforeEach?: unknown; play?: unknown };
  const marked = { ...annotations, parameters: { ...annotations.parameters, mockOnly: true } };
  if (realMode) {
    delete marked.beforeEach;
    delete marked.play;
  }
  return marked as Story;
}
