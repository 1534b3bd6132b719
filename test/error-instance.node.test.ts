import { describe, expect, it } from 'vitest';
import {
  AgentError,
  AgentHttpError,
  AgentNetworkError,
  AgentRedirectError,
  AgentValidationError,
} from '../src/core/errors.js';
import { AgentRunNotFoundError, AgentStorageError } from '../src/core/durable-run-errors.js';
import type * as errors from '../src/core/errors.js';
import type * as durableErrors from '../src/core/durable-run-errors.js';

// The parts the package loads on demand carry their own copy of the error classes (vite.config.ts,
// lazyCopies): a second module instance of the same source is such a copy.
const copyOf = async <Module>(path: string) =>
  (await import(/* @vite-ignore */ `${path}?copy`)) as Module;
const copy = await copyOf<typeof errors>('../src/core/errors.js');
const durableCopy = await copyOf<typeof durableErrors>('../src/core/durable-run-errors.js');

const httpInit = {
  status: 404,
  url: 'https://agents.example.com/api/agents/a',
  method: 'GET',
  body: undefined,
};

describe('given an error made by a copy of the error classes', () => {
  it('is a copy indeed (another class), so the checks below are live', () => {
    expect(copy.AgentHttpError).not.toBe(AgentHttpError);
    expect(Object.getPrototypeOf(new copy.AgentHttpError(httpInit))).not.toBe(
      AgentHttpError.prototype,
    );
  });

  it('is instanceof the classes the app imported: its own and every base', () => {
    const error = new copy.AgentHttpError(httpInit);
    expect(error instanceof AgentHttpError).toBe(true);
    expect(error instanceof AgentError).toBe(true);
    expect(error instanceof Error).toBe(true);
    const notFound = new durableCopy.AgentRunNotFoundError(httpInit);
    expect(notFound instanceof AgentRunNotFoundError).toBe(true);
    expect(notFound instanceof AgentHttpError).toBe(true);
    const storage = new durableCopy.AgentStorageError('full', { reason: 'quota' });
    expect(storage instanceof AgentStorageError).toBe(true);
  });

  it('is not instanceof a sibling class or a subclass of its own', () => {
    const error = new copy.AgentHttpError(httpInit);
    expect(error instanceof AgentValidationError).toBe(false);
    expect(error instanceof AgentNetworkError).toBe(false);
    expect(error instanceof AgentRedirectError).toBe(false);
    expect(error instanceof AgentRunNotFoundError).toBe(false);
    expect(new AgentHttpError(httpInit) instanceof durableCopy.AgentRunNotFoundError).toBe(false);
  });
});

describe('given values that only look like the errors', () => {
  it('refuses an Error whose own name is one of the names', () => {
    const impostor = Object.assign(new Error('x'), { name: 'AgentHttpError' });
    expect(impostor instanceof AgentHttpError).toBe(false);
    expect(impostor instanceof AgentError).toBe(false);
  });

  it('refuses primitives, null and functions', () => {
    for (const value of [null, undefined, 'AgentHttpError', 404, AgentHttpError]) {
      expect(value instanceof AgentHttpError, String(value)).toBe(false);
    }
  });

  it('does not throw on a prototype whose name getter throws', () => {
    class Strict {
      #name = 'strict';
      get name() {
        return this.#name;
      }
    }
    expect(() => new Strict() instanceof AgentError).not.toThrow();
    expect(new Strict() instanceof AgentError).toBe(false);
  });
});

describe('given an app that subclasses an error class', () => {
  class AppError extends AgentHttpError {}

  it('answers instanceof by identity for the subclass, which names nothing', () => {
    expect(new AppError(httpInit) instanceof AppError).toBe(true);
    expect(new AppError(httpInit) instanceof AgentHttpError).toBe(true);
    expect(new AgentHttpError(httpInit) instanceof AppError).toBe(false);
    expect(new copy.AgentHttpError(httpInit) instanceof AppError).toBe(false);
  });
});

describe('given the name', () => {
  it('reads it from the class, and the stack starts with it', () => {
    const error = new AgentRunNotFoundError(httpInit);
    expect(error.name).toBe('AgentRunNotFoundError');
    expect(String(error)).toMatch(/^AgentRunNotFoundError: GET /);
    expect(error.stack?.split('\n')[0]).toMatch(/^AgentRunNotFoundError: GET /);
  });
});
