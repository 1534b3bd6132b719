export interface ChromiumProbes {
  env: Record<string, string | undefined>;
  isExecutable(path: string): boolean;
  playwrightPath(): string | undefined;
  isRoot(): boolean;
  hasCommand(name: string): boolean;
  onPath(name: string): string | undefined;
}
export interface FoundChromium {
  path: string;
  source: 'CHROMIUM_PATH' | 'system' | 'playwright';
}
export type ChromiumPlan =
  | ({ action: 'use' } & FoundChromium)
  | { action: 'stop'; message: string }
  | {
      action: 'install';
      installs: { via: 'playwright' | 'apt-get'; command: string[] }[];
      stopMessage: string;
    };
export const machineProbes: ChromiumProbes;
export function findChromium(probes?: ChromiumProbes): FoundChromium | undefined;
export function planChromium(probes?: ChromiumProbes): ChromiumPlan;
export function chromiumLaunchOptions(probes?: ChromiumProbes): {
  executablePath: string;
  args: string[];
};
