import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { findSkillDirsSync, readSkillSync } from './discovery.js';
import type { SkillManifest } from './manifest.js';

/** A skill about to be installed: what it declares and what in it can run. */
export interface InstallPlan {
  /** The skill folder to copy (inside a temp dir for archives). */
  dir: string;
  manifest: SkillManifest;
  warnings: string[];
  /** Files (relative) that run: an executable bit, a `#!` line, a script's extension, or a build file whose recipes a tool runs (Makefile, package.json, …). */
  executables: string[];
  fileCount: number;
  /** Removes the temp extraction, if any. */
  cleanup(): void;
}

export class InstallError extends Error {
  override name = 'InstallError';
}

const SCRIPT_EXTENSIONS = /\.(?:sh|bash|zsh|fish|py|js|mjs|cjs|ts|rb|pl|php|ps1|bat|cmd|exe|bin|jar|mk)$/i;
/** Files a build tool runs as commands when it is invoked in the folder (`make`, `npm run`, `just`, …). */
const BUILD_FILES =
  /^(?:GNUmakefile|makefile|Makefile|justfile|Justfile|Rakefile|Taskfile\.ya?ml|package\.json|CMakeLists\.txt|build\.gradle(?:\.kts)?|Dockerfile|meson\.build)$/;

function archiveKind(path: string): 'tar' | 'zip' | undefined {
  if (/\.(?:tar\.gz|tgz)$/i.test(path)) return 'tar';
  if (/\.zip$/i.test(path)) return 'zip';
  return undefined;
}

function extract(file: string, kind: 'tar' | 'zip', into: string): void {
  try {
    // Both tools refuse members with `..` or absolute paths by default; links are refused below.
    if (kind === 'tar') execFileSync('tar', ['-xzf', file, '-C', into, '--no-same-owner'], { stdio: ['ignore', 'ignore', 'pipe'] });
    else execFileSync('unzip', ['-q', '-o', file, '-d', into], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const tool = kind === 'tar' ? 'tar' : 'unzip';
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new InstallError(
        `unpacking ${file} needs the \`${tool}\` program, which is not installed. Install it (e.g. \`apt-get install ${tool}\`), or unpack the archive yourself and install the folder.`,
      );
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new InstallError(
      `${file} could not be unpacked${stderr ? `: ${stderr}` : ''}. Check that it is a valid ${kind === 'tar' ? '.tar.gz' : '.zip'} file.`,
    );
  }
}

function startsWithShebang(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString() === '#!';
  } finally {
    closeSync(fd);
  }
}

/** Every file of the folder; a link or special file anywhere refuses the whole skill. */
function inventory(dir: string): { files: string[]; executables: string[] } {
  const files: string[] = [];
  const executables: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const rel = relative(dir, path);
      const stats = lstatSync(path);
      if (stats.isSymbolicLink())
        throw new InstallError(
          `${rel} is a symbolic link; skills with links are not installed (a link could point anywhere on this machine). Replace it with the file itself.`,
        );
      if (stats.isDirectory()) {
        walk(path);
        continue;
      }
      if (!stats.isFile()) throw new InstallError(`${rel} is not a regular file; remove it from the skill.`);
      files.push(rel);
      if ((stats.mode & 0o111) !== 0 || SCRIPT_EXTENSIONS.test(name) || BUILD_FILES.test(name) || startsWithShebang(path)) executables.push(rel);
    }
  };
  walk(dir);
  return { files, executables };
}

/** Unpacks (archives) and checks a skill before anything is copied: it must parse cleanly and hold no links. */
export function inspectSkillSource(source: string): InstallPlan {
  if (!existsSync(source)) throw new InstallError(`${source} does not exist. Give a skill folder, a .tar.gz or a .zip file.`);
  let temp: string | undefined;
  const cleanup = () => {
    if (temp) rmSync(temp, { recursive: true, force: true });
  };
  try {
    let searchIn = source;
    if (!statSync(source).isDirectory()) {
      const kind = archiveKind(source);
      if (!kind) throw new InstallError(`${source} is neither a folder nor a .tar.gz/.tgz/.zip archive.`);
      temp = mkdtempSync(join(tmpdir(), 'claw-skill-'));
      searchIn = join(temp, 'unpacked');
      mkdirSync(searchIn);
      extract(source, kind, searchIn);
    }
    const dirs = existsSync(join(searchIn, 'SKILL.md')) ? [searchIn] : findSkillDirsSync(searchIn);
    if (dirs.length === 0) throw new InstallError(`no SKILL.md found in ${source}. A skill is a folder with a SKILL.md at its top.`);
    if (dirs.length > 1)
      throw new InstallError(
        `${source} holds ${dirs.length} skills (${dirs.map((dir) => relative(searchIn, dir) || '.').join(', ')}); install them one folder at a time.`,
      );
    const dir = dirs[0]!;
    const { files, executables } = inventory(dir);
    const found = readSkillSync({ source: 'managed', dir: dirname(dir) }, dir);
    if (!found.ok)
      throw new InstallError(
        `${join(dir === searchIn ? basename(source) : relative(searchIn, dir), 'SKILL.md')} is broken: ${found.reason}. Fix it before installing.`,
      );
    const warnings = dir === searchIn ? [] : found.warnings;
    return { dir, manifest: found.manifest, warnings, executables, fileCount: files.length, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** What the user confirms: the skill's declared needs and every file that can run. */
export function formatInstallPlan(plan: InstallPlan, target: string): string {
  const { manifest } = plan;
  const req = manifest.requires;
  const needs = [
    req.bins.length ? `binaries: ${req.bins.join(', ')}` : '',
    req.anyBins.length ? `one of: ${req.anyBins.join(', ')}` : '',
    req.env.length ? `environment: ${req.env.join(', ')}` : '',
    req.os.length ? `os: ${req.os.join(', ')}` : '',
    req.config.length ? `config: ${req.config.join(', ')}` : '',
  ].filter(Boolean);
  const lines = [
    `Skill "${manifest.name}": ${manifest.description}`,
    `  install to     ${target}`,
    `  files          ${plan.fileCount}`,
    `  needs          ${needs.length ? needs.join('; ') : 'nothing declared'}`,
    `  allowed-tools  ${manifest.allowedTools.length ? manifest.allowedTools.join(', ') : 'none declared'}`,
  ];
  if (plan.executables.length > 0) {
    lines.push(`  executable files (they run through exec, with approvals):`);
    for (const file of plan.executables) lines.push(`    ${file}`);
  } else lines.push('  executable files  none');
  for (const warning of plan.warnings) lines.push(`  warning: ${warning}`);
  return lines.join('\n');
}

/** Copies the skill into `root/<name>` through a temp folder and a rename, so a half copy never looks like a skill. */
export function installSkillSync(plan: InstallPlan, root: string): string {
  const target = join(root, plan.manifest.name);
  if (existsSync(target)) throw new InstallError(`${target} already exists. Remove it first if you want to replace it.`);
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `.installing-${plan.manifest.name}-`));
  try {
    const copy = join(staging, plan.manifest.name);
    cpSync(plan.dir, copy, { recursive: true, preserveTimestamps: true });
    renameSync(copy, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}
