import { expect, it } from 'vitest';
it('runs', () => { expect(typeof window).toBe('object'); });
