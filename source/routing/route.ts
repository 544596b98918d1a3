import type { ClawConfig } from '../config/index.js';
import { defaultAgentId, resolveAgent, type MatchedBy, type RouteSource } from './bindings.js';
import { directSessionKey, groupSessionKey } from './session-key.js';

export interface RouteInput extends RouteSource {
  threadId?: string | undefined;
}

export interface Route {
  agentId: string;
  sessionKey: string;
  matchedBy: MatchedBy;
}

/** Inbound source → (agent, session key). Deterministic: same config and input, same route. */
export function routeInbound(input: RouteInput, config: Pick<ClawConfig, 'agents' | 'bindings' | 'session'>): Route {
  const { agentId, matchedBy } = resolveAgent(input, config.bindings, defaultAgentId(config));
  const sessionKey =
    input.peer.kind === 'group'
      ? groupSessionKey(agentId, input.channel, input.peer.id, input.threadId)
      : directSessionKey({ agentId, channel: input.channel, peerId: input.peer.id, accountId: input.accountId, dmScope: config.session.dmScope });
  return { agentId, sessionKey, matchedBy };
}
