import { OUTSIDE_KINDS, principalKind, type SessionSummary } from '../../protocol/index.js';

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

/**
 * The sessions pane's label: the session's own label, else where it talks,
 * else its key; marked with who asked when its latest turn came from outside
 * (a contact, a group member, a webhook), whose turns get the narrow tools.
 */
export function sessionLabel(session: Pick<SessionSummary, 'key' | 'label' | 'lastChannel' | 'peer' | 'principal'>): string {
  const base = session.label ?? sessionOrigin(session) ?? session.key;
  const kind = session.principal ? principalKind(session.principal) : undefined;
  return kind && OUTSIDE_KINDS.has(kind) ? `${base} · ${kind}` : base;
}
