import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The package as a user gets it: `dist/` built when missing (the library build: its .d.ts plugin
 * is off while VITEST is set), then `npm pack` into a new temporary folder. Returns the folder and
 * the tarball's file name in it.
 */
export function packPackage(folderPrefix: string): { base: string; tarball: string } {
  if (!existsSync(join(root, 'dist/index.js'))) {
    const env = { ...process.env };
    delete env['VITEST'];
    execFileSync(join(root, 'node_modules/.bin/vite'), ['build'], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
  }
  const base = mkdtempSync(join(tmpdir(), folderPrefix));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', base], {
    cwd: root,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1);
  if (tarball === undefined) throw new Error('npm pack named no tarball');
  return { base, tarball };
}
