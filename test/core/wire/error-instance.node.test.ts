import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentError,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  AgentRedirectError,
  AgentValidationError,
} from '../../../src/core/wire/errors.js';
import {
  AgentApprovalConflictError,
  AgentCancelUnavailableError,
  AgentDurableUnavailableError,
  AgentRunMismatchError,
  AgentRunNotFoundError,
  AgentStartUnknownError,
  AgentStorageError,
  AgentUnsupportedError,
} from '../../../src/core/wire/durable-run-errors.js';
import { AgentEventTooLargeError } from '../../../src/core/wire/sse-attempt.js';
import { ThreadConflictError } from '../../../src/core/storage/thread-store.js';
import { AgentConversationBusyError } from '../../../src/core/conversation/agent-conversation.js';

// The package loads each module once (no copies of what it loads on demand, dist/ has no lazy/
// folder: docs/decisions/0017-no-lazy-copies.md), so `instanceof` is the language's: the class's
// prototype in the value's chain, nothing else. The package test checks that an error thrown by a
// module loaded on demand is `instanceof` the class the app imports from the entry.

const httpInit = {
  status: 404,
  url: 'https://agents.example.com/api/agents/a',
  method: 'GET',
  body: undefined,
};

/** One error of each class the package exports, by its export name. */
const errorsByExportName: Record<string, () => Error> = {
  // The base is abstract: a subclass that names itself no otherwise.
  AgentError: () =>
    new (class extends AgentError {
      readonly kind = 'input';
      readonly retryable = false;
    })('x'),
  AgentHttpError: () => new AgentHttpError(httpInit),
  AgentNetworkError: () => new AgentNetworkError('x', { url: httpInit.url }),
  AgentValidationError: () => new AgentValidationError('x', [], undefined),
  AgentInputError: () => new AgentInputError('x'),
  AgentRedirectError: () =>
    new AgentRedirectError({ status: 302, url: httpInit.url, method: 'GET', reason: 'opaque' }),
  AgentUnsupportedError: () => new AgentUnsupportedError('startDurableRun'),
  AgentDurableUnavailableError: () => new AgentDurableUnavailableError(httpInit),
  AgentRunNotFoundError: () => new AgentRunNotFoundError(httpInit),
  AgentApprovalConflictError: () => new AgentApprovalConflictError({ ...httpInit, status: 409 }),
  AgentCancelUnavailableError: () => new AgentCancelUnavailableError({ ...httpInit, status: 409 }),
  AgentStartUnknownError: () =>
    new AgentStartUnknownError({ url: httpInit.url, reason: 'network', cause: undefined }),
  AgentRunMismatchError: () =>
    new AgentRunMismatchError(
      { agentId: 'a', runId: undefined },
      { agentId: 'b', runId: 'r' },
      undefined,
    ),
  AgentStorageError: () => new AgentStorageError('full', { reason: 'quota' }),
  AgentEventTooLargeError: () => new AgentEventTooLargeError(1024),
  ThreadConflictError: () => new ThreadConflictError('t', 1, 2),
  AgentConversationBusyError: () => new AgentConversationBusyError(),
};

