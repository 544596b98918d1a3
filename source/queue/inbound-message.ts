import type { QueueMode } from './modes.js';
import type { Principal, ReplyRoute } from '../protocol/index.js';
import { parseSessionKey, type PeerKind } from '../routing/index.js';

/** Every trigger becomes this: one message for one session, before access control and routing. */
export interface InboundMessage {
  channel: string;
  accountId?: string | undefined;
  peer: { kind: PeerKind; id: string };
  parentPeer?: { kind: PeerKind; id: string } | undefined;
  /** The chat's display name: the person's in a direct chat, the group's title (the sessions pane shows it). */
  peerName?: string | undefined;
  threadId?: string | undefined;
  /** Set when the sender names its session explicitly (TUI, CLI, cron, hooks); routing is skipped. */
  sessionKey?: string | undefined;
  /** Unique per channel; with the channel it is the dedupe key. */
  messageId: string;
  text: string;
  senderId?: string | undefined;
  senderName?: string | undefined;
  /**
   * Who is asking, set by the trigger (never read from the text). Absent, it
   * follows from the channel (`principalOf`): anything unknown is a contact.
   */
  principal?: Principal | undefined;
  /** Set by a channel for its account's owner: their slash commands may do admin things (`/pairing approve`). */
  owner?: boolean | undefined;
  /** Set by a channel for anyone but the owner: the text reaches the model fenced as untrusted. */
  untrusted?: boolean | undefined;
  /** Media saved under the workspace; the text also names them, so the model sees them. */
  attachments?: ReadonlyArray<{ kind: 'photo' | 'document' | 'voice' | 'audio' | 'video'; path: string }> | undefined;
  queueMode?: QueueMode | undefined;
  /**
   * A turn the owner did not ask for (a heartbeat, a cron system event): its
   * prompt and reply stay out of every chat view; only what it announces shows.
   */
  background?: boolean | undefined;
  /** A model for this message's turn only (a heartbeat's or a webhook's own), instead of the session's. */
  model?: string | undefined;
  /** A shorter limit for this message's turn than agents.defaults.turnTimeoutSeconds (webhooks, cron). */
  timeoutSeconds?: number | undefined;
  /** Where the reply goes when not back to the sender: a sub-agent result answered in the chat that asked for the work. */
  replyRoute?: ReplyRoute | undefined;
}

/** Where a channel hands its messages: resolves once the message is durable (or known as a duplicate). */
export type InboundSink = (message: InboundMessage) => Promise<{ runId: string; status: 'started' | 'queued' | 'duplicate' | 'dropped' }>;

/** Where the reply to a message goes: the route it names, else back to the chat it came from. */
export function replyRouteOf(message: InboundMessage): ReplyRoute {
  if (message.replyRoute) return message.replyRoute;
  return {
    channel: message.channel,
    ...(message.accountId !== undefined ? { accountId: message.accountId } : {}),
    peer: message.peer,
    ...(message.threadId !== undefined ? { threadId: message.threadId } : {}),
  };
}

/**
 * The principal of a message: the one its trigger set, else what its channel
 * implies (the operator's TUI and CLI are the owner; cron, heartbeat, a parent
 * session and sessions_send name themselves); any other channel's sender,
 * or one marked untrusted, is a contact.
 */
export function principalOf(message: Pick<InboundMessage, 'principal' | 'channel' | 'untrusted' | 'owner' | 'peer' | 'senderId'>): Principal {
  if (message.principal !== undefined) return message.principal;
  if (message.untrusted) return message.peer.kind === 'group' ? 'group-member' : 'contact';
  switch (message.channel) {
    case 'tui':
      return 'owner';
    case 'heartbeat':
      return 'heartbeat';
    case 'cron':
      return `cron:${message.peer.id}`;
    case 'webhook':
      return `webhook:${message.peer.id}`;
    case 'subagent':
      return `subagent-of:${message.peer.id}`;
    case 'session':
      return `agent:${parseSessionKey(message.senderId ?? message.peer.id)?.agentId ?? message.senderId ?? message.peer.id}`;
    default:
      return message.owner ? 'owner' : message.peer.kind === 'group' ? 'group-member' : 'contact';
  }
}
