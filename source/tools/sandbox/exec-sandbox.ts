import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ClawConfig, StatePaths } from '../../config/index.js';
import type { ExecSandbox } from '../exec/exec-tool.js';
import { bubblewrapArgs, concealedHome, hiddenPaths, probeSandbox, probeSandboxInBackground, type SandboxStatus, type WrappedCommand } from './sandbox.js';

/**
 * The sandbox exec uses under this config: probed once, `off` only when the
 * operator says so. The probe starts a bwrap child, so it runs in `prepare()`
 * once the gateway listens, or when the status is first read before that
 * finished (an exec call, a status or hello snapshot).
 */
export function execSandboxFor(config: ClawConfig, paths: StatePaths, env: NodeJS.ProcessEnv = process.env): ExecSandbox {
  const settings = config.tools.exec.sandbox;
  const off: SandboxStatus | undefined = settings.mode === 'off' ? { kind: 'none', reason: 'tools.exec.sandbox.mode is "off"' } : undefined;
  return {
    get status(): SandboxStatus {
      return off ?? probeSandbox();
    },
    hidden: [...hiddenPaths(paths.root, settings.hiddenPaths), ...tokenFilesOf(config)],
    home: concealedHome(settings.readable, env.PATH, env.HOME || homedir()),
    network: settings.network,
    prepare: () => (off ? Promise.resolve() : probeSandboxInBackground()),
  };
}

/**
 * Every `tokenFile` a channel account names, wherever it lives: a secret the
 * operator handed claw, so no command sees it (as of the config the gateway
 * started with).
 */
function tokenFilesOf(config: ClawConfig): string[] {
  const files: string[] = [];
  for (const section of Object.values(config.channels) as Array<{ accounts?: Record<string, unknown> }>) {
    for (const account of Object.values(section.accounts ?? {})) {
      const file = (account as { tokenFile?: unknown }).tokenFile;
      if (typeof file === 'string' && file.length > 0) files.push(resolve(file));
    }
  }
  return files;
}

/** One line for doctor, status and the TUI header; `warning` is set when exec runs unsandboxed. */
export function describeExecSandbox(sandbox: Pick<ExecSandbox, 'status'>): { sandboxed: boolean; text: string; warning?: string } {
  if (sandbox.status.kind === 'bubblewrap') return { sandboxed: true, text: `exec sandboxed (bubblewrap, ${sandbox.status.path})` };
  const warning = `exec UNSANDBOXED: ${sandbox.status.reason}; every command asks for approval`;
  return { sandboxed: false, text: warning, warning };
}

/** What a process started outside the exec tool (a hook's command, an external agent) may touch inside the sandbox. */
export interface ConfinedCommand {
  cwd: string;
  /** Writable folders; one also listed in `readOnly` is only visible. */
  writable: readonly string[];
  readOnly: readonly string[];
  network: boolean;
  /** Paths in home (home-relative or absolute) it may read besides tools.exec.sandbox.readable (an agent's own config folder). */
  readable?: readonly string[];
  /** Paths that stay readable even inside a hidden one (a plugin's own folder under the state dir). */
  visible?: readonly string[];
}

/**
 * `file args…` inside the exec sandbox, with its hidden paths and concealed
 * home; or why it cannot be confined here.
 */
export function confineCommand(sandbox: ExecSandbox, file: string, args: readonly string[], policy: ConfinedCommand): WrappedCommand | { unavailable: string } {
  const status = sandbox.status;
  if (status.kind !== 'bubblewrap') return { unavailable: status.reason };
  const extra = (policy.readable ?? []).map((path) => (isAbsolute(path) || !sandbox.home ? path : join(sandbox.home.path, path)));
  const home = sandbox.home && extra.length > 0 ? { ...sandbox.home, readable: [...sandbox.home.readable, ...extra] } : sandbox.home;
  return bubblewrapArgs(status.path, { ...policy, hidden: sandbox.hidden, home }, policy.cwd, file, args);
}
