/**
 * `agent-console-kit/console`: the whole console, `AgentConsole` (a client component: the built
 * file starts with `'use client'`). It is an entry of its own because esbuild makes a chunk of
 * every `import()` a page reaches through an entry, even code it then drops, so the console's lazy
 * parts in the main entry would split every page (docs/decisions/0014-bundle-size.md).
 * `useAgentConsole` and the parts stay in `agent-console-kit`.
 */
export {
  AgentConsole,
  type AgentConsoleComponents,
  type AgentConsoleProps,
} from './components/agent-console.js';
