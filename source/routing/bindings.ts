import type { ClawConfig } from '../config/index.js';

export type Binding = ClawConfig['bindings'][number];
import type { PeerKind } from '../protocol/index.js';

export type { PeerKind };

/** Where an inbound message came from, as routing needs it. */
export interface RouteSource {
  channel: string;
  accountId?: string | undefined;
  peer: { kind: PeerKind; id: string };
  /** The enclosing chat of a thread or topic, matched when the peer itself has no binding. */
  parentPeer?: { kind: PeerKind; id: string } | undefined;
}

export type MatchedBy = 'peer' | 'parent-peer' | 'channel-account' | 'channel' | 'default';

export interface AgentChoice {
  agentId: string;
  matchedBy: MatchedBy;
}

function samePeer(a: { kind: PeerKind; id: string } | undefined, b: { kind: PeerKind; id: string } | undefined): boolean {
  return a !== undefined && b !== undefined && a.kind === b.kind && a.id === b.id;
}

function channelMatches(binding: Binding, source: RouteSource): boolean {
  return binding.match.channel === undefined || binding.match.channel === source.channel;
}

function accountMatches(binding: Binding, source: RouteSource): boolean {
  return binding.match.accountId === undefined || binding.match.accountId === source.accountId;
}

/** The agent that answers when no binding matches: the one marked `default`, else `main` when configured (or nothing is), else the first listed. */
export function defaultAgentId(config: Pick<ClawConfig, 'agents'>): string {
  const list = config.agents.list;
  const marked = list.find((agent) => agent.default);
  if (marked) return marked.id;
  if (list.length === 0 || list.some((agent) => agent.id === 'main')) return 'main';
  return list[0]!.id;
}

/**
 * Picks the agent for a message: peer > parent peer > channel+account >
 * channel > default. Within one tier the first binding in config order wins.
 */
export function resolveAgent(source: RouteSource, bindings: readonly Binding[], fallbackAgentId: string): AgentChoice {
  const tiers: Array<[MatchedBy, (b: Binding) => boolean]> = [
    ['peer', (b) => samePeer(b.match.peer, source.peer) && channelMatches(b, source) && accountMatches(b, source)],
    ['parent-peer', (b) => samePeer(b.match.peer, source.parentPeer) && channelMatches(b, source) && accountMatches(b, source)],
    [
      'channel-account',
      (b) => !b.match.peer && b.match.accountId !== undefined && b.match.channel === source.channel && b.match.accountId === source.accountId,
    ],
    ['channel', (b) => !b.match.peer && b.match.accountId === undefined && b.match.channel === source.channel],
  ];
  for (const [matchedBy, test] of tiers) {
    const hit = bindings.find(test);
    if (hit) return { agentId: hit.agentId, matchedBy };
  }
  return { agentId: fallbackAgentId, matchedBy: 'default' };
}
