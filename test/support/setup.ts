import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor give up after 1 s by default; on a loaded 2-core CI machine a run can take longer
// to reach the state a test waits for. They still return as soon as the state is there. 15 s, as
// expect.poll (vite.config.ts) and the stories' queries (.storybook/vitest.setup.ts).
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
});

// jsdom has no canvas; axe-core probes it for icon detection and jsdom prints "Not implemented".
if (typeof HTMLCanvasElement !== 'undefined' && navigator.userAgent.includes('jsdom')) {
  HTMLCanvasElement.prototype.getContext = () => null;
}
