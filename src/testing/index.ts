/**
 * `agent-console-kit/testing`: an embedded mock agent service (one model and a node:http adapter)
 * and helpers to script run streams. Never imports React or msw; node:http is loaded only when
 * `createMockAgentServer` is called. The msw adapter is `agent-console-kit/testing/msw`.
 */
export { createMockAgentService } from './mock-agent-service.js';
export { demoAgents } from './demo-agents.js';
export { demoToolServers } from './demo-tools.js';
export type {
  MockAgentCapabilities,
  MockAgentDefinition,
  MockAgentRecord,
  MockAgentSchemas,
  MockAgentService,
  MockAgentServiceOptions,
  MockDurableApproval,
  MockDurableRunState,
  MockDurableScenario,
  MockDurableStats,
  MockDurableTurn,
  MockEndpoint,
  MockFailFirst,
  MockInjectedResponse,
  MockPreflightRecord,
  MockRequestRecord,
  MockRunRequest,
  MockRunScenario,
} from './mock-agent-types.js';
export { createMockAgentServer } from './mock-agent-server.js';
export type { MockAgentServer, MockAgentServerOptions } from './mock-agent-server.js';
export {
  encodeStreamItem,
  isEventItem,
  manyEvents,
  messagePayload,
  runFailedEvent,
  textEvents,
} from './mock-events.js';
export type {
  ManyEventsOptions,
  MockCommentItem,
  MockEventItem,
  MockProblem,
  MockRawItem,
  MockStreamItem,
  MockTextItem,
  TextEventsOptions,
} from './mock-events.js';
