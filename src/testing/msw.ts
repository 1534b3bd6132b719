/**
 * `agent-console-kit/testing/msw`: the mock agent service as msw request handlers, for the browser
 * (Storybook, vitest browser mode) or `msw/node`. Needs the optional peer `msw`.
 */
export { mockAgentHandlers, type MockAgentHandlersOptions } from './msw-handlers.js';
