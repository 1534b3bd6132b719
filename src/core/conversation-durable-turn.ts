// What a conversation's durable turns use of the durable run, loaded by `import()` on the first
// durable turn (or a reload's attach): a conversation that only streams does not carry the durable
// run, its run store and its poll schedule (docs/decisions/0014-bundle-size.md). A module of its
// own, which no entry exports: esbuild puts up front any module that an entry exports and an
// `import()` names.
export { createDurableRun } from './durable-run.js';
export { defaultRunStore } from './run-store.js';
