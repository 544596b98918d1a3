import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClawConfig } from '../../config/index.js';
import { ownerOnlyPaths, resolveExecutable, type ApprovalGate, type ConfinedCommand } from '../../tools/index.js';
import { answerWord } from './acp-permission.js';
import type { AcpLaunch } from './acp-process.js';

export type Confine = (file: string, args: readonly string[], policy: ConfinedCommand) => { file: string; args: string[] } | { unavailable: string };

/**
 * Where the agent's own program lives, when that is somewhere the sandbox
 * hides (home, or the private /tmp): the executable and every absolute path
 * or file URL among its arguments (`--import file:///…/loader.mjs`), each as
 * the package folder around it (the nearest folder with a package.json below
 * that place), else its own folder. `node ~/agents/x.js`, an npm-installed
 * agent under ~/.npm-global or a checkout under /tmp then still starts.
 */
export function programFolders(command: string, args: readonly string[], cwd: string, pathVar: string | undefined, home = homedir()): string[] {
  const paths = args.map((arg) => (arg.startsWith('file://') ? fileURLToPath(arg) : arg)).filter((arg) => isAbsolute(arg) && existsSync(arg));
  const files = [resolveExecutable(command, cwd, pathVar), ...paths];
  const folders = new Set<string>();
  for (const file of files) {
    if (!file) continue;
    const real = realpathSync(file);
    const hiddenRoot = [home, '/tmp'].find((root) => inside(root, real));
    if (!hiddenRoot) continue;
    let folder = dirname(real);
    for (let at = folder; inside(hiddenRoot, at); at = dirname(at)) {
      if (existsSync(join(at, 'package.json'))) {
        folder = at;
        break;
      }
    }
    folders.add(folder);
  }
  return [...folders];
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

type AcpAgentSettings = ClawConfig['acp']['agents'][string];

/**
 * How the agent starts: inside the exec sandbox (cwd and tools.fsRoots
 * writable but for the workspace's code and instructions, the state dir,
 * secret folders and the rest of home hidden but for `readable`, the
 * network on unless `network: false`, since it calls its own model). With
 * no sandbox here it runs only if the owner approves running it as is, and
 * `sandbox: false` (the owner's choice in claw.json) skips the sandbox.
 */
export async function launchOf(
  name: string,
  settings: AcpAgentSettings,
  where: { cwd: string; roots: readonly string[]; workspace: string; env: NodeJS.ProcessEnv },
  deps: { confine: Confine },
  gate: ApprovalGate,
  signal: AbortSignal,
): Promise<AcpLaunch | { refused: string }> {
  const env = Object.fromEntries(Object.entries(where.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const plain: AcpLaunch = { file: settings.command, args: settings.args, cwd: where.cwd, env };
  if (!settings.sandbox) return plain;
  const confined = deps.confine(settings.command, settings.args, {
    cwd: where.cwd,
    writable: [...where.roots, ...settings.writable.map((path) => (isAbsolute(path) ? path : join(env.HOME || homedir(), path)))],
    readOnly: ownerOnlyPaths(where.workspace),
    network: settings.network,
    readable: [...settings.readable, ...programFolders(settings.command, settings.args, where.cwd, env.PATH, env.HOME || homedir())],
  });
  if (!('unavailable' in confined)) return { ...plain, file: confined.file, args: confined.args };
  const shown = [settings.command, ...settings.args].join(' ');
  const outcome = await gate.request(
    {
      kind: 'acp',
      command: `${name}: start ${shown} UNSANDBOXED`,
      cwd: where.cwd,
      envKeys: Object.keys(settings.env),
      reason: `no sandbox can start here (${confined.unavailable}): external agent "${name}" would run with everything your user can reach`,
    },
    signal,
  );
  return outcome.approved ? plain : { refused: `External agent "${name}" was not started: running it unsandboxed ${answerWord(outcome)}.` };
}
