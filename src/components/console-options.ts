import type { UseAgentConsoleOptions } from '../react/use-agent-console.js';

/** Every option of `useAgentConsole`, to tell them from the section's attributes. */
const consoleOptionNames: Record<keyof UseAgentConsoleOptions, true> = {
  runOptions: true,
  metadata: true,
  initialMessages: true,
  onMessagesChange: true,
  runHistoryLimit: true,
  executionMode: true,
  threadStore: true,
  threadId: true,
  durableRun: true,
  toolAuthorization: true,
  authorizationReturnUrl: true,
};

/** The console's options, and the rest (the section's attributes). */
export function splitConsoleOptions<Props extends UseAgentConsoleOptions>(
  props: Props,
): [UseAgentConsoleOptions, Omit<Props, keyof UseAgentConsoleOptions>] {
  const options: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    (Object.hasOwn(consoleOptionNames, name) ? options : rest)[name] = value;
  }
  return [options as UseAgentConsoleOptions, rest as Omit<Props, keyof UseAgentConsoleOptions>];
}
