// What a conversation's durable turns use of the durable run, loaded by `import()` on the first
// durable turn (or a reload's attach): a conversation that only streams does not carry the durable
// run, its run store, its poll schedule and the turn that follows it
// (docs/decisions/0014-bundle-size.md). One module for the one `import()`.
export { createDurableRun } from '../durable/durable-run.js';
export { defaultRunStore } from '../storage/durable-run-store.js';
export { DurableTurn } from './durable-turn-handle.js';
