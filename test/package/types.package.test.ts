import { execFile } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

// tsc over a consumer-shaped file against the packed types, with a consumer's strictest settings
// (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck false).
const run = promisify(execFile);
const consumers = inject('consumers');
const fixture = fileURLToPath(new URL('./consumer/', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

async function typecheck(folder: string, tsconfig: string): Promise<string> {
  for (const file of readdirSync(fixture)) copyFileSync(join(fixture, file), join(folder, file));
  try {
    await run(process.execPath, [tsc, '-p', tsconfig], { cwd: folder });
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

describe.each([
  ['React 19 types', 'types19'],
  ['React 18 types', 'types18'],
] as const)('given %s', (_name, consumer) => {
  it.each(['tsconfig.bundler.json', 'tsconfig.nodenext.json', 'tsconfig.no-node.json'])(
    'the consumer file type-checks under %s',
    async (tsconfig) => {
      expect(await typecheck(consumers[consumer], tsconfig)).toBe('');
    },
    // A full tsc run without skipLibCheck: tens of seconds on a loaded 2-core machine. The limit
    // only catches a hang; nothing here measures speed.
    120_000,
  );
});
