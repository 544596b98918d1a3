import type { SessionSummary } from '../../protocol/index.js';

export type SessionsVisibility = 'agent' | 'all';

function agentOfKey(key: string): string | undefined {
  const match = /^agent:([^:]+):/.exec(key);
  return match?.[1];
}

/**
 * Whether an agent may see (list, read, message) a session: its own agent's
 * sessions and the children its sessions spawned, whatever agent runs them;
 * every session only with `tools.sessions.visibility: all`.
 */
export function canSeeSession(callerAgentId: string, target: Pick<SessionSummary, 'agentId' | 'spawnedBy'>, visibility: SessionsVisibility): boolean {
  if (visibility === 'all' || target.agentId === callerAgentId) return true;
  return target.spawnedBy !== undefined && agentOfKey(target.spawnedBy) === callerAgentId;
}

/** The refusal for a session the caller may not see, saying how to widen it. */
export function invisibleSession(key: string, callerAgentId: string): string {
  return `Session ${key} belongs to another agent, and agent "${callerAgentId}" sees only its own sessions and its children's. An operator can set tools.sessions.visibility to "all" in claw.json to allow it.`;
}
