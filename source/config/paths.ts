import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Every location claw reads or writes, derived from one state directory. */
export interface StatePaths {
  root: string;
  config: string;
  gatewayInfo: string;
  gatewayLock: string;
  gatewayToken: string;
  credentials: string;
  execApprovals: string;
  logs: string;
  memory: string;
  cron: string;
  /** The spend ledger (SQLite): every model call's reservation and cost. */
  spendLedger: string;
  skills: string;
  hooks: string;
  workspace(agentId: string): string;
  agentDir(agentId: string): string;
  sessionsDir(agentId: string): string;
  memoryIndex(agentId: string): string;
}

export const DEFAULT_AGENT_ID = 'main';

export function resolveStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CLAW_STATE_DIR?.trim();
  if (fromEnv) return resolve(fromEnv);
  return join(homedir(), '.claw');
}

export function statePaths(root: string = resolveStateDir()): StatePaths {
  return {
    root,
    config: join(root, 'claw.json'),
    gatewayInfo: join(root, 'gateway.json'),
    gatewayLock: join(root, 'gateway.lock'),
    gatewayToken: join(root, 'credentials', 'gateway-token'),
    credentials: join(root, 'credentials'),
    execApprovals: join(root, 'exec-approvals.json'),
    logs: join(root, 'logs'),
    memory: join(root, 'memory'),
    cron: join(root, 'cron'),
    spendLedger: join(root, 'spend', 'ledger.sqlite'),
    skills: join(root, 'skills'),
    hooks: join(root, 'hooks'),
    workspace: (agentId) => join(root, agentId === DEFAULT_AGENT_ID ? 'workspace' : `workspace-${agentId}`),
    agentDir: (agentId) => join(root, 'agents', agentId),
    sessionsDir: (agentId) => join(root, 'agents', agentId, 'sessions'),
    memoryIndex: (agentId) => join(root, 'memory', `${agentId}.sqlite`),
  };
}
