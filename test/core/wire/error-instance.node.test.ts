import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it, vi } from 'vitest';
import {
  AgentError,
  AgentHttpError,
  AgentNetworkError,
  AgentRedirectError,
  AgentValidationError,
} from '../../../src/core/wire/errors.js';
import {
  AgentRunNotFoundError,
  AgentStorageError,
} from '../../../src/core/wire/durable-run-errors.js';

// The parts the package loads on demand carry their own copy of the error classes and of all they
// import (vite.config.ts, lazyCopies): the modules loaded again into a fresh module graph are such
// a copy, the durable errors extending the copy's base classes.
vi.resetModules();
const copy = await import('../../../src/core/wire/errors.js');
const durableCopy = await import('../../../src/core/wire/durable-run-errors.js');

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
    expect(Object.getPrototypeOf(durableCopy.AgentRunNotFoundError)).toBe(copy.AgentHttpError);
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

  it('refuses an error of another library whose name is one of the names', () => {
    class Foreign extends Error {
      override get name() {
        return 'AgentError';
      }
    }
    class ForeignHttp extends Error {
      constructor() {
        super('x');
        this.name = 'AgentHttpError';
      }
    }
    expect(new Foreign() instanceof AgentError).toBe(false);
    expect(new ForeignHttp() instanceof AgentHttpError).toBe(false);
    expect(new ForeignHttp() instanceof AgentError).toBe(false);
  });

  it('calls no getter of the value (its constructor, its name), so nothing throws', () => {
    let called = 0;
    class Strict {
      #name = 'strict';
      get name() {
        called += 1;
        return this.#name;
      }
      static get errorName() {
        called += 1;
        throw new Error('read');
      }
    }
    expect(new Strict() instanceof AgentError).toBe(false);
    const tricky = Object.create(
      Object.defineProperty({}, 'constructor', {
        get() {
          called += 1;
          throw new Error('read');
        },
      }),
    ) as object;
    expect(tricky instanceof AgentHttpError).toBe(false);
    expect(called).toBe(0);
  });
});

describe('given an app that subclasses an error class', () => {
  class AppError extends AgentHttpError {
    constructor() {
      super(httpInit);
      this.name = 'AppError';
    }
  }

  it('names it as an app names an Error (this.name), and answers instanceof by identity', () => {
    expect(new AppError().name).toBe('AppError');
    expect(new AppError() instanceof AppError).toBe(true);
    expect(new AppError() instanceof AgentHttpError).toBe(true);
    expect(new AgentHttpError(httpInit) instanceof AppError).toBe(false);
    expect(new copy.AgentHttpError(httpInit) instanceof AppError).toBe(false);
  });
});

describe('given the name', () => {
  it("is an own, writable property of each error, as an Error's is: JSON and spreads carry it", () => {
    const error = new AgentRunNotFoundError(httpInit);
    expect(error.name).toBe('AgentRunNotFoundError');
    expect(String(error)).toMatch(/^AgentRunNotFoundError: GET /);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: 'AgentRunNotFoundError' });
    expect({ ...error }.name).toBe('AgentRunNotFoundError');
    const storage = new AgentStorageError('full', { reason: 'quota' });
    expect({ ...storage }.name).toBe('AgentStorageError');
    error.name = 'Renamed';
    expect(error.name).toBe('Renamed');
    expect(error instanceof AgentRunNotFoundError).toBe(true);
  });

  it('is owned by every error class the package exports, each its own export name', async () => {
    const core: Record<string, unknown> = await import('../../../src/core/index.js');
    const classes = Object.entries(core).filter(
      (entry): entry is [string, { prototype: unknown }] =>
        typeof entry[1] === 'function' && entry[1].prototype instanceof Error,
    );
    expect(classes.length).toBeGreaterThan(15);
    for (const [exportName, type] of classes) {
      expect(Object.getOwnPropertyDescriptor(type, 'errorName')?.value, exportName).toBe(
        exportName,
      );
    }
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
    const minified = (await import(
      /* @vite-ignore */ pathToFileURL(file).href
    )) as typeof durableCopy;

    expect(minified.AgentRunNotFoundError.name).not.toBe('AgentRunNotFoundError');
    const error = new minified.AgentRunNotFoundError(httpInit);
    expect(error.name).toBe('AgentRunNotFoundError');
    expect(error instanceof AgentRunNotFoundError).toBe(true);
    expect(error instanceof AgentHttpError).toBe(true);
  });
});
