import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { agentWorkspaceDir, DEFAULT_AGENT_ID, type ClawConfig, type StatePaths } from '../config/index.js';
import type { MemoryRoots } from './types.js';

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path;
}

/** The agent's workspace: its configured folder, else the default under the state dir. */
export function agentWorkspace(config: ClawConfig, paths: StatePaths, agentId: string): string {
  return agentWorkspaceDir(config, paths, agentId);
}

export function memoryRoots(config: ClawConfig, paths: StatePaths, agentId: string): MemoryRoots {
  const workspace = agentWorkspace(config, paths, agentId);
  const extraPaths = config.memory.extraPaths.map((extra) => {
    const expanded = expandHome(extra);
    return isAbsolute(expanded) ? expanded : resolve(workspace, expanded);
  });
  return { workspace, extraPaths };
}

/** Every agent the config knows, `main` first. */
export function configuredAgentIds(config: ClawConfig): string[] {
  return [...new Set([DEFAULT_AGENT_ID, ...config.agents.list.map((agent) => agent.id)])];
}
