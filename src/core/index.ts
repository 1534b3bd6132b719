export * from './agent-client.js';
export * from './errors.js';
export * from './schemas.js';
export * from './input-form.js';
export * from './run-types.js';
