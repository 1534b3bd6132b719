export * from './agent-client.js';
export * from './errors.js';
export * from './schemas.js';
