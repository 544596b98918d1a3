import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { StatePaths } from './paths.js';
import type { ClawConfig } from './schema.js';

/**
 * The one answer to "where is this agent's workspace": its configured
 * `workspace` (`~` expanded, relative to the state dir), else
 * `<state>/workspace` for `main` and `<state>/workspace-<id>` for the others.
 * Prompt, memory, skills, hooks and MCP roots all ask here, so they agree.
 */
export function agentWorkspaceDir(config: Pick<ClawConfig, 'agents'>, paths: StatePaths, agentId: string): string {
  const configured = config.agents.list.find((agent) => agent.id === agentId)?.workspace;
  if (!configured) return paths.workspace(agentId);
  const expanded = configured === '~' || configured.startsWith('~/') ? homedir() + configured.slice(1) : configured;
  return resolve(paths.root, expanded);
}
