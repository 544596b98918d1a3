import type { SessionSummary } from '../../protocol/index.js';

export type SessionsVisibility = 'agent' | 'all';

/** How far an agent's session tools reach: `tools.sessions` of claw.json. */
export interface SessionsReach {
  visibility: SessionsVisibility;
  allowAgents: readonly string[];
}

/**
 * The one rule for acting across agents: spawning a child as another agent,
 * sending to or reading another agent's session. An agent reaches its own;
 * another only with `visibility: all` or when `allowAgents` names it.
 */
export function mayReachAgent(callerAgentId: string, targetAgentId: string, reach: SessionsReach): boolean {
  return targetAgentId === callerAgentId || reach.visibility === 'all' || reach.allowAgents.includes(targetAgentId);
}

function agentOfKey(key: string): string | undefined {
  const match = /^agent:([^:]+):/.exec(key);
  return match?.[1];
}

/**
 * Whether an agent may see (list, read, message) a session: its own agent's
 * sessions and the children its sessions spawned, whatever agent runs them;
 * every session only with `tools.sessions.visibility: all`.
 */
export function canSeeSession(callerAgentId: string, target: Pick<SessionSummary, 'agentId' | 'spawnedBy'>, reach: SessionsReach): boolean {
  if (mayReachAgent(callerAgentId, target.agentId, reach)) return true;
  return target.spawnedBy !== undefined && agentOfKey(target.spawnedBy) === callerAgentId;
}

/** The refusal for a session the caller may not see, saying how to widen it. */
export function invisibleSession(key: string, callerAgentId: string): string {
  return `Session ${key} belongs to another agent, and agent "${callerAgentId}" sees only its own sessions and its children's. An operator can name that agent in tools.sessions.allowAgents (or set tools.sessions.visibility to "all") in claw.json to allow it.`;
}

/** The refusal for acting as another agent (a child spawned as it). */
export function unreachableAgent(targetAgentId: string, callerAgentId: string): string {
  return `Agent "${callerAgentId}" may not act as agent "${targetAgentId}": a child runs with its parent's authority, so spawning it as another agent needs the owner's say-so. An operator can name "${targetAgentId}" in tools.sessions.allowAgents (or set tools.sessions.visibility to "all") in claw.json.`;
}
