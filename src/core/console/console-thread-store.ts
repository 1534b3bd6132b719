// The localStorage thread store a durable console keeps its thread in, loaded by `import()` on its
// first use: a console whose turns stream never carries it (docs/decisions/0014-bundle-size.md).
// One module for the one `import()`.
export { createThreadStore } from '../storage/thread-store.js';
