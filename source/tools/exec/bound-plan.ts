import { createHash } from 'node:crypto';
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { confinePath } from '../fs/confine.js';
import type { Connector, ExecPlan, Redirect } from './plan.js';

export interface BoundCommand {
  argv: string[];
  /** Path found on PATH (what runs), undefined when not found. */
  executable: string | undefined;
  /** Redirections with their targets made absolute. */
  redirects: Redirect[];
  /** Content hash of the script this command runs when it lives inside the roots (a rewrite asks again). */
  sha256?: string;
}

/**
 * Everything that decides what an exec call runs, as approvals see it: the
 * parsed commands with their resolved executables, redirections, the env the
 * call set, the workdir and the network grant. `key` is its canonical text:
 * a session approval remembers the key, never the command text.
 */
export interface BoundPlan {
  text: string;
  /** Whether claw expanded globs: the argv then differs from the text, and the display shows the argv. */
  globbed: boolean;
  shellRequired: boolean;
  shellReasons: string[];
  connectors: (Connector | null)[];
  /** Commands per step, so the steps can be rebuilt from `commands`. */
  stepSizes: number[];
  commands: BoundCommand[];
  cwd: string;
  env: Record<string, string>;
  network: boolean;
  key: string;
}

/** Interpreters whose first file argument is the program they run. */
const interpreters = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'lua',
  'deno',
  'bun',
  'tclsh',
  'make',
  'awk',
  'gawk',
]);

function hashFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(1 << 16);
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

function insideRoots(path: string, roots: readonly string[]): boolean {
  const [workspace, ...others] = roots;
  if (!workspace) return false;
  try {
    confinePath(path, workspace, others);
    return true;
  } catch {
    return false;
  }
}

/** The hash of every file the command runs from inside the roots: its executable, or an interpreter's script. */
function scriptHash(argv: readonly string[], executable: string | undefined, cwd: string, roots: readonly string[]): string | undefined {
  const files: string[] = [];
  if (executable && insideRoots(executable, roots)) files.push(executable);
  const name = executable?.slice(executable.lastIndexOf('/') + 1) ?? '';
  if (interpreters.has(name)) {
    for (const arg of argv.slice(1)) {
      if (arg.startsWith('-')) continue;
      const path = isAbsolute(arg) ? arg : resolve(cwd, arg);
      if (insideRoots(path, roots) && hashFile(path) !== undefined) files.push(path);
    }
  }
  if (files.length === 0) return undefined;
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${hashFile(file) ?? 'missing'}\0`);
  return hash.digest('hex');
}

export interface BindInput {
  plan: ExecPlan;
  /** Executable per command of the plan, in order (empty for a shell-required plan). */
  executables: (string | undefined)[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  network: boolean;
  /** Workspace first, then tools.fsRoots. */
  roots: readonly string[];
  /** Set when `plan` is the result of expandPlanGlobs. */
  globbed?: boolean;
}

export function bindPlan(input: BindInput): BoundPlan {
  const { plan, cwd } = input;
  const commands: BoundCommand[] = plan.shellRequired
    ? []
    : plan.steps
        .flatMap((step) => step.pipeline)
        .map((command, index) => {
          const executable = input.executables[index];
          const bound: BoundCommand = {
            argv: command.argv,
            executable,
            redirects: command.redirects.map((r) => (r.target === undefined ? r : { ...r, target: isAbsolute(r.target) ? r.target : resolve(cwd, r.target) })),
          };
          const sha256 = scriptHash(command.argv, executable, cwd, input.roots);
          if (sha256) bound.sha256 = sha256;
          return bound;
        });
  const env = Object.fromEntries(Object.entries(input.env).sort(([a], [b]) => a.localeCompare(b)));
  const connectors = plan.steps.map((step) => step.connector);
  const stepSizes = plan.steps.map((step) => step.pipeline.length);
  const key = JSON.stringify({
    shell: plan.shellRequired ? plan.text : null,
    connectors,
    stepSizes,
    commands: commands.map((c) => [c.executable ?? null, c.argv, c.redirects.map((r) => [r.fd, r.op, r.target ?? null]), c.sha256 ?? null]),
    cwd,
    env,
    network: input.network,
  });
  return {
    text: plan.text,
    globbed: input.globbed === true,
    shellRequired: plan.shellRequired,
    shellReasons: plan.shellReasons,
    connectors,
    stepSizes,
    commands,
    cwd,
    env,
    network: input.network,
    key,
  };
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function argvText(plan: BoundPlan): string {
  let at = 0;
  return plan.stepSizes
    .map((size, step) => {
      const commands = plan.commands.slice(at, at + size);
      at += size;
      const pipeline = commands
        .map((c) =>
          [...c.argv.map(quote), ...c.redirects.map((r) => (r.op === '>&1' ? '2>&1' : `${r.fd === 2 ? '2' : ''}${r.op} ${quote(r.target ?? '')}`))].join(' '),
        )
        .join(' | ');
      const connector = plan.connectors[step];
      return connector ? `${connector} ${pipeline}` : pipeline;
    })
    .join(' ');
}

/**
 * What the operator reads: env assignments and the network grant in front
 * of the exact command; after a glob expansion, the argv that will run
 * (every matched name, quoted) instead of the pattern.
 */
export function describeBoundPlan(plan: BoundPlan): string {
  const env = Object.entries(plan.env).map(([k, v]) => `${k}=${quote(v)}`);
  const prefix = [plan.network ? '[network]' : '', env.length ? `env ${env.join(' ')}` : ''].filter(Boolean).join(' ');
  const command = plan.globbed ? argvText(plan) : plan.text;
  return prefix ? `${prefix} ${command}` : command;
}
