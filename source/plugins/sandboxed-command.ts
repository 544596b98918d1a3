import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { PluginPermissions } from './manifest.js';

/** Where `$workspace` and `$plugin` in a grant point. */
export interface GrantRoots {
  workspace: string;
  plugin: string;
  /** claw's state dir: no grant reaches into it (but for the workspace) or around it. */
  state: string;
  home?: string;
}

function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A path of `permissions.fs` as an absolute path: `$workspace`, `$plugin`, `~/…` or absolute; anything else is refused. */
export function grantedPath(entry: string, roots: GrantRoots): string {
  const home = roots.home ?? homedir();
  const expand = (prefix: string, base: string) =>
    entry === prefix ? base : entry.startsWith(`${prefix}/`) ? join(base, entry.slice(prefix.length + 1)) : undefined;
  const path =
    expand('$workspace', roots.workspace) ?? expand('$plugin', roots.plugin) ?? expand('~', home) ?? (isAbsolute(entry) ? resolve(entry) : undefined);
  if (!path) throw new Error(`permissions.fs path "${entry}" must be absolute or start with $workspace, $plugin or ~/.`);
  if ((within(roots.state, path) && !within(roots.workspace, path) && !within(roots.plugin, path)) || (within(path, roots.state) && path !== roots.workspace))
    throw new Error(
      `permissions.fs path "${entry}" reaches claw's state (${roots.state}), which no plugin may read or write; grant $workspace or a folder of its own.`,
    );
  return path;
}

export interface PluginCommandInput {
  runtimeFile: string;
  pluginDir: string;
  permissions: PluginPermissions;
  roots: GrantRoots;
  /** The heap cap, in MB. */
  maxMemoryMb: number;
  nodePath?: string;
}

export interface PluginCommand {
  file: string;
  args: string[];
  /** Read-only inside the sandbox although under a hidden folder (the plugin's own, the runtime, Node's). */
  visible: string[];
  /** Granted reads, brought back into the concealed home when they are there. */
  readable: string[];
  writable: string[];
}

/**
 * The Node command line of a plugin process: Node's permission model limited
 * to the runtime, the plugin's folder and the granted paths (no child
 * processes, no workers, no addons), to be run inside the exec sandbox.
 */
export function pluginCommand(input: PluginCommandInput): PluginCommand {
  const node = input.nodePath ?? process.execPath;
  const read = input.permissions.fs.read.map((entry) => grantedPath(entry, input.roots));
  const write = input.permissions.fs.write.map((entry) => grantedPath(entry, input.roots));
  const dirFlag = (path: string) => (path.endsWith('/') ? path : `${path}/`);
  const args = [
    '--experimental-permission',
    '--no-warnings',
    `--max-old-space-size=${input.maxMemoryMb}`,
    `--allow-fs-read=${input.runtimeFile}`,
    `--allow-fs-read=${dirFlag(input.pluginDir)}`,
    ...[...read, ...write].map((path) => `--allow-fs-read=${path}`),
    ...write.map((path) => `--allow-fs-write=${path}`),
    input.runtimeFile,
  ];
  // Binding a folder that holds the state dir back into view would undo its hiding.
  const visible = [input.pluginDir, dirname(input.runtimeFile), dirname(dirname(node))].filter((path) => !within(path, input.roots.state));
  return { file: node, args, visible, readable: read, writable: write };
}