describe('given instanceof', () => {
  it("is the language's: no error class answers it itself", () => {
    for (const type of [AgentError, AgentHttpError, AgentRunNotFoundError, AgentStorageError]) {
      expect(Object.hasOwn(type, Symbol.hasInstance), type.name).toBe(false);
      expect(Object.hasOwn(type, 'errorName'), type.name).toBe(false);
    }
    expect(AgentError[Symbol.hasInstance]).toBe(Function.prototype[Symbol.hasInstance]);
  });

  it('holds for the class of an error and each of its bases, not for a sibling or a subclass', () => {
    const notFound = new AgentRunNotFoundError(httpInit);
    expect(notFound).toBeInstanceOf(AgentRunNotFoundError);
    expect(notFound).toBeInstanceOf(AgentHttpError);
    expect(notFound).toBeInstanceOf(AgentError);
    expect(notFound).toBeInstanceOf(Error);
    expect(notFound instanceof AgentApprovalConflictError).toBe(false);
    expect(notFound instanceof AgentValidationError).toBe(false);
    expect(new AgentHttpError(httpInit) instanceof AgentRunNotFoundError).toBe(false);
    expect(new AgentStorageError('full', { reason: 'quota' })).toBeInstanceOf(AgentStorageError);
  });

  it('does not hold for a class of another instance of the module: one module, one class', async () => {
    vi.resetModules();
    const other = await import('../../../src/core/wire/errors.js');

    expect(other.AgentHttpError).not.toBe(AgentHttpError);
    expect(new other.AgentHttpError(httpInit) instanceof AgentHttpError).toBe(false);
    expect(new other.AgentHttpError(httpInit) instanceof AgentError).toBe(false);
  });

  it('does not hold for an Error, of this library or another, that only has one of the names', () => {
    const impostor = Object.assign(new Error('x'), { name: 'AgentHttpError' });
    class Foreign extends Error {
      override get name() {
        return 'AgentError';
      }
    }
    expect(impostor instanceof AgentHttpError).toBe(false);
    expect(impostor instanceof AgentError).toBe(false);
    expect(new Foreign() instanceof AgentError).toBe(false);
    for (const value of [null, undefined, 'AgentHttpError', 404, AgentHttpError]) {
      expect(value instanceof AgentHttpError, String(value)).toBe(false);
    }
  });
});

describe('given an app that subclasses an error class', () => {
  class AppError extends AgentHttpError {
    constructor() {
      super(httpInit);
      this.name = 'AppError';
    }
  }

  it('names it as an app names an Error (this.name), and instanceof holds up its chain', () => {
    expect(new AppError().name).toBe('AppError');
    expect(new AppError()).toBeInstanceOf(AppError);
    expect(new AppError()).toBeInstanceOf(AgentHttpError);
    expect(new AgentHttpError(httpInit) instanceof AppError).toBe(false);
  });
});

describe('given the name', () => {
  it('is each error class export name, for every error class core exports', async () => {
    const core: Record<string, unknown> = await import('../../../src/core/index.js');
    const exported = Object.entries(core)
      .filter(
        ([, value]) =>
          typeof value === 'function' &&
          (value as { prototype: unknown }).prototype instanceof Error,
      )
      .map(([name]) => name)
      .sort();

    expect(exported).toEqual(Object.keys(errorsByExportName).sort());
    for (const [exportName, make] of Object.entries(errorsByExportName)) {
      expect(make().name, exportName).toBe(exportName);
    }
  });

  it("is an own, writable property of each error, as an Error's is: JSON and spreads carry it", () => {
    const error = new AgentRunNotFoundError(httpInit);
    expect(Object.getOwnPropertyDescriptor(error, 'name')).toMatchObject({
      value: 'AgentRunNotFoundError',
      writable: true,
    });
    expect(String(error)).toMatch(/^AgentRunNotFoundError: GET /);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: 'AgentRunNotFoundError' });
    expect({ ...error }.name).toBe('AgentRunNotFoundError');
    const storage = new AgentStorageError('full', { reason: 'quota' });
    expect({ ...storage }.name).toBe('AgentStorageError');
    error.name = 'Renamed';
    expect(error.name).toBe('Renamed');
    expect(error).toBeInstanceOf(AgentRunNotFoundError);
  });

  it('survives a minifier, which renames the classes', async () => {
    const bundled = await build({
      entryPoints: [
        new URL('../../../src/core/wire/durable-run-errors.ts', import.meta.url).pathname,
      ],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      write: false,
    });
    const file = join(mkdtempSync(join(tmpdir(), 'ack-errors-')), 'errors.mjs');
    writeFileSync(file, bundled.outputFiles[0]?.text ?? '');
    const minified = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      AgentRunNotFoundError: typeof AgentRunNotFoundError;
    };

    expect(minified.AgentRunNotFoundError.name).not.toBe('AgentRunNotFoundError');
    expect(new minified.AgentRunNotFoundError(httpInit).name).toBe('AgentRunNotFoundError');
  });
});
