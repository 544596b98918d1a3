import type { SessionSummary } from '../../protocol/index.js';

/**
 * Where a channel session talks, for the sessions pane: `telegram · Ada`,
 * `telegram · group "Family" · topic 3`. Undefined for sessions no chat
 * platform reached (the TUI's own, cron, hooks), which keep their key.
 */
export function sessionOrigin(session: Pick<SessionSummary, 'lastChannel' | 'peer'>): string | undefined {
  const { peer } = session;
  if (!peer) return undefined;
  const channel = session.lastChannel ?? 'channel';
  const name = peer.name?.trim() || peer.id;
  if (peer.kind === 'direct') return `${channel} · ${name}`;
  return `${channel} · group "${name}"${peer.threadId ? ` · topic ${peer.threadId}` : ''}`;
}
