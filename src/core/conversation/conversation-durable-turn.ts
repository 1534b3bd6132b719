// What a conversation's durable turns use of the durable run, loaded by `import()` on the first
// durable turn (or a reload's attach): a conversation that only streams does not carry the durable
// run, its run store and its poll schedule (docs/decisions/0014-bundle-size.md). One module for
// the one `import()`.
export { createDurableRun } from '../durable/durable-run.js';
export { defaultRunStore } from '../storage/durable-run-store.js';
