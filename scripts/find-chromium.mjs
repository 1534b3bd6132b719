#!/usr/bin/env node
// Finds a Chromium for the browser and Storybook test projects, and installs one where none
// exists: `npm test` on a fresh machine sets itself up. `vite.config.ts` reads the path with
// `findChromium()`; run as a script it finds or installs, saying what it does.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const systemNames = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** The probes of the real machine (tests pass fakes). */
export const machineProbes = {
  env: process.env,
  isExecutable(path) {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  playwrightPath() {
    try {
      const require = createRequire(import.meta.url);
      return require('playwright-core').chromium.executablePath();
    } catch {
      return undefined;
    }
  },
  isRoot: () => process.getuid?.() === 0,
  hasCommand(name) {
    return machineProbes.onPath(name) !== undefined;
  },
  onPath(name) {
    for (const folder of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
      const candidate = join(folder, name);
      if (machineProbes.isExecutable(candidate)) return candidate;
    }
    return undefined;
  },
};

/**
 * How every Chromium of the project is launched (vitest browser projects, the bench, the Storybook
 * scripts): the one `findChromium` finds (else /usr/bin/chromium, where Debian puts it, so the launch
 * names the missing browser), headless in a container (no sandbox, no GPU, no background traffic).
 */
export function chromiumLaunchOptions(probes = machineProbes) {
  return {
    executablePath: findChromium(probes)?.path ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

/**
 * Where a Chromium is: `CHROMIUM_PATH`, then the system's (on PATH), then Playwright's own
 * download. `{ path, source }`, or undefined when there is none.
 */
export function findChromium(probes = machineProbes) {
  const fromEnv = probes.env.CHROMIUM_PATH;
  if (fromEnv) {
    return probes.isExecutable(fromEnv) ? { path: fromEnv, source: 'CHROMIUM_PATH' } : undefined;
  }
  for (const name of systemNames) {
    const path = probes.onPath(name);
    if (path !== undefined) return { path, source: 'system' };
  }
  const playwright = probes.playwrightPath();
  if (playwright !== undefined && probes.isExecutable(playwright)) {
    return { path: playwright, source: 'playwright' };
  }
  return undefined;
}

/**
 * What to do: use the one found, or the installs to try in order (Playwright's download, then
 * the system package manager when root), or stop with one sentence naming the command to run.
 */
export function planChromium(probes = machineProbes) {
  const fromEnv = probes.env.CHROMIUM_PATH;
  if (fromEnv && !probes.isExecutable(fromEnv)) {
    return {
      action: 'stop',
      message: `CHROMIUM_PATH is ${fromEnv}, which is not an executable: point it at a Chromium or unset it.`,
    };
  }
  const found = findChromium(probes);
  if (found !== undefined) return { action: 'use', ...found };
  const installs = [{ via: 'playwright', command: ['npx', 'playwright', 'install', 'chromium'] }];
  if (probes.isRoot() && probes.hasCommand('apt-get')) {
    installs.push({
      via: 'apt-get',
      command: [
        'sh',
        '-c',
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
      ],
    });
  }
  return {
    action: 'install',
    installs,
    stopMessage:
      'No Chromium found and none could be installed: run `sudo apt-get install chromium` (or `npx playwright install chromium`), or set CHROMIUM_PATH to a Chromium, then run npm test again.',
  };
}

function main() {
  const plan = planChromium();
  if (plan.action === 'use') {
    console.log(`Chromium for the browser tests: ${plan.path} (${plan.source}).`);
    return 0;
  }
  if (plan.action === 'stop') {
    console.error(plan.message);
    return 1;
  }
  for (const install of plan.installs) {
    console.log(`No Chromium found: installing one with \`${install.command.join(' ')}\`.`);
    try {
      execFileSync(install.command[0], install.command.slice(1), { stdio: 'inherit' });
    } catch {
      console.log(`That did not work (${install.via}).`);
      continue;
    }
    const found = findChromium();
    if (found !== undefined) {
      console.log(`Chromium for the browser tests: ${found.path} (${found.source}).`);
      return 0;
    }
  }
  console.error(plan.stopMessage);
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit(main());
