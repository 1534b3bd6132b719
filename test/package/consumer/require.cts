// CommonJS consumers: require() of the ESM package (Node >= 20.19), typed.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the point of this file
import core = require('agent-console-kit/core');

export const client: core.AgentClient = core.createAgentClient({ baseUrl: 'https://a.example' });
