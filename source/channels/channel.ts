import type { ReplyRoute } from '../protocol/index.js';
import type { InboundSink } from '../queue/index.js';

/** What `claw channels status` shows for one account of a channel. */
export interface ChannelStatus {
  channel: string;
  accountId: string;
  state: 'starting' | 'running' | 'reconnecting' | 'error' | 'stopped';
  /** Why the channel is reconnecting or in error; what to do about it. */
  reason?: string | undefined;
  /** The platform identity, e.g. the bot's @username. */
  identity?: string | undefined;
  lastInboundAt?: number | undefined;
  lastOutboundAt?: number | undefined;
  reconnectAttempts: number;
  /** Messages handed to the agent since the account started. */
  handled?: number | undefined;
  /** Updates not taken since the account started, by reason. */
  ignored?: Record<string, number> | undefined;
}

/** A reply a channel sends: text (Markdown from the model), optional buttons, an edit of an earlier message. */
export interface ChannelReply {
  text: string;
  /** Answer to this platform message (a quote/reply where the platform has one). */
  replyTo?: string | undefined;
  /** Replace this platform message's text instead of sending a new one (streaming). */
  edit?: string | undefined;
  /** A reply still streaming: shown as one message, cut with "…" when longer (its further parts come with the final reply, once). */
  preview?: boolean | undefined;
  buttons?: ReadonlyArray<ReadonlyArray<{ label: string; data: string }>> | undefined;
  silent?: boolean | undefined;
  /** Names this reply (its run): a platform that dedupes sends by a key (Discord's nonce) sends it once, however often it is retried. */
  key?: string | undefined;
}

export interface ChannelSendResult {
  delivered: boolean;
  /** Platform ids of the messages sent (a long reply is several). */
  messageIds: string[];
  error?: string | undefined;
  /** The chat takes nothing from us any more (the bot was blocked, the chat is gone): no note about the failure can reach it either. */
  chatGone?: boolean | undefined;
}

/** The outbound half: how text reaches one of the channel's chats. */
export interface ChannelOutbound {
  send(route: ReplyRoute, reply: ChannelReply): Promise<ChannelSendResult>;
  /** Adds an emoji reaction to a platform message; channels without reactions say so in the error. */
  react(route: ReplyRoute, messageId: string, emoji: string): Promise<ChannelSendResult>;
}

/**
 * A channel adapter, both halves: inbound (start/stop, normalising platform
 * updates into InboundMessage for the sink) and outbound (send/react), plus
 * its status. A channel's failure is its own: it never throws into another.
 */
export interface Channel extends ChannelOutbound {
  readonly id: string;
  readonly accountId: string;
  start(sink: InboundSink): Promise<void>;
  stop(): Promise<void>;
  status(): ChannelStatus;
  /** Shows "typing…" in the chat while a reply is being made, where the platform has it. */
  typing?(route: ReplyRoute): void;
  /** Chats the platform knows beyond the config's allowlists (the `message` tool may write to them). */
  chats?(): ReadonlyArray<{ id: string; kind: 'direct' | 'group' }>;
}
