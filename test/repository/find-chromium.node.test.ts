import { describe, expect, it } from 'vitest';
import {
  chromiumLaunchOptions,
  findChromium,
  planChromium,
  type ChromiumProbes,
} from '../../scripts/find-chromium.mjs';

function probes(machine: {
  env?: Record<string, string>;
  executables?: string[];
  path?: string[];
  playwright?: string;
  root?: boolean;
}): ChromiumProbes {
  const executables = new Set(machine.executables ?? []);
  const folders = machine.path ?? ['/usr/bin'];
  return {
    env: machine.env ?? {},
    isExecutable: (path) => executables.has(path),
    playwrightPath: () => machine.playwright,
    isRoot: () => machine.root ?? false,
    hasCommand: (name) => folders.some((folder) => executables.has(`${folder}/${name}`)),
    onPath: (name) =>
      folders.map((folder) => `${folder}/${name}`).find((path) => executables.has(path)),
  };
}

describe('given CHROMIUM_PATH', () => {
  it('uses it before anything else', () => {
    const machine = probes({
      env: { CHROMIUM_PATH: '/opt/chrome/chrome' },
      executables: ['/opt/chrome/chrome', '/usr/bin/chromium'],
    });
    expect(planChromium(machine)).toEqual({
      action: 'use',
      path: '/opt/chrome/chrome',
      source: 'CHROMIUM_PATH',
    });
  });

  it('stops with one sentence when it names nothing executable', () => {
    const plan = planChromium(
      probes({ env: { CHROMIUM_PATH: '/nope' }, executables: ['/usr/bin/chromium'] }),
    );
    expect(plan).toMatchObject({ action: 'stop' });
    expect(plan.action === 'stop' && plan.message).toMatch(/^CHROMIUM_PATH is \/nope.*\.$/);
  });
});

describe('given no CHROMIUM_PATH', () => {
  it.each([
    ['chromium', '/usr/bin/chromium'],
    ['chromium-browser', '/usr/local/bin/chromium-browser'],
    ['google-chrome', '/usr/bin/google-chrome'],
  ])('finds the system %s on PATH', (_name, path) => {
    const machine = probes({ executables: [path], path: ['/usr/local/bin', '/usr/bin'] });
    expect(findChromium(machine)).toEqual({ path, source: 'system' });
  });

  it("falls back to Playwright's own download when it is there", () => {
    const cached = '/root/.cache/ms-playwright/chromium-1200/chrome-linux/chrome';
    expect(findChromium(probes({ executables: [cached], playwright: cached }))).toEqual({
      path: cached,
      source: 'playwright',
    });
    expect(findChromium(probes({ playwright: cached }))).toBeUndefined();
  });

  it("plans Playwright's download, then apt-get when root with apt-get", () => {
    const plan = planChromium(probes({ root: true, executables: ['/usr/bin/apt-get'] }));
    expect(plan.action === 'install' && plan.installs.map((install) => install.via)).toEqual([
      'playwright',
      'apt-get',
    ]);
  });

  it('plans no apt-get when not root, and says which command to run if the download fails', () => {
    const plan = planChromium(probes({ root: false, executables: ['/usr/bin/apt-get'] }));
    expect(plan.action === 'install' && plan.installs.map((install) => install.via)).toEqual([
      'playwright',
    ]);
    expect(plan.action === 'install' && plan.stopMessage).toMatch(/apt-get install chromium/);
  });
});

describe('given the launch options every Chromium of the project uses', () => {
  it('launch the Chromium findChromium finds, headless-safe', () => {
    const options = chromiumLaunchOptions(
      probes({ env: { CHROMIUM_PATH: '/opt/chrome/chrome' }, executables: ['/opt/chrome/chrome'] }),
    );

    expect(options.executablePath).toBe('/opt/chrome/chrome');
    expect(options.args).toContain('--no-sandbox');
  });

  it('name Debian’s path when no Chromium is found, so the launch says what is missing', () => {
    expect(chromiumLaunchOptions(probes({})).executablePath).toBe('/usr/bin/chromium');
  });
});
