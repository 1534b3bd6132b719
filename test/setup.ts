import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
});

// jsdom has no canvas; axe-core probes it for icon detection and jsdom prints "Not implemented".
if (typeof HTMLCanvasElement !== 'undefined' && navigator.userAgent.includes('jsdom')) {
  HTMLCanvasElement.prototype.getContext = () => null;
}
