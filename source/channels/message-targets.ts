import type { ClawConfig } from '../config/index.js';
import type { ReplyRoute } from '../protocol/index.js';
import type { AnyChannelAdapter, ChannelAccountBase } from './adapter.js';
import type { Channel } from './channel.js';
import type { TargetResolution } from './message-tool.js';
import type { ApprovedSender } from './pairing-store.js';

/** What the `message` tool may see of the channel host, for one session. */
export interface TargetView {
  config: ClawConfig;
  /** Every registered channel, running or not. */
  adapters: readonly AnyChannelAdapter[];
  /** The route the session was last reached on. */
  own: ReplyRoute | undefined;
  /** The accounts running now. */
  accounts: ReadonlyArray<{ adapter: AnyChannelAdapter; accountId: string; channel: Channel; config: ChannelAccountBase | undefined }>;
  approved: readonly ApprovedSender[];
  /** Every route a session was reached on this run. */
  routes: Iterable<ReplyRoute>;
}

const keyOf = (channel: string, accountId: string): string => `${channel}:${accountId}`;

/** Where a `message` tool call writes: the channel and account asked for (or the session's own), and a chat it may write to. */
export function resolveMessageTarget(
  input: { agentId: string; channel?: string | undefined; to?: string | undefined; threadId?: string | undefined },
  view: TargetView,
): TargetResolution {
  const { own } = view;
  const running = (channelId: string, accountId: string | undefined) => view.accounts.find((a) => a.adapter.id === channelId && a.accountId === accountId);
  const known = view.accounts.map((a) => keyOf(a.adapter.id, a.accountId));
  const knownText = known.length > 0 ? known.join(', ') : 'none (no channel is running)';
  const fallback = own?.channel ?? view.accounts[0]?.adapter.id;
  const [channelId, accountHint] = (input.channel ?? fallback ?? '').split(':');
  const adapter = view.adapters.find((a) => a.id === channelId);
  if (!adapter || !channelId || (accountHint && !running(channelId, accountHint))) {
    return { ok: false, error: `Unknown channel "${input.channel ?? ''}". Known: ${knownText}.` };
  }
  const accountId = accountHint ?? accountFor(channelId, input.agentId, view);
  const account = running(channelId, accountId);
  if (!account || !accountId) return { ok: false, error: `No ${adapter.label} account is running. Known channels: ${known.join(', ') || 'none'}.` };
  const chats = knownChats(account, view);
  const to = input.to ?? (own?.channel === channelId && own.accountId === accountId ? own.peer?.id : undefined);
  if (!to) return { ok: false, error: `Say which chat with "to". Known chats: ${[...chats.keys()].join(', ') || 'none yet'}.` };
  const kind = chats.get(to);
  if (!kind)
    return { ok: false, error: `Unknown target "${to}" on ${keyOf(channelId, accountId)}. Known chats: ${[...chats.keys()].join(', ') || 'none yet'}.` };
  const threadId = input.threadId ?? (own?.peer?.id === to ? own.threadId : undefined);
  const route: ReplyRoute = { channel: channelId, accountId, peer: { kind, id: to }, ...(threadId ? { threadId } : {}) };
  const ownChat = own?.channel === channelId && own.accountId === accountId && own.peer?.id === to && own.threadId === threadId;
  return { ok: true, outbound: account.channel, route, ownChat };
}

/** The account an agent speaks through on a channel: its own route's, then a binding's, then the first running one. */
function accountFor(channelId: string, agentId: string, view: TargetView): string | undefined {
  if (view.own?.channel === channelId && view.own.accountId) return view.own.accountId;
  const bound = view.config.bindings.find((b) => b.agentId === agentId && b.match.channel === channelId && b.match.accountId);
  return bound?.match.accountId ?? view.accounts.find((a) => a.adapter.id === channelId)?.accountId;
}

/** Chats an account may write to: allowlisted users and groups, approved senders, what the channel knows, chats seen this run. */
function knownChats(account: TargetView['accounts'][number], view: TargetView): Map<string, 'direct' | 'group'> {
  const channelId = account.adapter.id;
  const chats = new Map<string, 'direct' | 'group'>();
  for (const id of account.config?.allowFrom ?? []) chats.set(id, 'direct');
  for (const id of Object.keys(account.config?.groups ?? {})) chats.set(id, 'group');
  for (const chat of account.channel.chats?.() ?? []) chats.set(chat.id, chat.kind);
  for (const sender of view.approved) if (sender.channel === channelId && sender.accountId === account.accountId) chats.set(sender.chatId, 'direct');
  for (const route of view.routes)
    if (route.channel === channelId && route.accountId === account.accountId && route.peer) chats.set(route.peer.id, route.peer.kind);
  return chats;
}
