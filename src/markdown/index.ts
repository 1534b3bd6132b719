/**
 * `agent-console-kit/markdown`: an opt-in Markdown renderer for the agent's output (needs the
 * optional peer dependency `react-markdown`).
 */
export {
  AgentMarkdown,
  renderMarkdown,
  safeMarkdownUrl,
  type AgentMarkdownProps,
} from './agent-markdown.js';
