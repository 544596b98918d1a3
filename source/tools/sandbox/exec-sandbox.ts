import { resolve } from 'node:path';
import type { ClawConfig, StatePaths } from '../../config/index.js';
import type { ExecSandbox } from '../exec/exec-tool.js';
import { hiddenPaths, probeSandbox, probeSandboxInBackground, type SandboxStatus } from './sandbox.js';

/**
 * The sandbox exec uses under this config: probed once, `off` only when the
 * operator says so. The probe starts a bwrap child, so it runs in `prepare()`
 * once the gateway listens, or when the status is first read before that
 * finished (an exec call, a status or hello snapshot).
 */
export function execSandboxFor(config: ClawConfig, paths: StatePaths): ExecSandbox {
  const settings = config.tools.exec.sandbox;
  const off: SandboxStatus | undefined = settings.mode === 'off' ? { kind: 'none', reason: 'tools.exec.sandbox.mode is "off"' } : undefined;
  return {
    get status(): SandboxStatus {
      return off ?? probeSandbox();
    },
    hidden: [...hiddenPaths(paths.root, settings.hiddenPaths), ...tokenFilesOf(config)],
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
