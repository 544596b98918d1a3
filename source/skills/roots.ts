import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentWorkspaceDir as workspaceOf, type ClawConfig, type StatePaths } from '../config/index.js';
import type { SkillRoot } from './discovery.js';

/**
 * `skills/` at the package root. Source (source/skills) and build
 * (dist/skills) sit at the same depth, so one relative path serves both.
 */
export function bundledSkillsDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'skills');
}

/** An agent's workspace folder: its configured `workspace`, else the state dir's default for it. */
export function agentWorkspaceDir(config: ClawConfig, paths: StatePaths, agentId: string): string {
  return workspaceOf(config, paths, agentId);
}

export interface RootOptions {
  config: ClawConfig;
  paths: StatePaths;
  workspaceDir: string;
  /** Home folder for `~/.agents/skills`; tests pass a temp dir. */
  home?: string;
  bundledDir?: string;
}

/** The skill roots of one agent, highest precedence first. */
export function skillRoots(options: RootOptions): SkillRoot[] {
  const home = options.home ?? homedir();
  const expand = (dir: string) => resolve(options.workspaceDir, dir.startsWith('~/') ? join(home, dir.slice(2)) : dir);
  return [
    { source: 'workspace', dir: join(options.workspaceDir, 'skills') },
    { source: 'workspace-agents', dir: join(options.workspaceDir, '.agents', 'skills') },
    { source: 'managed', dir: options.paths.skills },
    { source: 'personal-agents', dir: join(home, '.agents', 'skills') },
    { source: 'bundled', dir: options.bundledDir ?? bundledSkillsDir() },
    ...options.config.skills.load.extraDirs.map((dir): SkillRoot => ({ source: 'extra', dir: expand(dir) })),
  ];
}
