import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT, type StatePaths } from '../../config/index.js';
import { LAUNCHD_LABEL, SYSTEMD_UNIT_NAME, launchdPlist, systemdUnit, type ServiceSpec } from './unit-files.js';

export type ServiceKind = 'systemd' | 'launchd';

/** Runs a service-manager command; injected in tests (no real systemctl in CI). */
export type CommandRunner = (file: string, args: string[]) => { code: number; output: string };

export const runCommand: CommandRunner = (file, args) => {
  const result = spawnSync(file, args, { encoding: 'utf8' });
  if (result.error) return { code: 127, output: result.error.message };
  return { code: result.status ?? 1, output: `${result.stdout}${result.stderr}`.trim() };
};

export interface ServiceEnvironment {
  platform: NodeJS.Platform;
  home: string;
  /** XDG_CONFIG_HOME or ~/.config. */
  configHome: string;
  uid: number;
  run: CommandRunner;
}

export function currentServiceEnvironment(): ServiceEnvironment {
  const home = homedir();
  return {
    platform: process.platform,
    home,
    configHome: process.env.XDG_CONFIG_HOME || join(home, '.config'),
    uid: process.getuid?.() ?? 0,
    run: runCommand,
  };
}

export function serviceKind(env: ServiceEnvironment): ServiceKind {
  if (env.platform === 'darwin') return 'launchd';
  if (env.platform === 'linux') return 'systemd';
  throw new Error(
    `claw gateway install supports Linux (systemd) and macOS (launchd), not ${env.platform}. Run \`claw gateway start\` from your own supervisor.`,
  );
}

export function serviceFilePath(env: ServiceEnvironment): string {
  return serviceKind(env) === 'systemd'
    ? join(env.configHome, 'systemd', 'user', SYSTEMD_UNIT_NAME)
    : join(env.home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
}

export function defaultServiceSpec(paths: StatePaths): ServiceSpec {
  return {
    nodePath: process.execPath,
    cliEntry: join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'),
    stateDir: paths.root,
  };
}

export interface InstallOutcome {
  kind: ServiceKind;
  path: string;
  content: string;
  /** Commands run to enable it, with what they said. */
  steps: Array<{ command: string; code: number; output: string }>;
  enabled: boolean;
}

/** Writes the unit/plist and enables it (`enable: false` only writes). */
export function installService(paths: StatePaths, env: ServiceEnvironment, options: { enable: boolean; spec?: Partial<ServiceSpec> }): InstallOutcome {
  const kind = serviceKind(env);
  const spec = { ...defaultServiceSpec(paths), ...options.spec };
  const path = serviceFilePath(env);
  const content = kind === 'systemd' ? systemdUnit(spec) : launchdPlist({ ...spec, logDir: paths.logs });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode: 0o644 });
  const steps: InstallOutcome['steps'] = [];
  const step = (file: string, args: string[]): boolean => {
    const result = env.run(file, args);
    steps.push({ command: [file, ...args].join(' '), ...result });
    return result.code === 0;
  };
  let enabled = false;
  if (options.enable) {
    enabled =
      kind === 'systemd'
        ? step('systemctl', ['--user', 'daemon-reload']) && step('systemctl', ['--user', 'enable', '--now', SYSTEMD_UNIT_NAME])
        : step('launchctl', ['bootstrap', `gui/${env.uid}`, path]);
  }
  return { kind, path, content, steps, enabled };
}

export function uninstallService(env: ServiceEnvironment): { kind: ServiceKind; path: string; removed: boolean; steps: InstallOutcome['steps'] } {
  const kind = serviceKind(env);
  const path = serviceFilePath(env);
  const steps: InstallOutcome['steps'] = [];
  const step = (file: string, args: string[]): void => {
    steps.push({ command: [file, ...args].join(' '), ...env.run(file, args) });
  };
  if (kind === 'systemd') step('systemctl', ['--user', 'disable', '--now', SYSTEMD_UNIT_NAME]);
  else step('launchctl', ['bootout', `gui/${env.uid}/${LAUNCHD_LABEL}`]);
  const removed = existsSync(path);
  if (removed) unlinkSync(path);
  if (kind === 'systemd') step('systemctl', ['--user', 'daemon-reload']);
  return { kind, path, removed, steps };
}

/** Whether a unit/plist is installed for this user (for `gateway status` and doctor). */
export function serviceInstalled(env: ServiceEnvironment): boolean {
  try {
    return existsSync(serviceFilePath(env));
  } catch {
    return false;
  }
}
