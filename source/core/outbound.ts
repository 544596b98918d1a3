import type { Logger } from '../config/index.js';
import type { ReplyRoute, TurnFailure } from '../protocol/index.js';

/** A turn's outcome as a channel delivers it. */
export interface OutboundReply {
  sessionKey: string;
  runId: string;
  /** The inbound message this answers. */
  messageId: string;
  status: 'replied' | 'failed' | 'aborted' | 'suppressed' | 'dropped';
  /** The reply text (replied) or what went wrong (failed, aborted, dropped). */
  text: string;
  /** A refusal addressed to the sender (a slash command they may not run, bad arguments): said as it is even in a group, unlike a turn's failure. */
  forSender?: boolean;
  /** For failed: which kind of failure (`budget`: a spend cap stopped it before any model call). */
  failure?: TurnFailure;
}

export interface DeliveryResult {
  delivered: boolean;
  /** Platform message id, when the channel has one. */
  messageId?: string;
  error?: string;
}

/** The outbound half of a channel: how replies reach its chats. */
export interface ChannelDelivery {
  deliver(route: ReplyRoute, reply: OutboundReply): Promise<DeliveryResult>;
  /**
   * Replies leave the machine (a chat platform): each delivery is marked in
   * the transcript before the message counts as answered, and a reply a crash
   * left unsent goes out after the restart.
   */
  durable?: boolean;
  /** The chats of this channel's owners (their direct chats): where a webhook may deliver unless the operator names others. */
  ownerChats?(): string[];
}

/** The way out: every reply goes to the route its message was accepted with. */
export interface OutboundPort {
  deliver(route: ReplyRoute, reply: OutboundReply): Promise<DeliveryResult>;
  /** A channel registers its outbound half when it starts; the returned function unregisters it. */
  register(channel: string, delivery: ChannelDelivery): () => void;
  /** True for a channel whose replies must survive a crash (see ChannelDelivery.durable). */
  durable(channel: string): boolean;
  /** Every running channel's owner chats, as `{channel, to}` targets. */
  ownerChats(): Array<{ channel: string; to: string }>;
}

/**
 * Channels that reach their clients through the gateway's own event stream
 * (the TUI and CLI) need no delivery: the `chat` events already carried the
 * reply to every attached client.
 */
const EVENT_CHANNELS = new Set(['tui']);

export class Outbound implements OutboundPort {
  readonly #channels = new Map<string, ChannelDelivery>();

  constructor(private readonly log: Logger) {}

  register(channel: string, delivery: ChannelDelivery): () => void {
    this.#channels.set(channel, delivery);
    return () => {
      if (this.#channels.get(channel) === delivery) this.#channels.delete(channel);
    };
  }

  durable(channel: string): boolean {
    return this.#channels.get(channel)?.durable === true;
  }

  ownerChats(): Array<{ channel: string; to: string }> {
    return [...this.#channels].flatMap(([channel, delivery]) => (delivery.ownerChats?.() ?? []).map((to) => ({ channel, to })));
  }

  async deliver(route: ReplyRoute, reply: OutboundReply): Promise<DeliveryResult> {
    if (EVENT_CHANNELS.has(route.channel)) return { delivered: true };
    const channel = this.#channels.get(route.channel);
    if (!channel) {
      const error = `no channel "${route.channel}" is running to deliver the reply to ${reply.messageId}`;
      this.log.warn(error);
      return { delivered: false, error };
    }
    try {
      return await channel.deliver(route, reply);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn(`delivering ${reply.messageId} on ${route.channel} failed: ${message}`);
      return { delivered: false, error: message };
    }
  }
}
